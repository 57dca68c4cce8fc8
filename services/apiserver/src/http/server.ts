// The secure-port HTTP server (plain HTTP for now): health and metrics as
// upstream serves them on 6443, and everything else to the REST handler
// from src/endpoints when it is present.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type Check = () => boolean | Promise<boolean>;

export interface ApiHttpServerOptions {
  host: string;
  port: number;
  livez: Record<string, Check>;
  readyz: Record<string, Check>;
  metrics: Registry;
  /** Resolved after listen (the REST handler may need the bound port). */
  rest?: () => HttpHandler | undefined;
  onError?: (err: unknown) => void;
}

async function runChecks(checks: Record<string, Check>): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  for (const [name, check] of Object.entries(checks)) {
    let good = false;
    try {
      good = (await check()) !== false;
    } catch {
      good = false;
    }
    ok &&= good;
    lines.push(good ? `[+]${name} ok` : `[-]${name} failed: reason withheld`);
  }
  return { ok, lines };
}

export async function startHttpServer(opts: ApiHttpServerOptions): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      opts.onError?.(err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${(err as Error).message}\n`);
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/$/, '') || '/';
    const probe = /^\/(livez|readyz|healthz)(\/(.+))?$/.exec(path);
    if (probe && (req.method === 'GET' || req.method === 'HEAD')) {
      const kind = probe[1]!;
      let checks = kind === 'readyz' ? { ping: () => true, ...opts.livez, ...opts.readyz } : { ping: () => true, ...opts.livez };
      if (kind === 'healthz') checks = { ping: () => true, ...opts.livez, ...opts.readyz };
      if (probe[3]) {
        const one = (checks as Record<string, Check>)[probe[3]];
        if (!one) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('404 page not found\n');
          return;
        }
        checks = { [probe[3]]: one } as typeof checks;
      }
      const { ok, lines } = await runChecks(checks);
      res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      if (url.searchParams.has('verbose') || !ok) res.end(`${lines.join('\n')}\n${kind} check ${ok ? 'passed' : 'failed'}\n`);
      else res.end('ok');
      return;
    }
    if (path === '/metrics' && req.method === 'GET') {
      const body = await opts.metrics.metrics();
      res.writeHead(200, { 'content-type': opts.metrics.contentType });
      res.end(body);
      return;
    }
    const rest = opts.rest?.();
    if (rest) return rest(req, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }),
    );
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
