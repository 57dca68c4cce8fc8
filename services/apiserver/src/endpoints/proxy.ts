// The proxy subresources: nodes/proxy, pods/proxy and services/proxy
// (upstream: ProxyREST's Connect and apimachinery's UpgradeAwareHandler).
// Any method is forwarded with its body, query and headers (less the
// caller's credentials) to where proxy-location.ts points; the answer is
// relayed as it comes. A kubelet is dialled with the apiserver's kubelet
// client certificate, pods and services over plain or unverified TLS
// transport as upstream's proxy transport.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { internalError, StatusError, type KubeObject } from '@kubelab/api';
import { isUpgradeRequest, proxyUpgrade } from '@kubelab/component-base';
import type { ResourceStore } from '../registry/interface.js';
import type { HandlerEnv, KubeletAddress } from './env.js';
import { dialError, kubeletTlsOptions } from './kubelet-client.js';
import { nodeLocation, podLocation, serviceLocation, serviceUnavailable, splitSchemeNamePort, type ProxyTarget } from './proxy-location.js';
import type { ResourceRequest } from './requestinfo.js';

/** Headers not forwarded: hop-by-hop ones, and the caller's credentials (upstream's authentication filter strips them). */
const DROPPED = /^(host|connection|keep-alive|proxy-connection|proxy-authorization|te|trailer|transfer-encoding|upgrade|authorization|impersonate-.*)$/;

async function resolveTarget(env: HandlerEnv, store: ResourceStore, r: ResourceRequest): Promise<ProxyTarget> {
  const name = splitSchemeNamePort(r.name!)?.name ?? r.name!;
  switch (store.info.resource) {
    case 'nodes':
      // The node must exist (404 otherwise) before its address is looked up.
      await store.get(undefined, name);
      return nodeLocation(r.name!, await env.kubeletAddress(name));
    case 'pods':
      return podLocation(r.name!, await store.get(r.namespace, name));
    case 'services': {
      const svc = await store.get(r.namespace, name);
      const eps = await env.registry
        .store('', 'v1', 'endpoints')
        ?.get(r.namespace, name)
        .catch(() => undefined);
      return serviceLocation(r.name!, svc, eps as KubeObject | undefined);
    }
    default:
      throw internalError(new Error(`no proxy for ${store.info.resource}`));
  }
}

/** The URL the request goes to: target, then the proxied path (root when none) and the query. */
function targetUrl(t: ProxyTarget, path: string, search: string): URL {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return new URL(`${t.scheme}://${host}${t.port ? `:${t.port}` : ''}${path || '/'}${search}`);
}

export async function serveProxy(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://kubelab.invalid');
  const path = r.proxyPath ?? '';
  // A GET or HEAD of the root without its slash is redirected to it (upstream proxyRedirectsforRootPath).
  if (path === '' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(301, { Location: `${url.pathname}/${url.search}` });
    res.end();
    return;
  }
  const target = await resolveTarget(env, store, r);
  const dest = targetUrl(target, path, url.search);
  const tls = target.kubelet ? kubeletTlsOptions(env.kubeletClient) : { rejectUnauthorized: false };
  // A pod is reached through kubelab's pod dialer when there is one (see pod-tunnel.ts); else its IP is dialled, as upstream.
  let createConnection: (() => Duplex) | undefined;
  if (!target.kubelet && env.podDialer && store.info.resource !== 'nodes') {
    const port = target.port ?? (target.scheme === 'https' ? 443 : 80);
    const socket = await env.podDialer({ ip: target.host, port, ...(target.pod ? { pod: target.pod } : {}) }).catch((e: Error) => {
      throw serviceUnavailable(`error trying to reach service: ${e.message}`);
    });
    createConnection = target.scheme === 'https' ? () => tlsConnect({ socket, rejectUnauthorized: false }) : () => socket;
  }
  if (isUpgradeRequest(req)) return proxyUpgrade(req, res, dest, { tls, ...(createConnection ? { createConnection } : {}) });

  const headers: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !DROPPED.test(k)) headers[k] = v;
  headers.host = dest.host;
  const from = req.socket.remoteAddress;
  if (from) headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${String(req.headers['x-forwarded-for'])}, ${from}` : from;
  const addr: KubeletAddress = { host: dest.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(dest.port) || (dest.protocol === 'https:' ? 443 : 80) };
  // With a connection of our own no agent may be set (Node dials the host itself when one is).
  const options = {
    host: addr.host,
    port: addr.port,
    path: `${dest.pathname}${dest.search}`,
    method: req.method ?? 'GET',
    headers,
    ...(createConnection ? { createConnection } : { agent: false as const }),
  };

  await new Promise<void>((resolve, reject) => {
    const upstream = dest.protocol === 'https:' ? httpsRequest({ ...options, ...tls }, (ures) => relay(ures)) : httpRequest(options, (ures) => relay(ures));
    function relay(ures: IncomingMessage): void {
      const out: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(ures.headers)) if (v !== undefined && !/^(connection|keep-alive|transfer-encoding)$/.test(k)) out[k] = v;
      res.writeHead(ures.statusCode ?? 502, out);
      ures.pipe(res);
      ures.on('end', resolve);
      ures.on('error', () => resolve());
    }
    upstream.on('error', (e) => {
      // The kubelet's transport reports the dial error as is (a 500); the proxy transport wraps it (upstream proxy.Transport).
      const why = dialError(e, addr);
      reject(
        target.kubelet ? new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: why, code: 500 }) : serviceUnavailable(`error trying to reach service: ${why}`),
      );
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
}
