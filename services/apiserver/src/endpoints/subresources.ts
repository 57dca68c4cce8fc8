// Subresources: status (through the store), scale (autoscaling/v1 Scale over
// deployments and replicasets), binding, eviction (policy/v1: the budget,
// then a graceful delete), log (proxied to the node's kubelet) and serviceaccounts/token —
// upstream's pkg/registry/apps/deployment ScaleREST, pod BindingREST,
// EvictionREST, LogREST and the serviceaccount TokenREST.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { applyPatch, badRequest, invalid, isConflict, methodNotAllowed, notFound, StatusError, type CustomResourceSubresourceScale, type DeleteOptions, type KubeObject, type Pod } from '@kubelab/api';
import { evaluate, setAtPath } from '../apiextensions/jsonpath.js';
import type { ResourceStore } from '../registry/interface.js';
import { evictPod } from '../registry/eviction.js';
import { selectorString } from '../printers/index.js';
import { parseJsonDocument, patchMediaType, readBody } from './body.js';
import { requestContext } from './context.js';
import { checkPatchFields, parseFieldValidation } from '../decoding/decode.js';
import type { HandlerEnv } from './env.js';
import type { ResourceRequest } from './requestinfo.js';
import { decodeWriteBody } from './resource.js';
import { serveAttach, serveExec } from './exec.js';
import { servePortForward } from './portforward.js';
import { dialError, kubeletResponseError, kubeletTlsOptions, kubeletUrl } from './kubelet-client.js';
import { serveProxy } from './proxy.js';
import { validateContainer } from './pod-container.js';
import { writeJson } from './respond.js';

type Obj = Record<string, any>;

/**
 * The Scale view of a deployment or replicaset, or of a custom resource
 * through its CRD's scale paths (upstream: the CR scale REST, which reads
 * specReplicasPath, statusReplicasPath and labelSelectorPath).
 */
export function toScale(obj: KubeObject, paths?: CustomResourceSubresourceScale): KubeObject {
  const o = obj as Obj;
  const m = obj.metadata;
  const metadata: Obj = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  const at = (path: string | undefined) => (path ? evaluate(o, path)[0] : undefined);
  const selector = paths ? at(paths.labelSelectorPath) : selectorString(o.spec?.selector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: JSON.parse(JSON.stringify(metadata)) as KubeObject['metadata'],
    spec: { replicas: (paths ? at(paths.specReplicasPath) : o.spec?.replicas) ?? 0 },
    status: { replicas: (paths ? at(paths.statusReplicasPath) : o.status?.replicas) ?? 0, ...(typeof selector === 'string' && selector ? { selector } : paths ? {} : { selector: '' }) },
  } as KubeObject;
}

const MAX_SCALE_RETRIES = 5;

/** Writes a new spec.replicas through the store, retrying lost races unless the client pinned a resourceVersion. */
async function setReplicas(
  store: ResourceStore,
  r: ResourceRequest,
  req: IncomingMessage,
  q: URLSearchParams,
  desired: (current: KubeObject) => { replicas: unknown; resourceVersion?: string },
): Promise<KubeObject> {
  const ctx = requestContext(req, q);
  for (let attempt = 0; ; attempt++) {
    const current = await store.get(r.namespace, r.name!);
    const want = desired(current);
    if (typeof want.replicas !== 'number' || want.replicas < 0) {
      throw invalid('Scale', 'autoscaling', r.name!, [{ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: want.replicas, detail: 'must be greater than or equal to 0' }]);
    }
    const next = JSON.parse(JSON.stringify(current)) as Obj;
    const paths = store.custom?.scale;
    if (paths) setAtPath(next, paths.specReplicasPath, want.replicas);
    else next.spec = { ...(next.spec ?? {}), replicas: want.replicas };
    if (want.resourceVersion) next.metadata.resourceVersion = want.resourceVersion;
    try {
      return await store.update(r.namespace, r.name!, next as KubeObject, ctx);
    } catch (e) {
      if (!isConflict(e) || want.resourceVersion || attempt >= MAX_SCALE_RETRIES) throw e;
    }
  }
}

