// The HTTP endpoints every component serves: /livez, /readyz, /healthz and
// /metrics (component-base's healthz and legacyregistry), plus extra routes.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';

/** A named check: resolves when healthy, throws (or returns false) when not. */
export type HealthCheck = () => boolean | Promise<boolean>;

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface HealthServerOptions {
  host?: string;
  port: number;
  livez?: Record<string, HealthCheck>;
  readyz?: Record<string, HealthCheck>;
  metrics?: Registry;
  /** Extra routes by exact path (e.g. `/rules`, `/pods`). */
  routes?: Record<string, Route>;
}

export interface HealthServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

async function runChecks(checks: Record<string, HealthCheck>): Promise<{ ok: boolean; lines: string[] }> {
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

/** A metrics registry with the process metrics every upstream binary exposes. */
export function newMetricsRegistry(labels: Record<string, string> = {}): Registry {
  const reg = new Registry();
  reg.setDefaultLabels(labels);
  collectDefaultMetrics({ register: reg });
  return reg;
}

export async function serveHealth(opts: HealthServerOptions): Promise<HealthServer> {
  const livez = opts.livez ?? {};
  const readyz = opts.readyz ?? {};
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname;
      const route = opts.routes?.[path];
      if (route) return await route(req, res, url);
      if (path === '/livez' || path === '/healthz' || path === '/readyz') {
        const checks = path === '/readyz' ? { ...livez, ...readyz } : livez;
        const { ok, lines } = await runChecks(checks);
        res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain; charset=utf-8' });
        if (url.searchParams.has('verbose') || !ok) {
          res.end(`${lines.join('\n')}\n${path.slice(1)} check ${ok ? 'passed' : 'failed'}\n`);
        } else res.end('ok');
        return;
      }
      if (path === '/metrics' && opts.metrics) {
        const body = await opts.metrics.metrics();
        res.writeHead(200, { 'content-type': opts.metrics.contentType });
        res.end(body);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found\n');
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${(err as Error).message}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
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
