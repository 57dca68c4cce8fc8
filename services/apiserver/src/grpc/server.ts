// The component API (proto kubelab.apiserver.v1.ResourceService) over the
// same Registry the REST API uses. Objects travel as their stored JSON:
// requests are parsed once, responses are the cache's bytes when possible.

import * as grpc from '@grpc/grpc-js';
import { apiserverProto, type ResourceServiceHandlers } from '@kubelab/proto';
import { badRequest, StatusError, tooManyRequests, unsupportedMediaType, type DeleteOptions, type KubeObject, type WatchEvent, joinHostPort } from '@kubelab/api';
import type { PatchType, Registry, RequestContext, ResourceStore, Subresource } from '../registry/interface.js';
import type { TokenRequestREST } from '../serviceaccount/token-request.js';
import { toStatusError, type RequestObservation, type RequestRecorder } from '../registry/store.js';
import { listBytes, rawJson } from '../cache/raw.js';
import { resetCall, watchMessage, withEncodedWatch } from './watch-encoding.js';
import { drainWaiter } from '../cache/backpressure.js';
import { typeErrorOf } from '../decoding/decode.js';
import type { ServingTls } from '../http/server.js';
import { statusToGrpc, STATUS_METADATA_KEY } from '@kubelab/proto';
import type { UserInfo } from '@kubelab/api';
import { authorizeCall, INSECURE_SUPERUSER } from '../authorization/filter.js';
import type { AuthorizationAttributes, Authorizer } from '../authorization/types.js';
import type { FlowAdmission, FlowControl } from '../flowcontrol/flow-control.js';
import { TOO_MANY_REQUESTS } from '../flowcontrol/filter.js';
import {
  context as otelContext,
  contextFromMetadata,
  endRpcSpan,
  extractFromMap,
  ROOT_CONTEXT,
  serverContextOf,
  SpanKind,
  trace,
  traceServerHandlers,
  type Context,
  type Tracing,
} from '@kubelab/tracing';

interface Gvr {
  group?: string;
  version?: string;
  resource?: string;
}

const PATCH_TYPES = new Set<string>(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);

function notServed(g: Gvr): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    code: 404,
    reason: 'NotFound',
    message: `the server could not find the requested resource (resource: "${g.resource}" in group "${g.group}" version "${g.version}" is not served)`,
    details: { kind: g.resource ?? '', ...(g.group ? { group: g.group } : {}) },
  });
}

function resolve(registry: Registry, g: Gvr | null | undefined): ResourceStore {
  if (!g || !g.resource) throw badRequest('resource.resource: Required value: which resource (e.g. "pods")');
  const version = g.version || 'v1';
  const s = registry.store(g.group ?? '', version, g.resource);
  if (!s) throw notServed({ group: g.group ?? '', version, resource: g.resource });
  return s;
}

/** Parses a JSON bytes field, naming the field in the error. */
export function parseJsonField(field: string, bytes: Buffer | Uint8Array | undefined, opts: { optional?: boolean } = {}): unknown {
  if (!bytes || bytes.length === 0) {
    if (opts.optional) return undefined;
    throw badRequest(`${field}: Required value: the request carries no JSON`);
  }
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (e) {
    throw badRequest(`${field}: invalid JSON: ${(e as Error).message}`);
  }
  return v;
}

/**
 * A JSON object field carrying an object of `kind`: checked as the REST
 * decoder checks a body (upstream decodes into the Go type), so a wrong type
 * is INVALID_ARGUMENT naming the field and is never stored.
 */
function objectField(field: string, bytes: Buffer | undefined, kind?: string): KubeObject {
  const v = parseJsonField(field, bytes);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw badRequest(`${field}: Invalid value: must be a JSON object, got ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}`);
  }
  const o = v as KubeObject;
  if (o.metadata !== undefined && (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata))) {
    throw badRequest(`${field}.metadata: Invalid value: must be a JSON object`);
  }
  const m = o.metadata as unknown as Record<string, unknown> | undefined;
  for (const f of ['name', 'generateName', 'namespace', 'resourceVersion', 'uid'] as const) {
    if (m && m[f] !== undefined && typeof m[f] !== 'string') {
      throw badRequest(`${field}.metadata.${f}: Invalid value: must be a string, got ${typeof m[f]}`);
    }
  }
  const typeError = kind && typeErrorOf(kind, o);
  if (typeError) throw badRequest(`${field}: Invalid value: ${typeError}`);
  return o;
}

