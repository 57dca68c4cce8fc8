// The secure port: HTTPS with optional client certificates (verified against
// the client CA by the TLS layer), then the request filters — authentication
// (401), impersonation and authorization (403) — in front of everything,
// health and metrics as upstream serves them on 6443 included, then the REST
// handler from src/endpoints when it is present.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { resourceNotServed, unauthorized } from '@kubelab/api';
import { healthHandler, listenHttp, serveUpgrades, type HealthCheck } from '@kubelab/component-base';
import type { Registry } from 'prom-client';
import { setRequestUser, type AuthenticationResult } from '../authentication/request.js';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The serving certificate and the CA client certificates are checked against (PEM). */
export interface ServingTls {
  certPem: string;
  keyPem: string;
  /** --client-ca-file: without it no client certificate is asked for. */
  clientCaPem?: string;
}

export interface ApiHttpServerOptions {
  host: string;
  port: number;
  tls: ServingTls;
  /** The authentication filter; its error is answered 401. */
  authenticate: (req: IncomingMessage) => AuthenticationResult | Promise<AuthenticationResult>;
  livez: Record<string, HealthCheck>;
  readyz: Record<string, HealthCheck>;
  metrics: Registry;
  /** Resolved after listen (the REST handler may need the bound port). */
  rest?: () => HttpHandler | undefined;
  /** Runs before any handler; false when it answered the request itself (a 403). */
  filter?: (req: IncomingMessage, res: ServerResponse) => boolean;
  onError?: (err: unknown) => void;
}

function writeStatus(res: ServerResponse, code: number, body: object): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startHttpServer(opts: ApiHttpServerOptions): Promise<{ port: number; close(): Promise<void> }> {
  // The apiserver's /healthz runs every check, readiness ones included.
  const probes = healthHandler({ livez: opts.livez, readyz: opts.readyz, healthz: { ...opts.livez, ...opts.readyz }, metrics: opts.metrics });
  const server = createServer(
    {
      cert: opts.tls.certPem,
      key: opts.tls.keyPem,
      ...(opts.tls.clientCaPem ? { ca: opts.tls.clientCaPem, requestCert: true } : {}),
      // Verification failures are the authentication filter's 401, not a failed handshake (as Go's VerifyClientCertIfGiven).
      rejectUnauthorized: false,
    },
    (req, res) => {
      void handle(req, res).catch((err) => {
        opts.onError?.(err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`internal error: ${(err as Error).message}\n`);
      });
    },
  );
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pending = opts.authenticate(req);
    const who = pending instanceof Promise ? await pending : pending;
    if ('error' in who) return writeStatus(res, 401, unauthorized().status);
    setRequestUser(req, who.user);
    // Used up: a proxied request (pods/exec, pods/log to a kubelet) never carries the client's token on (upstream WithAuthentication).
    delete req.headers.authorization;
    if (opts.filter && !opts.filter(req, res)) return;
    if (await probes(req, res, new URL(req.url ?? '/', 'https://localhost'))) return;
    const rest = opts.rest?.();
    if (rest) return rest(req, res);
    writeStatus(res, 404, resourceNotServed().status);
  }
  // Upgrade requests (pods/exec streams) go through the same handler, with a response bound to their socket.
  const upgrades = serveUpgrades(server, handle, opts.onError);
  const listening = await listenHttp(server, opts.port, opts.host);
  return {
    port: listening.port,
    close: async () => {
      upgrades.closeAll();
      await listening.close();
    },
  };
}
