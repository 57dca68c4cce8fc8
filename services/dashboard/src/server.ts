// The dashboard's HTTP server: the built page (dist/web), one event stream
// per open page (Server-Sent Events: the map as it changes, flow messages in
// batches, a snapshot first), and the actions a lab needs, each done through
// the API as the dashboard's ServiceAccount and recorded in the flow.

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { Clientset } from '@kubelab/client';
import type { Live } from './live.js';
import { handleOtlpHttp, handleTracesApi, type OtlpForwarder } from './receiver.js';
import type { SpanStore } from './spans.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Largest action body read. */
const MAX_BODY = 16 * 1024;

export interface DashboardServerOptions {
  live: Live;
  clientset?: Clientset;
  /** The built page's folder. */
  webDir: string;
  bindAddress: string;
  port: number;
  /** The spans received over OTLP (POST /v1/traces here, or the gRPC receiver). */
  spans?: SpanStore;
  /** Where received protobuf exports are sent on (--otlp-forward-endpoint). */
  forwarder?: OtlpForwarder;
}

export interface RunningDashboard {
  server: Server;
  url: string;
  close(): Promise<void>;
}

function json(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body) + '\n');
}

/** A metav1.Status as the apiserver answers a bad request. */
function status(res: ServerResponse, code: number, reason: string, message: string): void {
  json(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error(`request body larger than ${MAX_BODY} bytes`);
    chunks.push(c as Buffer);
  }
  const v = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the body must be a JSON object');
  return v as Record<string, unknown>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function nameField(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || !DNS_LABEL.test(v) || v.length > 253) throw new Error(`${key}: a lowercase RFC 1123 name is required, got ${JSON.stringify(v)}`);
  return v;
}

function stream(live: Live, req: IncomingMessage, res: ServerResponse, spans?: SpanStore): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('snapshot', { map: live.map(), flow: live.buffer.toArray(), decisions: live.decisions.toArray(), serverTime: Date.now() });
  const off = live.subscribe({ map: (m) => send('map', m), flow: (b) => send('flow', b), sched: (b) => send('sched', b) });
  // The Traces view's list: sent first, then again (throttled by the store) as spans arrive.
  const traces = () => send('traces', { items: spans?.list(200) ?? [], receiving: !!spans });
  traces();
  const offTraces = spans?.subscribe(traces);
  // A comment line now and then keeps proxies from closing an idle stream.
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  req.on('close', () => {
    clearInterval(keepAlive);
    off();
    offTraces?.();
  });
}

async function action(o: DashboardServerOptions, kind: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cs = o.clientset;
  if (!cs) return status(res, 503, 'ServiceUnavailable', 'the dashboard has no apiserver connection (--kubeconfig)');
  let body: Record<string, unknown>;
  let namespace: string;
  let name: string;
  try {
    body = await readJson(req);
    namespace = nameField(body, 'namespace');
    name = nameField(body, 'name');
  } catch (e) {
    return status(res, 400, 'BadRequest', (e as Error).message);
  }
  const started = Date.now();
  const base = { kind: 'action' as const, from: 'dashboard', to: 'apiserver', namespace, name };
  try {
    if (kind === 'scale') {
      const replicas = body.replicas;
      if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0 || replicas > 100)
        return status(res, 400, 'BadRequest', `replicas: a whole number from 0 to 100 is required, got ${JSON.stringify(replicas)}`);
      await cs.apps.deployments(namespace).patch(name, 'merge', { spec: { replicas } });
      o.live.record({ ...base, time: started, durationMs: Date.now() - started, objectKind: 'Deployment', method: 'patch deployments', detail: `spec.replicas=${replicas}`, code: 'OK' });
      return json(res, 200, { message: `deployment.apps/${name} scaled` });
    }
    await cs.core.pods(namespace).delete(name);
    o.live.record({ ...base, time: started, durationMs: Date.now() - started, objectKind: 'Pod', method: 'delete pods', code: 'OK' });
    return json(res, 200, { message: `pod "${name}" deleted` });
  } catch (e) {
    const err = e as Error & { code?: number; reason?: string; status?: { code?: number; reason?: string; message?: string } };
    const code = err.status?.code ?? (typeof err.code === 'number' && err.code >= 400 ? err.code : 500);
    const reason = err.status?.reason ?? err.reason ?? 'InternalError';
    o.live.record({
      ...base,
      time: started,
      durationMs: Date.now() - started,
      objectKind: kind === 'scale' ? 'Deployment' : 'Pod',
      method: kind === 'scale' ? 'patch deployments' : 'delete pods',
      code: reason,
    });
    return status(res, code, reason, err.status?.message ?? err.message);
  }
}

function serveFile(webDir: string, path: string, res: ServerResponse): void {
  const rel = normalize(decodeURIComponent(path === '/' ? '/index.html' : path)).replace(/^([/\\])+/, '');
  const file = join(webDir, rel);
  if (!file.startsWith(webDir + sep) || !existsSync(file) || !statSync(file).isFile()) return status(res, 404, 'NotFound', `${path} not found`);
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': rel === 'index.html' ? 'no-store' : 'max-age=3600' });
  createReadStream(file).pipe(res);
}

export async function startDashboardServer(o: DashboardServerOptions): Promise<RunningDashboard> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const p = url.pathname;
    if (req.method === 'GET' && p === '/healthz') return void res.end('ok');
    if (req.method === 'GET' && p === '/api/stream') return stream(o.live, req, res, o.spans);
    if (p === '/v1/traces' && o.spans) return void handleOtlpHttp({ store: o.spans, ...(o.forwarder ? { forwarder: o.forwarder } : {}) }, req, res).catch(() => res.destroy());
    if (req.method === 'GET' && p.startsWith('/api/traces') && o.spans && handleTracesApi(o.spans, p, res, url.searchParams)) return;
    if (req.method === 'GET' && p === '/api/flow') return json(res, 200, { items: o.live.buffer.toArray() });
    if (p === '/api/actions/scale' || p === '/api/actions/delete-pod') {
      if (req.method !== 'POST') return status(res, 405, 'MethodNotAllowed', `${req.method} is not allowed on ${p}`);
      return void action(o, p.endsWith('scale') ? 'scale' : 'delete', req, res).catch((e: unknown) => status(res, 500, 'InternalError', (e as Error).message));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return status(res, 405, 'MethodNotAllowed', `${req.method} is not allowed`);
    try {
      serveFile(o.webDir, p, res);
    } catch (e) {
      status(res, 400, 'BadRequest', (e as Error).message);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.bindAddress, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    server,
    url: `http://${host}:${addr.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