/** Tracing off: the caller's `traceparent` alone (a created object's annotation continues it); undefined without one. */
function callerContext(call: object): Context | undefined {
  const md = (call as { metadata?: grpc.Metadata }).metadata;
  if (!md || md.get('traceparent').length === 0) return undefined;
  return contextFromMetadata(md, ROOT_CONTEXT);
}

/** The RequestContext of a call; `call` leads to its SERVER span when tracing is on (traceServerHandlers). */
function context(user: UserInfo, dryRun: string | undefined, fieldManager: string | undefined, call?: object, traceContext?: Context): RequestContext {
  if (dryRun && dryRun !== 'All') throw badRequest(`dryRun: Unsupported value: "${dryRun}": supported values: "All"`);
  const ctx: RequestContext = { user };
  if (dryRun === 'All') ctx.dryRun = true;
  if (fieldManager) ctx.fieldManager = fieldManager;
  // A component's writes without a fieldManager are attributed to its User-Agent (`kube-scheduler/kubelab …`).
  const ua = call && (call as { metadata?: grpc.Metadata }).metadata?.get('user-agent')[0];
  if (typeof ua === 'string' && ua) ctx.userAgent = ua;
  const tc: Context | undefined = traceContext ?? (call && (serverContextOf(call) ?? callerContext(call)));
  if (tc) ctx.traceContext = tc;
  return ctx;
}

function requireName(name: string | undefined): string {
  if (!name) throw badRequest('name: Required value: the object name');
  if (name.includes('/') || name === '.' || name === '..' || name.includes('%')) {
    throw badRequest(`name: Invalid value: "${name}": may not contain '/' or '%' or be '.' or '..'`);
  }
  return name;
}

function int64(v: string | number | undefined, field: string): number {
  const n = Number(v ?? 0);
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest(`${field}: Invalid value: ${String(v)}: must be a non-negative integer`);
  return n;
}

/** Encodes a list from its items' stored JSON (no re-serialization of items). */
export function listJson(list: { apiVersion?: string; kind?: string; metadata: object; items: KubeObject[] }): Buffer {
  return listBytes(`{"apiVersion":${JSON.stringify(list.apiVersion)},"kind":${JSON.stringify(list.kind)},"metadata":${JSON.stringify(list.metadata)},"items":[`, list.items);
}

/** Most unanswered items one CreateStream may have; more are refused (429) until answers go out. */
export const MAX_STREAM_PENDING = 4096;
const EMPTY = Buffer.alloc(0);

type CreateItemMsg = { resource?: Gvr | null; namespace?: string; object?: Buffer; dryRun?: string; fieldManager?: string };
type BindItemMsg = { namespace?: string; binding?: Buffer };
type UpdateItemMsg = { resource?: Gvr | null; namespace?: string; name?: string; object?: Buffer; dryRun?: string; fieldManager?: string; subresource?: string };
type PatchItemMsg = { resource?: Gvr | null; namespace?: string; name?: string; patchType?: string; patch?: Buffer; subresource?: string; dryRun?: string; fieldManager?: string };
type CreateTokenItemMsg = { namespace?: string; name?: string; tokenRequest?: Buffer };
type CreateStreamItemMsg = {
  id?: number;
  request?: CreateItemMsg | null;
  bind?: BindItemMsg | null;
  update?: UpdateItemMsg | null;
  updateStatus?: UpdateItemMsg | null;
  patch?: PatchItemMsg | null;
  createToken?: CreateTokenItemMsg | null;
  traceparent?: string;
  tracestate?: string;
};
/** The call each kind of streamed write stands for. */
type StreamedMethod = 'Create' | 'Bind' | 'Update' | 'UpdateStatus' | 'Patch' | 'CreateToken';

const SERVICE = 'kubelab.apiserver.v1.ResourceService';

/**
 * One streamed item's trace: its own `traceparent` (the caller's, as its own
 * call's metadata would carry it). Tracing on: a SERVER span per item named
 * as that call's (a root for items without one: unrelated objects never
 * share a trace); off: the caller's context alone, which the created object's
 * annotation continues.
 */
const noEnd = (): void => undefined;
/** An item with no trace of its own while tracing is off: nothing to carry, nothing to end. */
const UNTRACED: { ctx?: Context; end(code: number, details?: string): void } = Object.freeze({ end: noEnd });

