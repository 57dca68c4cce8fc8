// The verbs on a resource: get, list, watch, create, update, patch, delete,
// deletecollection (upstream: apiserver/pkg/endpoints/handlers). Storage,
// admission and validation sit behind the Registry; this layer decodes,
// negotiates the response shape and speaks HTTP.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  apiVersionOf,
  deprecationWarning,
  badRequest,
  invalid,
  isNotFound,
  methodNotAllowed,
  requestEntityTooLarge,
  schemaTypeOf,
  StatusError,
  toStatus,
  type DeleteOptions,
  type KubeList,
  type KubeObject,
  type ResourceInfo,
  type Status,
} from '@kubelab/api';
import { returnsDeletedObject } from '../registry/strategy.js';
import type { ResourceStore } from '../registry/interface.js';
import { printTable, type Printer } from '../printers/index.js';
import { customResourcePrinter } from '../apiextensions/printer.js';
import { listBytes } from '../cache/raw.js';
import { drainWaiter } from '../cache/backpressure.js';
import { CUSTOM_RESOURCE_PATCH_TYPES, decodeBody, parseJsonDocument, patchMediaType, readBody } from './body.js';
import { boolParam, intParam, requestContext } from './context.js';
import { checkPatchFields, decodeObject, parseFieldValidation } from '../decoding/decode.js';
import { yamlDuplicateLines } from '../decoding/json-keys.js';
import { parseIncludeObject, responseEncoding, responseShape, type ResponseShape } from './negotiate.js';
import { encodeList, encodeObject, encodeWatchEvent, hasProtobuf, NotEncodableError, PROTOBUF_WATCH } from './protobuf-encode.js';
import type { ResourceRequest } from './requestinfo.js';
import { patchOptionsErrors } from '../registry/fieldmanager/index.js';
import { warningHeaders, writeJson, writeProtobuf } from './respond.js';
import type { HandlerEnv } from './env.js';

/** Upstream's cap on the operations of one JSON patch (handlers' maxJSONPatchOperations). */
const MAX_JSON_PATCH_OPERATIONS = 10_000;

/** What prints a store's Table rows: its kind's printer, or a custom resource's columns. */
function tablePrinter(store: Pick<ResourceStore, 'info' | 'custom'>): string | Printer {
  return store.custom ? customResourcePrinter(store.custom.columns) : schemaTypeOf(store.info);
}

/** An object as it goes out: typed, and shaped as the client asked. */
export function shapeObject(env: HandlerEnv, store: Pick<ResourceStore, 'info' | 'custom'>, obj: KubeObject, req: IncomingMessage, q: URLSearchParams): unknown {
  const info = store.info;
  const typed = withType(info, obj);
  const shape = responseShape(req.headers.accept);
  if (shape === 'table') {
    return printTable(tablePrinter(store), [typed], { now: env.now(), includeObject: parseIncludeObject(q.get('includeObject')), resourceVersion: obj.metadata.resourceVersion ?? '' });
  }
  if (shape === 'partialMetadata') return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
  return typed;
}

export function withType(info: Pick<ResourceInfo, 'group' | 'version' | 'kind'>, obj: KubeObject): KubeObject {
  if (obj.kind && obj.apiVersion) return obj;
  return { apiVersion: apiVersionOf(info), kind: info.kind, ...obj };
}

function listResponse(env: HandlerEnv, store: ResourceStore, list: KubeList, shape: ResponseShape, q: URLSearchParams): unknown {
  const info = store.info;
  if (shape === 'table') {
    const opts: Parameters<typeof printTable>[2] = { now: env.now(), includeObject: parseIncludeObject(q.get('includeObject')), resourceVersion: list.metadata.resourceVersion ?? '' };
    if (list.metadata.continue) opts.continue = list.metadata.continue;
    if (list.metadata.remainingItemCount !== undefined) opts.remainingItemCount = list.metadata.remainingItemCount;
    return printTable(tablePrinter(store), list.items, opts);
  }
  if (shape === 'partialMetadata') {
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: list.metadata,
      items: list.items.map((o) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata })),
    };
  }
  // Items go out as the JSON they were stored as, without re-serializing (a 5,000-pod list stays cheap).
  const head = JSON.stringify({ kind: info.listKind, apiVersion: apiVersionOf(info), metadata: list.metadata });
  return listBytes(`${head.slice(0, -1)},"items":[`, list.items);
}

