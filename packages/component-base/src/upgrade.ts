// HTTP upgrade plumbing shared by the servers that stream (`kubectl exec`):
// an upgrade request is handed to the ordinary (req, res) handler with a
// response bound to its raw socket, so errors are written as usual; a handler
// that accepts it proxies the raw connection onward, relaying a refusal
// (any non-101 answer) verbatim — upstream's apimachinery
// util/proxy.UpgradeAwareHandler in the apiserver and the kubelet.

import { request as httpRequest, ServerResponse, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions as HttpsRequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';

const heads = new WeakMap<IncomingMessage, Buffer>();

/** The bytes that came after an upgrade request's head (empty for requests not from serveUpgrades). */
export function upgradeHead(req: IncomingMessage): Buffer {
  return heads.get(req) ?? Buffer.alloc(0);
}

/** Whether the request asks to switch protocols (WebSocket, SPDY/3.1). */
export function isUpgradeRequest(req: IncomingMessage): boolean {
  const conn = req.headers.connection;
  return (
    typeof req.headers.upgrade === 'string' &&
    typeof conn === 'string' &&
    conn
      .toLowerCase()
      .split(',')
      .some((t) => t.trim() === 'upgrade')
  );
}

/**
 * Routes the server's upgrade requests to `handler` like any other request;
 * `res` writes to the raw socket and closes it when the answer is complete.
 */
export function serveUpgrades(server: Server, handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>, onError?: (err: unknown) => void): { closeAll(): void } {
  // Upgraded sockets leave the server's keep-alive tracking: closeAll ends them on shutdown.
  const open = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    heads.set(req, head);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
    res.on('finish', () => {
      res.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
      socket.end();
    });
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((err: unknown) => {
        onError?.(err);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`internal error: ${(err as Error).message}\n`);
        } else socket.destroy();
      });
  });
  return {
    closeAll: () => {
      for (const s of open) s.destroy();
      open.clear();
    },
  };
}

const HOP_BY_HOP = new Set(['host', 'content-length', 'transfer-encoding', 'keep-alive', 'proxy-connection', 'te', 'trailer']);

/**
 * Forwards an upgrade request (received through serveUpgrades) to `target`
 * and splices the two connections once the backend switches protocols. A
 * backend that refuses (4xx/5xx) has its answer relayed through `res`.
 * Resolves when the proxied connection ends. An `https:` target is dialled
 * with `opts.tls` (client certificate, CA, whether to verify).
 */
export function proxyUpgrade(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  opts: {
    method?: string;
    tls?: Pick<HttpsRequestOptions, 'cert' | 'key' | 'ca' | 'rejectUnauthorized'>;
    /** The connection to use instead of dialling target's host (a tunnel); TLS, if any, already on it. */
    createConnection?: () => Duplex;
  } = {},
): Promise<void> {
  const client = req.socket as Duplex;
  const headers: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
  headers.host = target.host;
  return new Promise<void>((resolve, reject) => {
    const request = {
      host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: opts.method ?? req.method ?? 'GET',
      headers,
      ...(opts.createConnection ? { createConnection: opts.createConnection } : {}),
    };
    // A connection of our own takes no agent (with one, Node would dial the host itself).
    const upstream = target.protocol === 'https:' ? httpsRequest({ ...request, ...opts.tls, ...(opts.createConnection ? {} : { agent: false }) }) : httpRequest(request);
    let settled = false;
    const done = (err?: Error) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve();
    };
    upstream.on('upgrade', (ures: IncomingMessage, backend: Duplex, uhead: Buffer) => {
      const lines = [`HTTP/1.1 ${ures.statusCode ?? 101} ${ures.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < ures.rawHeaders.length; i += 2) lines.push(`${ures.rawHeaders[i]}: ${ures.rawHeaders[i + 1]}`);
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (uhead.length) client.write(uhead);
      const head = heads.get(req);
      if (head?.length) backend.write(head);
      backend.pipe(client);
      client.pipe(backend);
      const end = () => {
        backend.destroy();
        client.destroy();
        done();
      };
      backend.on('close', end);
      client.on('close', end);
      backend.on('error', end);
      client.on('error', end);
    });
    upstream.on('response', (ures) => {
      // The backend refused the upgrade: its status and body go back as they are.
      const h: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(ures.headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && k !== 'connection') h[k] = v;
      res.writeHead(ures.statusCode ?? 502, h);
      ures.pipe(res);
      ures.on('end', () => done());
      ures.on('error', (e) => done(e));
    });
    upstream.on('error', (e) => done(e));
    client.on('close', () => upstream.destroy());
    upstream.end();
  });
}