function itemTrace(tracing: Tracing | undefined, item: CreateStreamItemMsg, method: StreamedMethod): { ctx?: Context; end(code: number, details?: string): void } {
  const parent = item.traceparent ? extractFromMap(item.tracestate ? { traceparent: item.traceparent, tracestate: item.tracestate } : { traceparent: item.traceparent }) : undefined;
  if (!tracing?.enabled) return parent ? { ctx: parent, end: noEnd } : UNTRACED;
  const span = tracing.tracer.startSpan(`${SERVICE}/${method}`, { kind: SpanKind.SERVER }, parent ?? ROOT_CONTEXT);
  if (span.isRecording()) span.setAttributes({ 'rpc.system': 'grpc', 'rpc.service': SERVICE, 'rpc.method': method, 'kubelab.create_stream.item': item.id ?? 0 });
  return { ctx: trace.setSpan(ROOT_CONTEXT, span), end: (code, details) => endRpcSpan(span, SpanKind.SERVER, code, details) };
}
type CreateResultMsg = { id: number; code: number; object: Buffer; status: Buffer };

function tooManyPending(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    code: 429,
    reason: 'TooManyRequests',
    message: `too many unanswered creates on this stream (more than ${MAX_STREAM_PENDING}); retry when answers arrive`,
    details: { retryAfterSeconds: 1 },
  });
}

/**
 * A tick every `ms` shared by everyone waiting: one timer for all the busy
 * batching watches instead of one each (a hundred watches would arm ten
 * thousand timers a second). The timer runs only while someone waits.
 */
export function sharedTick(ms: number): () => Promise<void> {
  let waiting: Array<() => void> = [];
  const fire = () => {
    const due = waiting;
    waiting = [];
    for (const r of due) r();
  };
  return () =>
    new Promise<void>((resolve) => {
      if (waiting.length === 0) setTimeout(fire, ms);
      waiting.push(resolve);
    });
}

/** What the write handlers share: the registry, the call's authorization and APF seat, the token issuer. */
interface WriteDeps {
  registry: Registry;
  admit: Admit;
  tokenRequest?: TokenRequestREST;
  requestMetrics?: RequestRecorder;
}

/** One create, as the Create RPC and each CreateStream item do it: the created object's JSON. */
async function createOne(d: WriteDeps, held: Held, caller: UserInfo | Promise<UserInfo>, req: CreateItemMsg, call?: object, traceContext?: Context): Promise<Buffer> {
  const user = caller instanceof Promise ? await caller : caller;
  await d.admit(held, user, 'create', req.resource, req.namespace);
  const s = resolve(d.registry, req.resource);
  const obj = objectField('object', req.object, s.info.kind);
  const created = await s.create(req.namespace || undefined, obj, context(user, req.dryRun, req.fieldManager, call, traceContext));
  return rawJson(created);
}

/** One binding, as the Bind RPC and each CreateStream bind item do it (a create of pods/binding). */
async function bindOne(d: WriteDeps, held: Held, caller: UserInfo | Promise<UserInfo>, req: BindItemMsg, call?: object, traceContext?: Context): Promise<Buffer> {
  const user = caller instanceof Promise ? await caller : caller;
  if (!req.namespace) throw badRequest("namespace: Required value: the pod's namespace");
  const binding = objectField('binding', req.binding);
  await d.admit(held, user, 'create', { group: '', version: 'v1', resource: 'pods' }, req.namespace, binding.metadata?.name, 'binding');
  await d.registry.bind(req.namespace, binding, context(user, undefined, undefined, call, traceContext));
  return EMPTY;
}

/** One update, as the Update RPC and each CreateStream update item do it: the object itself, a CSR's approval or a namespace's finalize. */
async function updateOne(d: WriteDeps, held: Held, caller: UserInfo | Promise<UserInfo>, req: UpdateItemMsg, call?: object, traceContext?: Context): Promise<Buffer> {
  const user = caller instanceof Promise ? await caller : caller;
  // The subresources written by Update (UpdateStatus has its own RPC): a CSR's approval, a namespace's finalize.
  if (req.subresource && req.subresource !== 'approval' && req.subresource !== 'finalize')
    throw badRequest(`subresource: Unsupported value: "${req.subresource}": supported values: "", "approval", "finalize"`);
  const sub = req.subresource === 'approval' || req.subresource === 'finalize' ? req.subresource : undefined;
  await d.admit(held, user, 'update', req.resource, req.namespace, req.name, sub);
  const s = resolve(d.registry, req.resource);
  if (sub && !s.info.subresources.includes(sub)) throw notServed({ group: s.info.group, version: s.info.version, resource: `${s.info.resource}/${sub}` });
  const obj = objectField('object', req.object, s.info.kind);
  return rawJson(await s.update(req.namespace || undefined, requireName(req.name), obj, context(user, req.dryRun, req.fieldManager, call, traceContext), sub));
}

