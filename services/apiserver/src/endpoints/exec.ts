// pods/exec (upstream pkg/registry/core/pod/rest ExecREST + ExecLocation):
// the apiserver checks the pod and container, then proxies the client's
// upgraded connection to `/exec/{namespace}/{pod}/{container}` on the pod's
// node's kubelet (apimachinery's UpgradeAwareHandler). The stream protocol
// (WebSocket v5.channel.k8s.io) passes through untouched; a kubelet that
// refuses answers the client directly (kubectl prints `unable to upgrade
// connection: <its text>`). pods/attach (AttachREST + AttachLocation) is the
// same to `/attach/{namespace}/{pod}/{container}`, without a command.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed, StatusError, type Pod } from '@kubelab/api';
import { isUpgradeRequest, proxyUpgrade } from '@kubelab/component-base';
import type { ResourceStore } from '../registry/interface.js';
import type { HandlerEnv } from './env.js';
import type { ResourceRequest } from './requestinfo.js';
import { validateContainer } from './pod-container.js';
import { kubeletTlsOptions, kubeletUrl } from './kubelet-client.js';

function flag(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === 'true' || v === '1';
}

/** PodExecOptions from the query, as the kubelet's parameters (upstream streamParams: input/output/error/tty/command). */
export function kubeletExecQuery(q: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  if (flag(q, 'stdin')) out.append('input', '1');
  if (flag(q, 'stdout')) out.append('output', '1');
  if (flag(q, 'stderr')) out.append('error', '1');
  if (flag(q, 'tty')) out.append('tty', '1');
  for (const c of q.getAll('command')) out.append('command', c);
  return out;
}

/** A 500 InternalError Status carrying `message` as its one cause. */
export function internal(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
}

/** A stream subresource is a GET (WebSocket) or a POST (SPDY); anything else is upstream's 405. */
export function checkStreamVerb(r: ResourceRequest, subresource: string): void {
  if (r.verb !== 'get' && r.verb !== 'create') throw methodNotAllowed(`the server does not allow this method on the requested resource (${r.verb} pods ${subresource})`);
}

/** Serves pods/exec (GET for WebSocket, POST for SPDY). */
export function serveExec(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  return serveStream('exec', env, store, r, req, res, kubeletExecQuery(q), q.get('container'));
}

/** Serves pods/attach: as exec, without a command (upstream streamParams for PodAttachOptions). */
export function serveAttach(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  const params = kubeletExecQuery(q);
  params.delete('command');
  return serveStream('attach', env, store, r, req, res, params, q.get('container'));
}

async function serveStream(
  kind: 'exec' | 'attach',
  env: HandlerEnv,
  store: ResourceStore,
  r: ResourceRequest,
  req: IncomingMessage,
  res: ServerResponse,
  params: URLSearchParams,
  containerParam: string | null,
): Promise<void> {
  checkStreamVerb(r, kind);
  const pod = (await store.get(r.namespace, r.name!)) as Pod;
  const container = validateContainer(pod, containerParam);
  const nodeName: string | undefined = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${r.name} does not have a host assigned`);
  if (!isUpgradeRequest(req)) throw badRequest('Upgrade request required');
  const addr = await env.kubeletAddress(nodeName);
  const target = kubeletUrl(addr, `/${kind}/${encodeURIComponent(r.namespace!)}/${encodeURIComponent(r.name!)}/${encodeURIComponent(container)}?${params}`);
  try {
    await proxyUpgrade(req, res, target, { tls: kubeletTlsOptions(env.kubeletClient) });
  } catch (e) {
    if (res.headersSent) return;
    throw internal(`error dialing backend: dial tcp ${addr.host}:${addr.port}: ${(e as Error).message}`);
  }
}
