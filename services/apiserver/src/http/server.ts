// The secure port: HTTPS with optional client certificates (verified against
// the client CA by the TLS layer), then the request filters — authentication
// (401), impersonation and authorization (403) — in front of everything,
// health and metrics as upstream serves them on 6443 included, then the REST
// handler from src/endpoints when it is present. Until the apiserver is
// ready (its watch cache synced) API requests get 503 with Retry-After, so
// clients retry instead of reading a 404 as "no such kind".

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServer } from 'node:https';
import { resourceNotServed, serviceUnavailable, unauthorized, type Status } from '@kubelab/api';
import { healthHandler, listenHttp, serveUpgrades, type HealthCheck } from '@kubelab/component-base';
import type { Registry } from 'prom-client';
import { setRequestUser, type AuthenticationResult } from '../authentication/request.js';
import { hasInvalidPathEscape, isProbePath } from './request-line.js';

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
  /** Runs before any handler; false when it answered the request itself (a 403, APF's 429); may wait (for an APF seat). */
  filter?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /** False while API requests must wait (the watch cache not synced yet): they get 503 with Retry-After; probes are served. */
  ready?: () => boolean;
  onError?: (err: unknown) => void;
}

/** Upstream's MaxHeaderBytes on the secure port (1 MiB; Node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 1 << 20;

function writeStatus(res: ServerResponse, code: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The answer while not ready: the watch cache's "storage is (re)initializing", retry in a second. */
export const NOT_READY: Status = { ...serviceUnavailable('storage is (re)initializing').status, details: { retryAfterSeconds: 1 } };

/** The 431 for headers over MAX_HEADER_BYTES, as a Status rather than Go's bare text. */
export const HEADERS_TOO_LARGE: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request Header Fields Too Large', code: 431 };

function rawResponse(code: number, text: string, type: string, body: string): string {
  return `HTTP/1.1 ${code} ${text}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Go's rstAvoidanceDelay: how long a refused connection is kept open, reading, after its answer. */
const RST_AVOIDANCE_MS = 500;

/**
 * The answer, then the write side closed while what the client still sends is
 * read and dropped (Go's closeWriteAndWait): closing with its rest of an
 * oversized request unread would send a reset, and the client's kernel would
 * drop the answer before the client read it.
 */
function answerAndLinger(socket: Duplex, answer: string): void {
  answered.add(socket);
  socket.end(answer);
  const timer = setTimeout(() => socket.destroy(), RST_AVOIDANCE_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Connections already answered: Node's parser reports every further chunk of the refused request as another client error. */
const answered = new WeakSet<Duplex>();

/** A request Node's parser refused: 431 Status for oversized headers, else Go's bare 400; the connection closes. */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (answered.has(socket)) return;
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') answerAndLinger(socket, rawResponse(431, 'Request Header Fields Too Large', 'application/json', JSON.stringify(HEADERS_TOO_LARGE)));
  // Go answers a malformed request and closes at once (no linger).
  else socket.end(rawResponse(400, 'Bad Request', 'text/plain; charset=utf-8', '400 Bad Request'));
}

export async function startHttpServer(opts: ApiHttpServerOptions): Promise<{ port: number; close(): Promise<void> }> {
  // The apiserver's /healthz runs every check, readiness ones included.
  const probes = healthHandler({ livez: opts.livez, readyz: opts.readyz, healthz: { ...opts.livez, ...opts.readyz }, metrics: opts.metrics });
  const server = createServer(
    {
      cert: opts.tls.certPem,
      key: opts.tls.keyPem,
      ...(opts.tls.clientCaPem ? { ca: opts.tls.clientCaPem, requestCert: true } : {}),
      maxHeaderSize: MAX_HEADER_BYTES,
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
  server.on('clientError', answerClientError);
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    // Go's server refuses such a request line before any handler: a bare 400 and the connection closed.
    if (hasInvalidPathEscape(url)) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 15, connection: 'close' });
      res.end('400 Bad Request');
      return;
    }
    const pending = opts.authenticate(req);
    const who = pending instanceof Promise ? await pending : pending;
    if ('error' in who) return writeStatus(res, 401, unauthorized().status);
    // Before authorization: the RBAC authorizer reads the same cache, and would refuse everyone until it syncs.
    if (opts.ready && !opts.ready() && !isProbePath(url)) return writeStatus(res, 503, NOT_READY, { 'retry-after': '1' });
    setRequestUser(req, who.user);
    // Used up: a proxied request (pods/exec, pods/log to a kubelet) never carries the client's token on (upstream WithAuthentication).
    delete req.headers.authorization;
    if (opts.filter) {
      const go = opts.filter(req, res);
      if (!(go instanceof Promise ? await go : go)) return;
    }
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