/** One status update, as the UpdateStatus RPC and each CreateStream update_status item do it. */
async function updateStatusOne(d: WriteDeps, held: Held, caller: UserInfo | Promise<UserInfo>, req: UpdateItemMsg, call?: object, traceContext?: Context): Promise<Buffer> {
  const user = caller instanceof Promise ? await caller : caller;
  await d.admit(held, user, 'update', req.resource, req.namespace, req.name, 'status');
  const s = resolve(d.registry, req.resource);
  if (!s.info.subresources.includes('status')) throw notServed({ group: s.info.group, version: s.info.version, resource: `${s.info.resource}/status` });
  const obj = objectField('object', req.object, s.info.kind);
  return rawJson(await s.update(req.namespace || undefined, requireName(req.name), obj, context(user, req.dryRun, req.fieldManager, call, traceContext), 'status'));
}

/** One patch, as the Patch RPC and each CreateStream patch item do it. */
async function patchOne(d: WriteDeps, held: Held, caller: UserInfo | Promise<UserInfo>, req: PatchItemMsg, call?: object, traceContext?: Context): Promise<Buffer> {
  const user = caller instanceof Promise ? await caller : caller;
  await d.admit(held, user, 'patch', req.resource, req.namespace, req.name, req.subresource);
  const s = resolve(d.registry, req.resource);
  const patchType = req.patchType ?? '';
  if (!PATCH_TYPES.has(patchType)) throw unsupportedMediaType([...PATCH_TYPES]);
  let sub: Subresource;
  if (req.subresource === 'status' || req.subresource === 'finalize' || req.subresource === 'approval') {
    if (!s.info.subresources.includes(req.subresource)) throw notServed({ group: s.info.group, version: s.info.version, resource: `${s.info.resource}/${req.subresource}` });
    sub = req.subresource;
  } else if (req.subresource) throw badRequest(`subresource: Unsupported value: "${req.subresource}": supported values: "", "status", "finalize", "approval"`);
  const patch = parseJsonField('patch', req.patch);
  return rawJson(await s.patch(req.namespace || undefined, requireName(req.name), patchType as PatchType, patch, context(user, req.dryRun, req.fieldManager, call, traceContext), sub));
}

/** One TokenRequest (serviceaccounts/<name>/token), as the CreateToken RPC and each CreateStream create_token item do it: the TokenRequest's JSON. */
async function createTokenOne(d: WriteDeps, held: Held, caller: UserInfo | Promise<UserInfo>, req: CreateTokenItemMsg, call?: object, traceContext?: Context): Promise<Buffer> {
  const user = caller instanceof Promise ? await caller : caller;
  if (!req.namespace) throw badRequest("namespace: Required value: the service account's namespace");
  const name = requireName(req.name);
  const tokenRequest = d.tokenRequest;
  if (!tokenRequest) throw notServed({ group: '', version: 'v1', resource: 'serviceaccounts/token' });
  const body = objectField('token_request', req.tokenRequest, 'TokenRequest');
  await d.admit(held, user, 'create', { group: '', version: 'v1', resource: 'serviceaccounts' }, req.namespace, name, 'token');
  const namespace = req.namespace;
  const issued = await counted(d.requestMetrics, { verb: 'POST', group: '', version: 'v1', resource: 'serviceaccounts', subresource: 'token', scope: 'resource' }, 201, () =>
    tokenRequest.create(namespace, name, body, context(user, undefined, undefined, call, traceContext)),
  );
  return Buffer.from(JSON.stringify(issued));
}

/** A streamed item's write: the call it stands for and how it runs (as that call's handler runs it). */
function streamedWrite(item: CreateStreamItemMsg): { method: StreamedMethod; run(d: WriteDeps, held: Held, user: UserInfo | Promise<UserInfo>, call: object, ctx?: Context): Promise<Buffer> } {
  const { bind, update, updateStatus, patch, createToken } = item;
  if (bind) return { method: 'Bind', run: (d, h, u, c, t) => bindOne(d, h, u, bind, c, t) };
  if (update) return { method: 'Update', run: (d, h, u, c, t) => updateOne(d, h, u, update, c, t) };
  if (updateStatus) return { method: 'UpdateStatus', run: (d, h, u, c, t) => updateStatusOne(d, h, u, updateStatus, c, t) };
  if (patch) return { method: 'Patch', run: (d, h, u, c, t) => patchOne(d, h, u, patch, c, t) };
  if (createToken) return { method: 'CreateToken', run: (d, h, u, c, t) => createTokenOne(d, h, u, createToken, c, t) };
  const request = item.request ?? {};
  return { method: 'Create', run: (d, h, u, c, t) => createOne(d, h, u, request, c, t) };
}

