// The HTTP endpoints every component serves: /livez, /readyz, /healthz and
// /metrics (component-base's healthz and legacyregistry), plus extra routes;
// the apiserver mounts the same handler in front of its REST API. With
// `secure` (kube-scheduler's and kube-controller-manager's --secure-port, as
// upstream's SecureServingOptions) the port speaks HTTPS only and every
// request passes the delegated authentication and authorization first.

import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { filterSecurePortRequest } from './auth/filter.js';
import type { SecurePortAuth } from './auth/types.js';
import { registerEventLoopDelay } from './metrics/event-loop-delay.js';
import type { ServingCertificate } from './serving-cert.js';

/** A named check: resolves when healthy, throws (or returns false) when not. */
export type HealthCheck = () => boolean | Promise<boolean>;

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface HealthChecks {
  /** Checks of /livez (and /healthz unless `healthz` is given); `ping` is always there, as upstream. */
  livez?: Record<string, HealthCheck>;
  /** Checks /readyz adds to the livez ones. */
  readyz?: Record<string, HealthCheck>;
  /** Checks of the legacy /healthz (default: the livez ones). */
  healthz?: Record<string, HealthCheck>;
  metrics?: Registry;
}

/** HTTPS with delegated auth (upstream SecureServingOptions + DelegatingAuthentication/AuthorizationOptions). */
export interface SecureServing {
  /** The serving pair (servingCertificate()). */
  certificate: ServingCertificate;
  /** Client certificates are asked for and checked against these CAs (the filter's x509 authenticator reads the outcome). */
  clientCaPem?: string;
  auth: SecurePortAuth;
  /** Why a request was refused (never sent to the client). */
  onRefused?: (info: { code: number; path: string; why: string }) => void;
}

export interface HealthServerOptions extends HealthChecks {
  host?: string;
  port: number;
  /** Extra routes by exact path (e.g. `/rules`, `/pods`). */
  routes?: Record<string, Route>;
  /** Serve HTTPS behind authentication and authorization instead of plain HTTP. */
  secure?: SecureServing;
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
    let good: boolean;
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

const ping: HealthCheck = () => true;

/**
 * The probe and metrics endpoints (component-base healthz + legacyregistry):
 * GET /livez, /readyz and /healthz run their checks (`?verbose` lists them,
 * `/livez/<check>` runs one), GET /metrics exposes the registry. Resolves
 * false for any other request, left to the caller.
 */
export function healthHandler(opts: HealthChecks): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> {
  const livez = { ping, ...opts.livez };
  const sets: Record<string, Record<string, HealthCheck>> = {
    livez,
    readyz: { ...livez, ...opts.readyz },
    healthz: opts.healthz ? { ping, ...opts.healthz } : livez,
  };
  return async (req, res, url) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = url.pathname.replace(/\/$/, '') || '/';
    const probe = /^\/(livez|readyz|healthz)(?:\/(.+))?$/.exec(path);
    if (probe) {
      const kind = probe[1]!;
      let checks = sets[kind]!;
      if (probe[2]) {
        const one = checks[probe[2]];
        if (!one) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('404 page not found\n');
          return true;
        }
        checks = { [probe[2]]: one };
      }
      const { ok, lines } = await runChecks(checks);
      res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      if (url.searchParams.has('verbose') || !ok) res.end(`${lines.join('\n')}\n${kind} check ${ok ? 'passed' : 'failed'}\n`);
      else res.end('ok');
      return true;
    }
    if (path === '/metrics' && opts.metrics) {
      const body = await opts.metrics.metrics();
      res.writeHead(200, { 'content-type': opts.metrics.contentType });
      res.end(body);
      return true;
    }
    return false;
  };
}

// prom-client's default collectors one by one (each file of its metricsList is
// `(registry, config) => void`), all but its event loop lag, which
// registerEventLoopDelay replaces.
const requireFromHere = createRequire(import.meta.url);
type DefaultCollector = (registry: Registry, config: object) => void;
const DEFAULT_COLLECTORS = collectDefaultMetrics.metricsList.filter((name) => name !== 'eventLoopLag').map((name) => requireFromHere(`prom-client/lib/metrics/${name}`) as DefaultCollector);

/** A metrics registry with the process metrics every upstream binary exposes. */
export function newMetricsRegistry(labels: Record<string, string> = {}, opts: { processMetrics?: boolean } = {}): Registry {
  const reg = new Registry();
  reg.setDefaultLabels(labels);
  // The process_* and nodejs_* collectors observe GC and the event loop: once per process, not once per component
  // when several share one (hollow nodes: processMetrics false on all but one registry).
  if (opts.processMetrics !== false) {
    for (const collect of DEFAULT_COLLECTORS) collect(reg, {});
    registerEventLoopDelay(reg);
  }
  return reg;
}

export async function serveHealth(opts: HealthServerOptions): Promise<HealthServer> {
  const probes = healthHandler(opts);
  const secure = opts.secure;
  const handle: RequestListener = async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (secure) {
        const verdict = await filterSecurePortRequest(secure.auth, req);
        if (!verdict.ok) {
          secure.onRefused?.({ code: verdict.code, path: url.pathname, why: verdict.why });
          res.writeHead(verdict.code, { 'content-type': verdict.contentType, 'x-content-type-options': 'nosniff' });
          res.end(verdict.body);
          return;
        }
      }
      const route = opts.routes?.[url.pathname];
      if (route) return await route(req, res, url);
      if (await probes(req, res, url)) return;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found\n');
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${(err as Error).message}\n`);
    }
  };
  const server = secure
    ? createHttpsServer(
        {
          cert: secure.certificate.certPem,
          key: secure.certificate.keyPem,
          ...(secure.clientCaPem ? { ca: secure.clientCaPem, requestCert: true } : {}),
          // A certificate from another CA is the filter's 401, not a failed handshake (upstream's tls.RequestClientCert).
          rejectUnauthorized: false,
        },
        handle,
      )
    : createServer(handle);
  return { server, ...(await listenHttp(server, opts.port, opts.host ?? '0.0.0.0')) };
}

/** Listens on host:port (0 = a free port); close() also drops keep-alive connections. */
export async function listenHttp(server: Server, port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
