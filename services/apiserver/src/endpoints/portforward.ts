// pods/portforward (upstream pkg/registry/core/pod/rest PortForwardREST and
// PortForwardLocation): the pod must have a node; the client's upgraded
// connection goes to `/portForward/{namespace}/{pod}` on its kubelet with the
// requested ports as `port` parameters. Three client forms:
// - SPDY/3.1 (kubectl ≤1.29) and WebSocket v4.channel.k8s.io (the JS
//   client) pass through untouched, as exec does;
// - WebSocket with subprotocol `SPDY/3.1+portforward.k8s.io` (kubectl 1.30+,
//   PortForwardWebsockets): the apiserver dials the kubelet with SPDY itself
//   and carries the SPDY bytes in binary WebSocket messages both ways
//   (upstream proxy.TunnelingHandler); a kubelet refusing is relayed as is.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import { badRequest, type Pod } from '@kubelab/api';
import { HEADER_PROTOCOL_VERSION, SPDY_31, WEBSOCKET_SPDY_TUNNEL_PREFIX, headerValues, isUpgradeRequest, proxyUpgrade, tunneledSpdyProtocols, upgradeHead } from '@kubelab/component-base';
import type { ResourceStore } from '../registry/interface.js';
import type { HandlerEnv, KubeletAddress } from './env.js';
import type { ResourceRequest } from './requestinfo.js';
import { checkStreamVerb, internal } from './exec.js';
import { kubeletTlsOptions, kubeletUrl } from './kubelet-client.js';

/** PodPortForwardOptions' `ports` as the kubelet's `port` parameters (upstream streamParams); a bad one is a 400. */
export function kubeletPortForwardQuery(q: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const v of q.getAll('ports')) {
    for (const p of v.split(',')) {
      const n = /^-?\d+$/.test(p.trim()) ? Number(p.trim()) : NaN;
      if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(p)}: ${Number.isNaN(n) ? 'invalid syntax' : 'value out of range'}`);
      out.append('port', String(n));
    }
  }
  return out;
}

/** Whether a WebSocket request asks for the SPDY tunnel (upstream wsstream.IsWebSocketRequestWithTunnelingProtocol). */
export function isTunnelingRequest(req: IncomingMessage): boolean {
  return String(req.headers.upgrade ?? '').toLowerCase() === 'websocket' && tunneledSpdyProtocols(headerValues(req.headers['sec-websocket-protocol'])).length > 0;
}

/** Serves pods/portforward (GET for WebSocket, POST for SPDY). */
export async function servePortForward(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  checkStreamVerb(r, 'portforward');
  const params = kubeletPortForwardQuery(q);
  const pod = (await store.get(r.namespace, r.name!)) as Pod;
  const nodeName: string | undefined = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${r.name} does not have a host assigned`);
  if (!isUpgradeRequest(req)) throw badRequest('Upgrade request required');
  const addr = await env.kubeletAddress(nodeName);
  const query = params.size ? `?${params}` : '';
  const target = kubeletUrl(addr, `/portForward/${encodeURIComponent(r.namespace!)}/${encodeURIComponent(r.name!)}${query}`);
  const tls = kubeletTlsOptions(env.kubeletClient);
  try {
    if (isTunnelingRequest(req)) await tunnel(req, res, target, tls);
    else await proxyUpgrade(req, res, target, { tls });
  } catch (e) {
    if (res.headersSent) return;
    throw internal(`error dialing backend: dial tcp ${hostPort(addr)}: ${(e as Error).message}`);
  }
}

function hostPort(addr: KubeletAddress): string {
  return `${addr.host}:${addr.port}`;
}

// `SPDY/3.1+portforward.k8s.io` is not an RFC 7230 token ('/'), which the ws library refuses in
// Sec-WebSocket-Protocol: the offer is handed to it percent-encoded and the answer decoded back.
const tunnelServer = new WebSocketServer({
  noServer: true,
  perMessageDeflate: false,
  handleProtocols: (offered) => [...offered].map((p) => decodeURIComponent(p)).find((p) => p.startsWith(WEBSOCKET_SPDY_TUNNEL_PREFIX)) ?? false,
});

/**
 * The SPDY-over-WebSocket tunnel: a SPDY upgrade to the kubelet naming the
 * tunnelled protocols; on its 101 the client's WebSocket handshake completes
 * and bytes flow (WebSocket binary messages ↔ the kubelet's SPDY stream).
 */
function tunnel(req: IncomingMessage, res: ServerResponse, target: URL, tls: ReturnType<typeof kubeletTlsOptions>): Promise<void> {
  const protocols = tunneledSpdyProtocols(headerValues(req.headers['sec-websocket-protocol']));
  return new Promise<void>((resolve, reject) => {
    const upstream = httpsRequest({
      host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      headers: { host: target.host, connection: 'Upgrade', upgrade: SPDY_31, [HEADER_PROTOCOL_VERSION]: protocols },
      ...tls,
      agent: false,
    });
    upstream.on('upgrade', (_ures: IncomingMessage, backend: Duplex, uhead: Buffer) => {
      req.headers['sec-websocket-protocol'] = headerValues(req.headers['sec-websocket-protocol']).map(encodeURIComponent).join(', ');
      tunnelServer.handleUpgrade(req, req.socket, upgradeHead(req), (ws) => {
        backend.on('data', (d: Buffer) => ws.send(d, { binary: true }));
        if (uhead.length) ws.send(uhead, { binary: true });
        ws.on('message', (m: RawData) => backend.write(Array.isArray(m) ? Buffer.concat(m) : Buffer.from(m as Buffer)));
        const end = () => {
          backend.destroy();
          ws.terminate();
          resolve();
        };
        ws.on('close', end);
        ws.on('error', end);
        backend.on('close', () => {
          if (ws.readyState === ws.OPEN) ws.close(1000);
          resolve();
        });
        backend.on('error', end);
      });
    });
    upstream.on('response', (ures) => {
      // The kubelet refused: its status and body go back to the client as they are.
      res.writeHead(ures.statusCode ?? 502, { 'content-type': String(ures.headers['content-type'] ?? 'text/plain; charset=utf-8') });
      ures.pipe(res);
      ures.on('end', () => resolve());
      ures.on('error', (e) => reject(e));
    });
    upstream.on('error', (e) => reject(e));
    req.socket.on('close', () => upstream.destroy());
    upstream.end();
  });
}