/** A failed streamed create: the code and metav1.Status a Create call would have ended with. */
function failedResult(err: unknown): { object: Buffer; code: number; status: Buffer } {
  let e: ReturnType<typeof statusToGrpc>;
  try {
    e = statusToGrpc(err);
  } catch (mapErr) {
    e = statusToGrpc(new Error(`could not encode the error status: ${(mapErr as Error).message}`));
  }
  const status = e.metadata.get(STATUS_METADATA_KEY)[0];
  return { object: EMPTY, code: e.code, status: Buffer.from(typeof status === 'string' ? status : (status ?? '')) };
}

type Unary<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>) => void;

/** What a call holds until it ends: its APF seat's release (at most one; a list, so a call that took none holds nothing). */
type Held = Array<() => void>;
const releaseAll = (held: Held) => {
  // Taken out before any runs (each once); a call holds one seat at most, so no list is copied.
  if (held.length === 1) held.pop()!();
  else if (held.length > 1) for (const r of held.splice(0)) r();
};

function unary<Req, Res>(f: (req: Req, call: object, held: Held) => Promise<Res>, onError?: (e: unknown) => void): Unary<Req, Res> {
  return (call, cb) => {
    const held: Held = [];
    let p: Promise<Res>;
    try {
      p = f(call.request, call, held);
    } catch (e) {
      p = Promise.reject(e);
    }
    p.then(
      (res) => {
        releaseAll(held);
        cb(null, res);
      },
      (err) => {
        releaseAll(held);
        onError?.(err);
        let e: ReturnType<typeof statusToGrpc>;
        try {
          e = statusToGrpc(err);
        } catch (mapErr) {
          e = statusToGrpc(new Error(`could not encode the error status: ${(mapErr as Error).message}`));
        }
        cb(e);
      },
    );
  };
}

export interface GrpcServerOptions {
  registry: Registry;
  /** The port serves TLS; with a client CA it requires a client certificate (mutual TLS). */
  tls?: ServingTls;
  /** Authorizes every call with the verb and resource it maps to (upstream: WithAuthorization); absent: everything allowed. */
  authorizer?: Authorizer;
  /** The caller's identity (set by the authentication chain); absent or undefined: INSECURE_SUPERUSER. */
  userOfCall?: (call: object) => UserInfo | Promise<UserInfo> | undefined;
  /** Logged for unexpected (500) failures only. */
  onInternalError?: (err: unknown) => void;
  /** Each RPC runs in a SERVER span named like it (`kubelab.apiserver.v1.ResourceService/Create`), continuing the caller's traceparent. */
  tracing?: Tracing;
  /** Least time between two messages of one batching watch (allow_batch); default 10 ms. */
  watchBatchIntervalMs?: number;
  /** serviceaccounts/token; absent (no signing key) CreateToken answers 404 as the REST subresource does. */
  tokenRequest?: TokenRequestREST;
  /** Counts the calls no store counts (CreateToken) in apiserver_request_total, as the REST handler counts serviceaccounts/token. */
  requestMetrics?: RequestRecorder;
  /** Hears each batch a watch writes to its client (the watch delivery records, watch-records.ts). */
  onWatchDelivery?: (user: string, group: string, resource: string, events: readonly WatchEvent[]) => void;
  /** API Priority and Fairness: every call but a watch waits for a seat of its priority level, or ends with its 429 (RESOURCE_EXHAUSTED). */
  flowControl?: FlowControl;
}

/** Authorizes one call on a resource: its attributes, or the 403 thrown (PERMISSION_DENIED). */
type Guard = (user: UserInfo, verb: string, g: Gvr | null | undefined, namespace: string | undefined, name?: string, subresource?: string, fieldSelector?: string) => AuthorizationAttributes;

function guardOf(authorizer: Authorizer | undefined): Guard {
  return (user, verb, g, namespace, name, subresource, fieldSelector) =>
    authorizeCall(authorizer, user, verb, { group: g?.group ?? '', version: g?.version || 'v1', resource: g?.resource ?? '', namespace, name, subresource, fieldSelector });
}