/**
 * A custom resource's fields its schema prunes: a strict decoding error
 * under fieldValidation=Strict, warnings under Warn (upstream: the CR
 * handler's pruning with ReturnPruned).
 */
function customUnknownFields(store: ResourceStore, object: KubeObject, q: URLSearchParams): string[] {
  if (!store.custom) return [];
  const validation = parseFieldValidation(q.get('fieldValidation'));
  if (validation === 'Ignore') return [];
  const unknown = store.custom.unknownFields(object as Parameters<typeof store.custom.unknownFields>[0]).map((f) => `unknown field "${f}"`);
  const { kind, version } = store.info;
  if (validation === 'Strict' && unknown.length) throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${unknown.join(', ')}`);
  return unknown;
}

/** 406 for a client that accepts only protobuf where this response has none (upstream errNotAcceptable). */
function notAcceptable(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'only the following media types are accepted: application/json, application/yaml',
    reason: 'NotAcceptable',
    code: 406,
  });
}

/** The response encoding the client asked for; throws 406 when it accepts nothing this response can be. */
function negotiate(req: IncomingMessage, canProtobuf: boolean): 'json' | 'protobuf' {
  const e = responseEncoding(req.headers.accept, canProtobuf);
  if (e === 'none') throw notAcceptable();
  return e;
}

/** One object as the client asked for it: protobuf when negotiated and encodable, else JSON in the asked shape. */
function writeObject(
  env: HandlerEnv,
  store: ResourceStore,
  obj: KubeObject,
  req: IncomingMessage,
  res: ServerResponse,
  q: URLSearchParams,
  code: number,
  headers: Record<string, string | string[]> = {},
): void {
  const info = store.info;
  const plain = responseShape(req.headers.accept) === 'object';
  if (negotiate(req, plain && !store.custom && hasProtobuf(schemaTypeOf(info))) === 'protobuf') {
    try {
      return writeProtobuf(res, code, encodeObject(withType(info, obj), schemaTypeOf(info)), headers);
    } catch (e) {
      // A free-form field without a message here: JSON, which the client also reads.
      if (!(e instanceof NotEncodableError)) throw e;
    }
  }
  writeJson(res, code, shapeObject(env, store, obj, req, q), headers);
}

/** Sets the namespace from the URL; a different one in the body is a 400 as upstream. */
function placeInNamespace(info: ResourceInfo, obj: KubeObject, namespace: string | undefined): void {
  if (!info.namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  obj.metadata.namespace = namespace;
}

function checkKind(info: ResourceInfo, obj: KubeObject, schemaKind = info.kind): void {
  if (obj.kind && obj.kind !== schemaKind) {
    throw badRequest(`${obj.kind} in version "${info.version}" cannot be handled as a ${schemaKind}: the kind in the body is ${obj.kind}, expected ${schemaKind}`);
  }
}

/** `schemaKind`: a subresource's own kind (Scale, Binding...); absent: the resource's objects. */
export async function decodeWriteBody(env: HandlerEnv, req: IncomingMessage, q: URLSearchParams, info: ResourceInfo, schemaKind?: string) {
  const { value, source } = decodeBody(req, await readBody(req, env.maxBodyBytes));
  const as = schemaKind && schemaKind !== info.kind ? { kind: schemaKind, version: 'v1' } : info;
  const decoded = decodeObject(as, value, parseFieldValidation(q.get('fieldValidation')), schemaKind ?? schemaTypeOf(info), source);
  checkKind(info, decoded.object, schemaKind);
  return decoded;
}

/** What a finished delete answers for a store without ReturnDeletedObject (upstream finalizeDelete): Success naming the object. */
export function deletedStatus(info: Pick<ResourceInfo, 'group' | 'resource'>, obj: KubeObject): Omit<Status, 'code'> {
  const details: NonNullable<Status['details']> = { name: obj.metadata.name ?? '' };
  if (info.group) details.group = info.group;
  details.kind = info.resource;
  if (obj.metadata.uid) details.uid = obj.metadata.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

function deleteOptions(q: URLSearchParams, body: unknown): DeleteOptions {
  const opts: DeleteOptions = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as DeleteOptions) } : {};
  const grace = intParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const pp = q.get('propagationPolicy');
  if (pp) {
    if (pp !== 'Orphan' && pp !== 'Background' && pp !== 'Foreground') throw badRequest(`propagationPolicy: Unsupported value: "${pp}": supported values: "Foreground", "Background", "Orphan"`);
    opts.propagationPolicy = pp;
  }
  if (q.getAll('dryRun').length) opts.dryRun = q.getAll('dryRun');
  return opts;
}

export async function serveResourceVerb(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  const info = store.info;
  // A deprecated kind's every answer warns (upstream's installer); kubectl prints `Warning: v1 ComponentStatus is deprecated in v1.19+`.
  const deprecated = deprecationWarning(info);
  if (deprecated) for (const [k, v] of Object.entries(warningHeaders([deprecated]))) res.setHeader(k, v);
  const ns = info.namespaced ? r.namespace : undefined;
  const shape = responseShape(req.headers.accept);
  switch (r.verb) {
    case 'get': {
      const opts: { resourceVersion?: string } = {};
      const rv = q.get('resourceVersion');
      if (rv) opts.resourceVersion = rv;
      const obj = await store.get(ns, r.name!, opts);
      return writeObject(env, store, obj, req, res, q, 200);
    }
    case 'list': {
      const opts: Parameters<ResourceStore['list']>[0] = {};
      if (ns !== undefined) opts.namespace = ns;
      for (const k of ['labelSelector', 'fieldSelector', 'resourceVersion', 'resourceVersionMatch', 'continue'] as const) {
        const v = q.get(k);
        if (v) opts[k] = v;
      }
      // Refused for a list (the store's validation says so in upstream's words).
      const sie = optionalBool(q, 'sendInitialEvents');
      if (sie !== undefined) opts.sendInitialEvents = sie;
      const limit = intParam(q, 'limit');
      if (limit !== undefined && limit > 0) opts.limit = limit;
      const list = await store.list(opts);
      const encoding = negotiate(req, shape === 'object' && !store.custom && hasProtobuf(schemaTypeOf(info)));
      if (encoding === 'protobuf') {
        try {
          return writeProtobuf(res, 200, encodeList(list, apiVersionOf(info), schemaTypeOf(info), info.listKind));
        } catch (e) {
          if (!(e instanceof NotEncodableError)) throw e;
        }
      }
      return writeJson(res, 200, listResponse(env, store, list, shape, q));
    }
    case 'watch':
      return serveWatch(env, store, r, req, res, q);
    case 'create': {
      const ctx = requestContext(req, q);
      const { object, warnings } = await decodeWriteBody(env, req, q, info);
      warnings.push(...customUnknownFields(store, object, q));
      placeInNamespace(info, object, ns);
      const created = await store.create(ns, object, ctx);
      return writeObject(env, store, created, req, res, q, 201, warningHeaders(warnings));
    }
    case 'update': {
      const ctx = requestContext(req, q);
      const { object, warnings } = await decodeWriteBody(env, req, q, info);
      warnings.push(...customUnknownFields(store, object, q));
      placeInNamespace(info, object, ns);
      if (!object.metadata.name) object.metadata.name = r.name;
      if (object.metadata.name !== r.name) throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${r.name})`);
      const sub = r.subresource === 'status' || r.subresource === 'finalize' || r.subresource === 'approval' || r.subresource === 'ephemeralcontainers' ? r.subresource : undefined;
      const updated = await store.update(ns, r.name!, object, ctx, sub);
      return writeObject(env, store, updated, req, res, q, 200, warningHeaders(warnings));
    }
    case 'patch': {
      const ctx = requestContext(req, q);
      const type = patchMediaType(req, store.custom ? CUSTOM_RESOURCE_PATCH_TYPES : undefined);
      const { value: patch, text, duplicates } = parseJsonDocument(await readBody(req, env.maxBodyBytes), 'patch');
      if (type === 'application/json-patch+json' && Array.isArray(patch) && patch.length > MAX_JSON_PATCH_OPERATIONS) {
        throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
      }
      const validation = parseFieldValidation(q.get('fieldValidation'));
      // An apply patch is decoded as YAML upstream: its repeated keys are go-yaml's errors.
      const apply = type === 'application/apply-patch+yaml';
      const yamlDuplicates = apply && validation !== 'Ignore' ? yamlDuplicateLines(text, duplicates) : [];
      if (validation === 'Strict' && yamlDuplicates.length) {
        throw badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${yamlDuplicates.join('\n  ')}`);
      }
      const warnings = type === 'application/json-patch+json' ? [] : [...yamlDuplicates, ...checkPatchFields(info, patch, validation, apply ? [] : duplicates)];
      const sub = r.subresource === 'status' || r.subresource === 'approval' || r.subresource === 'ephemeralcontainers' ? r.subresource : undefined;
      const optionErrors = patchOptionsErrors(apply, ctx.fieldManager, ctx.force);
      if (optionErrors.length) throw invalid('PatchOptions', 'meta.k8s.io', '', optionErrors);
      try {
        const patched = await store.patch(ns, r.name!, type, patch, ctx, sub);
        return writeObject(env, store, patched, req, res, q, 200, warningHeaders(warnings));
      } catch (e) {
        // A JSON patch that does not apply (a failed `test`, a missing path): upstream's generic 422 drops the detail.
        if (type === 'application/json-patch+json' && e instanceof StatusError && e.code === 422 && !e.status.details) {
          throw new StatusError({
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: 'the server rejected our request due to an error in our request',
            reason: 'Invalid',
            details: {},
            code: 422,
          });
        }
        // Server-side apply creates what does not exist yet.
        if (type !== 'application/apply-patch+yaml' || sub || !isNotFound(e)) throw e;
        const { object } = decodeObject(info, patch, validation, schemaTypeOf(info));
        placeInNamespace(info, object, ns);
        object.metadata.name ??= r.name;
        const created = await store.create(ns, object, ctx, 'Apply');
        return writeObject(env, store, created, req, res, q, 201, warningHeaders(warnings));
      }
    }
    case 'delete': {
      const ctx = requestContext(req, q);
      const body = await readBody(req, env.maxBodyBytes);
      const opts = deleteOptions(q, body.length ? decodeBody(req, body).value : undefined);
      const result = await store.delete(ns, r.name!, opts, ctx);
      if (result.deleted && !returnsDeletedObject(info)) return writeJson(res, 200, deletedStatus(info, result.object));
      return writeObject(env, store, result.object, req, res, q, 200);
    }
    case 'deletecollection': {
      if (!info.verbs.includes('deletecollection')) throw methodNotAllowed(`the server does not allow this method on the requested resource`);
      const ctx = requestContext(req, q);
      const body = await readBody(req, env.maxBodyBytes);
      const opts = deleteOptions(q, body.length ? decodeBody(req, body).value : undefined);
      const listOpts: Parameters<ResourceStore['list']>[0] = {};
      if (ns !== undefined) listOpts.namespace = ns;
      const ls = q.get('labelSelector');
      const fs = q.get('fieldSelector');
      if (ls) listOpts.labelSelector = ls;
      if (fs) listOpts.fieldSelector = fs;
      const list = await store.list(listOpts);
      const deleted: KubeObject[] = [];
      for (const item of list.items) {
        try {
          deleted.push((await store.delete(item.metadata.namespace, item.metadata.name!, opts, ctx)).object);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      return writeJson(res, 200, { kind: info.listKind, apiVersion: apiVersionOf(info), metadata: list.metadata, items: deleted });
    }
  }
}

/** A boolean query parameter that may be absent (upstream decodes `*bool`). */
function optionalBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw badRequest(`invalid ${name} ${JSON.stringify(v)}: must be a boolean`);
}

/** A watch: chunked JSON lines, one event each, until the client leaves or timeoutSeconds pass. */
async function serveWatch(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  const info = store.info;
  const opts: Parameters<ResourceStore['watch']>[0] = {};
  if (info.namespaced && r.namespace !== undefined) opts.namespace = r.namespace;
  for (const k of ['labelSelector', 'fieldSelector', 'resourceVersion'] as const) {
    const v = q.get(k);
    if (v !== null) opts[k] = v;
  }
  const match = q.get('resourceVersionMatch');
  if (match) opts.resourceVersionMatch = match;
  const sie = optionalBool(q, 'sendInitialEvents');
  if (sie !== undefined) opts.sendInitialEvents = sie;
  if (boolParam(q, 'allowWatchBookmarks')) opts.allowWatchBookmarks = true;
  const timeout = intParam(q, 'timeoutSeconds');
  if (timeout) opts.timeoutSeconds = timeout;
  const shape = responseShape(req.headers.accept);
  const include = parseIncludeObject(q.get('includeObject'));

  // Protobuf watch frames for a plain watch of a kind with a message (upstream's stream=watch serializer).
  const protobuf = negotiate(req, shape === 'object' && !store.custom && hasProtobuf(schemaTypeOf(info))) === 'protobuf';
  const frame = (type: string, object: unknown): string | Buffer => {
    if (protobuf) {
      try {
        return encodeWatchEvent(type, type === 'ERROR' ? (object as KubeObject) : withType(info, object as KubeObject), schemaTypeOf(info));
      } catch (e) {
        if (!(e instanceof NotEncodableError)) throw e;
        return encodeWatchEvent('ERROR', toStatus(e), schemaTypeOf(info));
      }
    }
    return `${JSON.stringify({ type, object })}\n`;
  };
  const watch = store.watch(opts);
  const drained = drainWaiter(watch.done);
  res.writeHead(200, { 'Content-Type': protobuf ? PROTOBUF_WATCH : 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  // The response's close, not the request's: the latter fires once the body is read.
  res.on('close', () => watch.stop());
  const timer = timeout ? setTimeout(() => watch.stop(), timeout * 1000) : undefined;
  let first = true;
  try {
    for await (const ev of watch.events) {
      if (res.destroyed) break;
      let object: unknown = ev.object;
      if (ev.type === 'ERROR' || ev.type === 'BOOKMARK') {
        if (shape === 'table' && ev.type === 'BOOKMARK') continue;
      } else if (shape === 'table') {
        object = printTable(tablePrinter(store), [withType(info, ev.object)], { now: env.now(), includeObject: include, noHeaders: !first, resourceVersion: ev.object.metadata.resourceVersion ?? '' });
        first = false;
      } else if (shape === 'partialMetadata') {
        object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: ev.object.metadata };
      } else {
        object = withType(info, ev.object);
      }
      // Backpressure: nothing more is taken from the watcher until the socket drained; a client that
      // never reads lets the watcher's buffer fill, and the watch is closed (upstream: cacheWatcher's buffer).
      if (!res.write(frame(ev.type, object)) && !(await drained(res, ['close']))) {
        res.destroy();
        break;
      }
    }
  } catch (e) {
    if (!res.destroyed) res.write(frame('ERROR', toStatus(e)));
  } finally {
    if (timer) clearTimeout(timer);
    watch.stop();
    res.end();
  }
}
