// The secure-port HTTP server (plain HTTP for now): health and metrics as
// upstream serves them on 6443, and everything else to the REST handler
// from src/endpoints when it is present. Every request, health and metrics
// included, first passes the request filter (impersonation, authorization).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { healthHandler, listenHttp, serveUpgrades, type HealthCheck } from '@kubelab/component-base';
import type { Registry } from 'prom-client';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ApiHttpServerOptions {
  host: string;
  port: number;
  livez: Record<string, HealthCheck>;
  readyz: Record<string, HealthCheck>;
  metrics: Registry;
  /** Resolved after listen (the REST handler may need the bound port). */
  rest?: () => HttpHandler | undefined;
  /** Runs before any handler; false when it answered the request itself (a 403). */
  filter?: (req: IncomingMessage, res: ServerResponse) => boolean;
  onError?: (err: unknown) => void;
}

export async function startHttpServer(opts: ApiHttpServerOptions): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  // The apiserver's /healthz runs every check, readiness ones included.
  const probes = healthHandler({ livez: opts.livez, readyz: opts.readyz, healthz: { ...opts.livez, ...opts.readyz }, metrics: opts.metrics });
  const server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      opts.onError?.(err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${(err as Error).message}\n`);
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (opts.filter && !opts.filter(req, res)) return;
    if (await probes(req, res, new URL(req.url ?? '/', 'http://localhost'))) return;
    const rest = opts.rest?.();
    if (rest) return rest(req, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }),
    );
  }
  // Upgrade requests (pods/exec streams) go through the same handler, with a response bound to their socket.
  const upgrades = serveUpgrades(server, handle, opts.onError);
  const listening = await listenHttp(server, opts.port, opts.host);
  return {
    server,
    port: listening.port,
    close: async () => {
      upgrades.closeAll();
      await listening.close();
    },
  };
}