/** Authorizes one call, then takes its APF seat into `held` (released when the call ends); throws the 403 or the 429. */
type Admit = (held: Held, user: UserInfo, verb: string, g: Gvr | null | undefined, namespace: string | undefined, name?: string, subresource?: string, fieldSelector?: string) => void | Promise<void>;

/** A promise only when the call waits for its seat (queued by APF): most calls are admitted at once, without one. */
function admitOf(guard: Guard, flow: FlowControl | undefined): Admit {
  const seated = (held: Held, a: FlowAdmission): void => {
    if (!a.ok) throw tooManyRequests(TOO_MANY_REQUESTS, 1);
    held.push(a.release);
  };
  return (held, user, verb, g, namespace, name, subresource, fieldSelector) => {
    const attrs = guard(user, verb, g, namespace, name, subresource, fieldSelector);
    if (!flow) return;
    const pending = flow.admit(attrs);
    if (pending instanceof Promise) return pending.then((a) => seated(held, a));
    seated(held, pending);
  };
}

export function resourceServiceHandlers(opts: GrpcServerOptions): ResourceServiceHandlers {
  const { registry } = opts;
  const guard = guardOf(opts.authorizer);
  const admit = admitOf(guard, opts.flowControl);
  const deps: WriteDeps = { registry, admit, ...(opts.tokenRequest ? { tokenRequest: opts.tokenRequest } : {}), ...(opts.requestMetrics ? { requestMetrics: opts.requestMetrics } : {}) };
  const userOf = (call: object): UserInfo | Promise<UserInfo> => opts.userOfCall?.(call) ?? INSECURE_SUPERUSER;
  const batchIntervalMs = opts.watchBatchIntervalMs ?? 10;
  const batchTick = sharedTick(batchIntervalMs);
  const onError = (err: unknown) => {
    if (!StatusError.isInstance(err) || err.code >= 500) opts.onInternalError?.(err);
  };
  return {
    Get: unary(async (req, call, held) => {
      await admit(held, await userOf(call), 'get', req.resource, req.namespace, req.name);
      const s = resolve(registry, req.resource);
      const obj = await s.get(req.namespace || undefined, requireName(req.name), { resourceVersion: req.resourceVersion });
      return { json: rawJson(obj) };
    }, onError),

    List: unary(async (req, call, held) => {
      await admit(held, await userOf(call), 'list', req.resource, req.namespace, undefined, undefined, req.fieldSelector);
      const s = resolve(registry, req.resource);
      const list = await s.list({
        namespace: req.namespace,
        labelSelector: req.labelSelector,
        fieldSelector: req.fieldSelector,
        resourceVersion: req.resourceVersion,
        limit: int64(req.limit, 'limit'),
        continue: req.continue,
      });
      return { json: listJson(list) };
    }, onError),

    Watch: (call) => {
      let stopWatch: (() => void) | undefined;
      let done = false;
      const finish = (err?: unknown) => {
        if (done) return;
        done = true;
        stopWatch?.();
        if (err !== undefined) {
          onError(err);
          call.emit('error', statusToGrpc(err));
        } else call.end();
      };
      call.on('cancelled', () => {
        done = true;
        stopWatch?.();
      });
      call.on('error', () => finish());
      void (async () => {
        try {
          const req = call.request;
          const user = await userOf(call);
          guard(user, 'watch', req.resource, req.namespace, undefined, undefined, req.fieldSelector);
          const s = resolve(registry, req.resource);
          const onDelivery = opts.onWatchDelivery;
          const group = req.resource?.group ?? '';
          const resource = req.resource?.resource ?? '';
          const timeoutSeconds = int64(req.timeoutSeconds, 'timeoutSeconds');
          const w = s.watch({
            namespace: req.namespace,
            labelSelector: req.labelSelector,
            fieldSelector: req.fieldSelector,
            resourceVersion: req.resourceVersion,
            allowWatchBookmarks: req.allowWatchBookmarks,
            timeoutSeconds,
          });
          stopWatch = () => w.stop();
          if (done) return w.stop();
          const drained = drainWaiter(w.done);
          // Messages are pre-encoded WatchEvent bytes (watch-encoding.ts), shared by every watcher of an event.
          const write = async (msgs: Array<Buffer | Buffer[]>) => {
            for (const msg of msgs) {
              // Bytes, not a WatchEvent object: the service's Watch serializer writes them through.
              // Backpressure: a client that does not read lets the watcher's buffer fill; once the
              // watcher is closed for it, the stream is reset instead of waiting forever.
              if (!call.write(msg as never) && !done && !(await drained(call, ['close', 'cancelled']))) {
                if (!done) {
                  done = true;
                  w.stop();
                  resetCall(call);
                }
                return;
              }
            }
          };
          if (w.nextBatch) {
            // Whatever queued since the last write goes out together (one message with allow_batch).
            for (;;) {
              const evs = await w.nextBatch();
              if (evs.length === 0 || done) break;
              onDelivery?.(user.name, group, resource, evs);
              await write(watchMessage(evs, req.allowBatch));
              // A busy batching watch sends at most one message per tick of the
              // interval: what arrives meanwhile goes out together (fewer, larger
              // messages for both ends); an event after a quiet spell still goes out at once.
              if (req.allowBatch && batchIntervalMs > 0 && !done) await batchTick();
            }
          } else {
            for await (const ev of w.events) {
              if (done) break;
              onDelivery?.(user.name, group, resource, [ev]);
              await write(watchMessage([ev], false));
            }
          }
          finish();
        } catch (err) {
          finish(err);
        }
      })();
    },

    Create: unary(async (req, call, held) => ({ json: await createOne(deps, held, userOf(call), req, call) }), onError),

    CreateStream: (call) => {
      const user = userOf(call);
      // A rejected token fails every item with its 401, as separate Create calls would.
      if (user instanceof Promise) user.catch(() => undefined);
      // Items run concurrently as separate Create calls would; answers are
      // written as they finish, those finishing in the same I/O turn together.
      let pending = 0;
      let halfClosed = false;
      let closed = false;
      let out: CreateResultMsg[] = [];
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        if (closed) return;
        if (out.length > 0) {
          const results = out;
          out = [];
          call.write({ results });
        }
        if (halfClosed && pending === 0) {
          closed = true;
          call.end();
        }
      };
      const answer = (r: CreateResultMsg) => {
        pending--;
        out.push(r);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      };
      call.on('data', (msg: { items?: CreateStreamItemMsg[] }) => {
        for (const item of msg.items ?? []) {
          const id = item.id ?? 0;
          pending++;
          // Outside the stream's span: unrelated objects must not share one trace;
          // each item continues its own caller's trace (itemTrace).
          const write = streamedWrite(item);
          const t = pending > MAX_STREAM_PENDING ? undefined : itemTrace(opts.tracing, item, write.method);
          const held: Held = [];
          const p = t ? otelContext.with(ROOT_CONTEXT, () => write.run(deps, held, user, call, t.ctx)) : Promise.reject(tooManyPending());
          // Seats are released before the answer either way (one reaction, not a finally and then a then).
          p.then(
            (json) => {
              releaseAll(held);
              t?.end(0);
              answer({ id, code: 0, object: json, status: EMPTY });
            },
            (err: unknown) => {
              releaseAll(held);
              onError(err);
              const r = failedResult(err);
              t?.end(r.code);
              answer({ id, ...r });
            },
          );
        }
      });
      call.on('end', () => {
        halfClosed = true;
        if (!scheduled) flush();
      });
      call.on('cancelled', () => {
        closed = true;
      });
      call.on('error', () => {
        closed = true;
      });
    },

    Update: unary(async (req, call, held) => ({ json: await updateOne(deps, held, userOf(call), req, call) }), onError),

    UpdateStatus: unary(async (req, call, held) => ({ json: await updateStatusOne(deps, held, userOf(call), req, call) }), onError),

    Patch: unary(async (req, call, held) => ({ json: await patchOne(deps, held, userOf(call), req, call) }), onError),

    Delete: unary(async (req, call, held) => {
      const user = await userOf(call);
      await admit(held, user, 'delete', req.resource, req.namespace, req.name);
      const s = resolve(registry, req.resource);
      const raw = parseJsonField('options', req.options, { optional: true });
      if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
        throw badRequest('options: Invalid value: must be a JSON DeleteOptions object');
      }
      const options = (raw ?? {}) as DeleteOptions;
      if (options.gracePeriodSeconds !== undefined && typeof options.gracePeriodSeconds !== 'number') {
        throw badRequest(`options.gracePeriodSeconds: Invalid value: must be an integer, got ${typeof options.gracePeriodSeconds}`);
      }
      const dry = Array.isArray(options.dryRun) && options.dryRun.includes('All') ? 'All' : undefined;
      const res = await s.delete(req.namespace || undefined, requireName(req.name), options, context(user, dry, undefined, call));
      return { object: rawJson(res.object), deleted: res.deleted };
    }, onError),

    Bind: unary(async (req, call, held) => {
      await bindOne(deps, held, userOf(call), req, call);
      return {};
    }, onError),

    CreateToken: unary(async (req, call, held) => ({ json: await createTokenOne(deps, held, userOf(call), req, call) }), onError),
  };
}

