// The dashboard's HTTP server: the built page (dist/web), one event stream
// per open page (Server-Sent Events: the map as it changes, flow messages in
// batches, a snapshot first), and the actions a lab needs, each done through
// the API as the dashboard's ServiceAccount and recorded in the flow. Stop,
// start and fault go to the node's agent over NATS (kubelab.control.<node>,
// which only the dashboard's NATS identity may publish): it runs the node's
// own `systemctl stop|start <unit>` or `node-fault <fault> [--clear]`.

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { Clientset } from '@kubelab/client';
import {
  CONTROL_PLANE_COMPONENTS,
  CONTROL_UNITS,
  controlCommandLine,
  controlSubject,
  isControlPlaneComponent,
  parseNodeControlRequest,
  type NodeControlReply,
  type NodeControlRequest,
} from '@kubelab/nats';
import { FAULTS } from '@kubelab/node';
import { NoRespondersError, type NatsConnection } from '@nats-io/transport-node';
import type { Live } from './live.js';
import { handleOtlpHttp, handleTracesApi, type OtlpForwarder } from './receiver.js';
import type { SpanStore } from './spans.js';
import { joinHostPort } from '@kubelab/api';

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
  /** The dashboard's NATS connection (as kubelab:dashboard): stop, start and fault requests to the nodes' agents. */
  nats?: NatsConnection;
  /** How long a node's agent may take to answer (a stop waits for the unit's process to end). */
  controlTimeoutMs?: number;
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

/**
 * The actions change the cluster and the port has no login, so only the
 * page itself may call them: a JSON body (another site's form or
 * `no-cors` fetch can only send text/plain, form or multipart bodies; JSON
 * needs a CORS preflight, which this server never grants) and, when the
 * browser names one, an Origin of this host. Answers true when it refused.
 */
export function refuseForeign(req: IncomingMessage, res: ServerResponse): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    status(res, 415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json`);
    return true;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host = '';
    try {
      host = new URL(origin).host;
    } catch {
      // an Origin that is no URL is refused below
    }
    if (host !== req.headers.host) {
      status(res, 403, 'Forbidden', `requests from ${origin} are not allowed: the actions are for this dashboard's own page`);
      return true;
    }
  } else if (origin === 'null') {
    status(res, 403, 'Forbidden', "requests from an opaque origin are not allowed: the actions are for this dashboard's own page");
    return true;
  }
  return false;
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

/**
 * Faults the dashboard offers: every one of the catalogue but etcd-lost,
 * which freezes NATS, the very path the request and its clearing travel
 * (`kubelab fault <node> etcd-lost` in a terminal does it).
 */
export const DASHBOARD_FAULTS = FAULTS.filter((f) => f.name !== 'etcd-lost').map((f) => ({ name: f.name, what: f.what, see: f.see }));

/** The body of POST /api/actions/{stop,start,fault} → the node and its control request (an Error says what is wrong). */
export function parseControlAction(kind: 'stop' | 'start' | 'fault', body: Record<string, unknown>): { node: string; req: NodeControlRequest } {
  const node = nameField(body, 'node');
  const req = parseNodeControlRequest(kind === 'fault' ? { action: 'fault', fault: body.fault, clear: body.clear } : { action: kind, unit: body.unit });
  if (req.action === 'fault' && !DASHBOARD_FAULTS.some((f) => f.name === req.fault)) {
    throw new Error(`fault: one of ${DASHBOARD_FAULTS.map((f) => f.name).join(', ')} is required, got ${JSON.stringify(req.fault)}`);
  }
  return { node, req };
}

function causes(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let c = e; c && out.length < 5; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
}

async function controlAction(o: DashboardServerOptions, kind: 'stop' | 'start' | 'fault', req: IncomingMessage, res: ServerResponse): Promise<void> {
  let node: string;
  let control: NodeControlRequest;
  try {
    ({ node, req: control } = parseControlAction(kind, await readJson(req)));
  } catch (e) {
    return status(res, 400, 'BadRequest', (e as Error).message);
  }
  if (!o.nats) return status(res, 503, 'ServiceUnavailable', 'the dashboard has no NATS connection (--nats-url): stop, start and fault go to the node over NATS');
  const known = o.live.map().nodes;
  const target = known.find((n) => n.name === node);
  if (known.length > 0 && !target) return status(res, 404, 'NotFound', `nodes "${node}" not found`);
  if (control.action !== 'fault' && isControlPlaneComponent(control.unit) && target && !target.controlPlane) {
    return status(res, 400, 'BadRequest', `${control.unit} is a static pod of the control-plane node, not a unit of ${node}`);
  }
  const line = controlCommandLine(control);
  const started = Date.now();
  const base = {
    kind: 'action' as const,
    from: 'dashboard',
    to: control.action === 'fault' || isControlPlaneComponent(control.unit) ? `node(${node})` : `systemd(${node})`,
    node,
    objectKind: 'Node',
    name: node,
    method: line,
  };
  let reply: NodeControlReply;
  try {
    const msg = await o.nats.request(controlSubject(node), JSON.stringify(control), { timeout: o.controlTimeoutMs ?? 30_000 });
    reply = JSON.parse(msg.string()) as NodeControlReply;
  } catch (e) {
    const noAgent = causes(e).some((c) => c instanceof NoRespondersError);
    const message = noAgent
      ? `no agent answers for node ${node} on ${controlSubject(node)} (the local runner answers for its nodes, a compose node's node-agent for its own)`
      : `node ${node} did not answer ${line}: ${(e as Error).message}`;
    o.live.record({ ...base, time: started, durationMs: Date.now() - started, detail: message, code: noAgent ? 'ServiceUnavailable' : 'Timeout' });
    return status(res, noAgent ? 503 : 504, noAgent ? 'ServiceUnavailable' : 'Timeout', message);
  }
  const output = (reply.output ?? '').trim();
  const lastLine = (output.split('\n').at(-1) ?? '').split('; you will see:')[0]!;
  o.live.record({ ...base, time: started, durationMs: Date.now() - started, detail: `via NATS ${controlSubject(node)}${lastLine ? `: ${lastLine}` : ''}`, code: reply.ok ? 'OK' : 'Failed' });
  if (!reply.ok) return status(res, 500, 'InternalError', `${node}: ${line} failed${output ? `: ${output}` : ''}`);
  const done = control.action === 'fault' ? output.split('\n').at(-1) || `${node}: ${control.fault} ${control.clear ? 'cleared' : 'injected'}` : `${node}: ${line} done`;
  return json(res, 200, { message: done, output });
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
    if (req.method === 'GET' && p === '/api/actions') return json(res, 200, { control: !!o.nats, units: CONTROL_UNITS, components: CONTROL_PLANE_COMPONENTS, faults: DASHBOARD_FAULTS });
    if (p === '/api/actions/stop' || p === '/api/actions/start' || p === '/api/actions/fault') {
      if (req.method !== 'POST') return status(res, 405, 'MethodNotAllowed', `${req.method} is not allowed on ${p}`);
      if (refuseForeign(req, res)) return;
      const kind = p.slice('/api/actions/'.length) as 'stop' | 'start' | 'fault';
      return void controlAction(o, kind, req, res).catch((e: unknown) => status(res, 500, 'InternalError', (e as Error).message));
    }
    if (p === '/api/actions/scale' || p === '/api/actions/delete-pod') {
      if (req.method !== 'POST') return status(res, 405, 'MethodNotAllowed', `${req.method} is not allowed on ${p}`);
      if (refuseForeign(req, res)) return;
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
  return {
    server,
    url: `http://${joinHostPort(addr.address, addr.port)}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