async function serveScale(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  const paths = store.custom?.scale;
  if (r.verb === 'get') return writeJson(res, 200, toScale(await store.get(r.namespace, r.name!), paths));
  if (r.verb === 'update') {
    const { object } = await decodeWriteBody(env, req, q, store.info, 'Scale');
    const scale = object as Obj;
    if (scale.metadata?.name && scale.metadata.name !== r.name) throw badRequest(`the name of the object (${scale.metadata.name}) does not match the name on the URL (${r.name})`);
    const updated = await setReplicas(store, r, req, q, () => ({ replicas: scale.spec?.replicas ?? 0, resourceVersion: scale.metadata?.resourceVersion }));
    return writeJson(res, 200, toScale(updated, paths));
  }
  if (r.verb === 'patch') {
    const type = patchMediaType(req);
    const { value: patch, duplicates } = parseJsonDocument(await readBody(req, env.maxBodyBytes), 'patch');
    checkPatchFields({ kind: 'Scale', version: 'v1' }, patch, parseFieldValidation(q.get('fieldValidation')), duplicates);
    const updated = await setReplicas(store, r, req, q, (current) => {
      const patched = applyPatch(type, toScale(current, paths), patch, 'Scale') as Obj;
      return { replicas: patched.spec?.replicas, resourceVersion: patched.metadata?.resourceVersion !== current.metadata.resourceVersion ? patched.metadata?.resourceVersion : undefined };
    });
    return writeJson(res, 200, toScale(updated, paths));
  }
  throw methodNotAllowedFor(r);
}

function methodNotAllowedFor(r: ResourceRequest): StatusError {
  return methodNotAllowed(`the server does not allow this method on the requested resource (${r.verb} ${r.resource} ${r.subresource})`);
}

const created201 = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

async function serveBinding(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  if (r.verb !== 'create') throw methodNotAllowedFor(r);
  const { object } = await decodeWriteBody(env, req, q, store.info, 'Binding');
  object.metadata.name ??= r.name;
  if (object.metadata.name !== r.name) throw badRequest('name in URL does not match name in Binding object');
  object.metadata.namespace = r.namespace;
  await env.registry.bind(r.namespace!, object, requestContext(req, q));
  writeJson(res, 201, created201);
}

async function serveEviction(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  if (r.verb !== 'create') throw methodNotAllowedFor(r);
  const { object } = await decodeWriteBody(env, req, q, store.info, 'Eviction');
  if (object.metadata.name && object.metadata.name !== r.name) throw badRequest('name in URL does not match name in Eviction object');
  const { kind: _kind, apiVersion: _apiVersion, ...opts } = ((object as Obj).deleteOptions ?? {}) as DeleteOptions;
  const ctx = requestContext(req, q);
  await env.registry.admission.reviewSubresourceCreate(store.info, r.namespace!, r.name!, 'eviction', object, ctx);
  await evictPod({ pods: store, pdbs: env.registry.store('policy', 'v1', 'poddisruptionbudgets')! }, r.namespace!, r.name!, opts, ctx);
  writeJson(res, 201, created201);
}

/** serviceaccounts/<name>/token: a TokenRequest in, the same with status.token out (201, as upstream). */
async function serveToken(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  if (r.verb !== 'create') throw methodNotAllowedFor(r);
  const { object } = await decodeWriteBody(env, req, q, store.info, 'TokenRequest');
  const issued = await env.tokenRequest!.create(r.namespace!, r.name!, object, requestContext(req, q));
  writeJson(res, 201, issued);
}

const LOG_PARAMS = ['follow', 'previous', 'timestamps', 'tailLines', 'sinceSeconds', 'sinceTime', 'limitBytes'];