/** A call counted once in apiserver_request_total with the code it ended with (upstream instruments each request at its handler). */
async function counted<T>(metrics: RequestRecorder | undefined, l: Omit<RequestObservation, 'code' | 'seconds' | 'dryRun'>, okCode: number, f: () => Promise<T>): Promise<T> {
  if (!metrics) return f();
  const start = performance.now();
  const done = (code: number) => metrics.observe({ ...l, dryRun: false, code, seconds: (performance.now() - start) / 1000 });
  try {
    const r = await f();
    done(okCode);
    return r;
  } catch (err) {
    done(toStatusError(err).code);
    throw err;
  }
}

/** Certificates that never change, for grpc-js's provider-based credentials (answered in a microtask: grpc-js registers its own watcher after asking). */
class StaticCertificates implements grpc.experimental.CertificateProvider {
  constructor(private readonly tls: ServingTls & { clientCaPem: string }) {}
  addCaCertificateListener(l: grpc.experimental.CaCertificateUpdateListener): void {
    queueMicrotask(() => l({ caCertificate: Buffer.from(this.tls.clientCaPem) }));
  }
  removeCaCertificateListener(): void {}
  addIdentityCertificateListener(l: grpc.experimental.IdentityCertificateUpdateListener): void {
    queueMicrotask(() => l({ certificate: Buffer.from(this.tls.certPem), privateKey: Buffer.from(this.tls.keyPem) }));
  }
  removeIdentityCertificateListener(): void {}
}

/**
 * With a client CA: a client certificate is asked for but not required
 * (upstream's VerifyClientCertIfGiven), so a caller with only a bearer token
 * (a ServiceAccount's) connects; startGrpcServer drops a connection whose
 * certificate the CA did not sign, and the authenticator refuses a call with
 * neither credential.
 */
function serverCredentials(tls: ServingTls | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  if (tls.clientCaPem) {
    const certs = new StaticCertificates({ ...tls, clientCaPem: tls.clientCaPem });
    return grpc.experimental.createCertificateProviderServerCredentials(certs, certs, false);
  }
  return grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(tls.certPem), private_key: Buffer.from(tls.keyPem) }], false);
}

export interface RunningGrpcServer {
  server: grpc.Server;
  port: number;
  stop(): Promise<void>;
}

/** Serves ResourceService on host:port (0 = a free port). */
export async function startGrpcServer(host: string, port: number, opts: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    'grpc.max_send_message_length': -1,
  });
  const proto = apiserverProto();
  const service = withEncodedWatch(proto.kubelab.apiserver.v1.ResourceService.service);
  const handlers = resourceServiceHandlers(opts) as unknown as grpc.UntypedServiceImplementation;
  server.addService(service, opts.tracing ? traceServerHandlers(opts.tracing, service, handlers) : handlers);
  const bound = await new Promise<number>((resolvePort, reject) => {
    server.bindAsync(joinHostPort(host, port), serverCredentials(opts.tls), (err, p) => (err ? reject(err) : resolvePort(p)));
  });
  // grpc-js leaves Nagle on for server sockets; small responses then wait
  // for the peer's delayed ACK (~40 ms). Every gRPC server in C/Go disables it.
  const h2 = (server as unknown as { http2Servers?: Map<import('node:net').Server, unknown> }).http2Servers;
  for (const s of h2?.keys() ?? []) {
    s.on('connection', (sock: import('node:net').Socket) => sock.setNoDelay(true));
    // A certificate given but not signed by the client CA fails as Go's handshake does; none at all is the authenticator's to judge.
    s.on('secureConnection', (sock: import('node:tls').TLSSocket) => {
      if (!sock.authorized && sock.getPeerCertificate()?.raw) sock.destroy();
    });
  }
  return {
    server,
    port: bound,
    stop: () =>
      new Promise<void>((r) => {
        const t = setTimeout(() => {
          server.forceShutdown();
          r();
        }, 2_000);
        t.unref?.();
        server.tryShutdown(() => {
          clearTimeout(t);
          r();
        });
      }),
  };
}