async function serveLog(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  if (r.verb !== 'get') throw methodNotAllowedFor(r);
  const pod = (await store.get(r.namespace, r.name!)) as Obj;
  const container = validateContainer(pod as Pod, q.get('container'));
  const nodeName: string | undefined = pod.spec?.nodeName;
  if (!nodeName) {
    // Not scheduled yet: nothing to show (upstream returns an empty stream).
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end();
    return;
  }
  const addr = await env.kubeletAddress(nodeName);
  const params = new URLSearchParams();
  for (const p of LOG_PARAMS) {
    const v = q.get(p);
    if (v !== null) params.set(p, v);
  }
  const path = `/containerLogs/${encodeURIComponent(r.namespace!)}/${encodeURIComponent(r.name!)}/${encodeURIComponent(container)}${params.size ? `?${params}` : ''}`;
  const url = kubeletUrl(addr, path);
  await new Promise<void>((resolve, reject) => {
    const upstream = httpsRequest({ host: addr.host, port: addr.port, path, method: 'GET', ...kubeletTlsOptions(env.kubeletClient), agent: false }, (kres) => {
      const code = kres.statusCode ?? 500;
      if (code < 200 || code > 206) {
        let text = '';
        kres.setEncoding('utf8');
        kres.on('data', (d: string) => {
          // upstream reads at most maxReadLength (50000) bytes of the kubelet's error.
          if (text.length < 50_000) text += d;
        });
        kres.on('end', () => reject(kubeletResponseError(code, text.slice(0, 50_000), 'pods/log', r.name!)));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      kres.pipe(res);
      kres.on('end', resolve);
      kres.on('error', resolve);
    });
    // A plain error upstream: a 500 without a reason, so kubectl prints "Error from server: Get ...: dial tcp ...".
    upstream.on('error', (e) => reject(new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Get "${url.href}": ${dialError(e, addr)}`, code: 500 })));
    res.on('close', () => upstream.destroy());
    upstream.end();
  });
}

export async function serveSubresource(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<boolean> {
  const subs = store.info.subresources;
  const sub = r.subresource!;
  if (!subs.includes(sub)) return false;
  switch (sub) {
    case 'scale':
      await serveScale(env, store, r, req, res, q);
      return true;
    case 'binding':
      await serveBinding(env, store, r, req, res, q);
      return true;
    case 'eviction':
      await serveEviction(env, store, r, req, res, q);
      return true;
    case 'log':
      await serveLog(env, store, r, req, res, q);
      return true;
    case 'exec':
      await serveExec(env, store, r, req, res, q);
      return true;
    case 'attach':
      await serveAttach(env, store, r, req, res, q);
      return true;
    case 'portforward':
      await servePortForward(env, store, r, req, res, q);
      return true;
    case 'proxy':
      await serveProxy(env, store, r, req, res);
      return true;
    case 'token':
      if (!env.tokenRequest) return false;
      await serveToken(env, store, r, req, res, q);
      return true;
    default:
      return false;
  }
}

/** The default way to reach a node's kubelet: its InternalIP (else first address) and kubeletEndpoint port. */
export function kubeletAddressFromRegistry(registry: HandlerEnv['registry']): HandlerEnv['kubeletAddress'] {
  return async (nodeName) => {
    const nodes = registry.store('', 'v1', 'nodes');
    if (!nodes) throw notFound({ group: '', resource: 'nodes' }, nodeName);
    const node = (await nodes.get(undefined, nodeName)) as Obj;
    const addrs: Obj[] = node.status?.addresses ?? [];
    const host: string | undefined = (addrs.find((a) => a.type === 'InternalIP') ?? addrs[0])?.address;
    if (!host) throw badRequest(`node ${nodeName} has no address to reach its kubelet`);
    const port: number = node.status?.daemonEndpoints?.kubeletEndpoint?.Port || 10250;
    return { host, port };
  };
}
