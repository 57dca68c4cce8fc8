// How one CRI call reads on a terminal, as a step in a sequence:
//   10:41:02.118  kubelet(node-1) → containerd(node-1)  CreateContainer  default/probedemo liveness  image=busybox:1.36 command=sh -c 'touch /tmp/healthy; sleep 30'  2.1ms  OK
// and the same call as one JSON object for machines (--json).

import type { ApiWriteRecord } from '@kubelab/proto/api-record';
import { formatSchedulingDecision, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import type { ProxySyncRecord } from '@kubelab/proto/proxy-record';
import { podOf, type CriRecord } from './record.js';

export interface FormatOptions {
  color: boolean;
  /** Times in UTC instead of local time (tests). */
  utc?: boolean;
}

const SGR = { dim: '\x1b[2m', bold: '\x1b[1m', red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', cyan: '\x1b[36m', reset: '\x1b[0m' };
const paint = (on: boolean, code: string, s: string) => (on && s ? `${code}${s}${SGR.reset}` : s);

export function formatTime(iso: string, utc = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '??:??:??.???';
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return utc
    ? `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`
    : `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** 0.43 → `0.4ms`, 12.34 → `12ms`, 1234 → `1.23s`. */
export function formatDurationMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)}s`;
  if (ms >= 10) return `${Math.round(ms)}ms`;
  return `${ms.toFixed(1)}ms`;
}

/** An argv word as a shell user would type it. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const argv = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const scalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The request fields worth reading for each method (image, command, probe command, ...). */
export function requestSummary(rec: CriRecord): string {
  const q = rec.request;
  const parts: string[] = [];
  const add = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== '') parts.push(`${k}=${v}`);
  };
  switch (rec.method) {
    case 'RunPodSandbox':
      if (typeof q.attempt === 'number' && q.attempt > 0) add('attempt', q.attempt);
      add('runtimeHandler', q.runtimeHandler);
      break;
    case 'CreateContainer': {
      add('image', q.image);
      const cmd = [...argv(q.command), ...argv(q.args)];
      if (cmd.length) add('command', cmd.map(shellWord).join(' '));
      if (typeof q.attempt === 'number' && q.attempt > 0) add('attempt', q.attempt);
      break;
    }
    case 'ExecSync': {
      const cmd = argv(q.cmd);
      if (cmd.length) add('cmd', cmd.map(shellWord).join(' '));
      if (typeof q.timeout === 'number' && q.timeout > 0) add('timeout', `${q.timeout}s`);
      break;
    }
    case 'StopContainer':
      if (typeof q.timeout === 'number') add('timeout', `${q.timeout}s`);
      break;
    case 'PullImage':
      add('image', q.image);
      if (q.auth === 'present') add('auth', 'present');
      break;
    case 'UpdateRuntimeConfig':
      add('podCIDR', q.podCidr);
      break;
    default:
      // Anything else: its scalar fields, in the order the runtime sent them.
      for (const [k, v] of Object.entries(q)) if (scalar(v) && k !== 'pod' && k !== 'uid') add(k, v);
      if (q.filter && typeof q.filter === 'object') add('filter', JSON.stringify(q.filter));
  }
  return parts.join(' ');
}

/** OK, OK with a failing exec's exit code, or the gRPC error. */
function statusText(rec: CriRecord, color: boolean): string {
  if (rec.code !== 'OK') return paint(color, SGR.red, `${rec.code}${rec.message ? `: ${rec.message}` : ''}`);
  const exit = rec.response?.exitCode;
  if (typeof exit === 'number' && exit !== 0) return paint(color, SGR.yellow, `OK (exit code ${exit})`);
  return paint(color, SGR.green, 'OK');
}

export function podColumn(rec: CriRecord): string {
  const p = podOf(rec);
  const pod = p.name ? `${p.namespace ? `${p.namespace}/` : ''}${p.name}` : '';
  return [pod, rec.containerName ?? ''].filter(Boolean).join(' ') || '-';
}

export function formatLine(rec: CriRecord, opts: FormatOptions): string {
  const c = opts.color;
  const summary = requestSummary(rec);
  return [
    paint(c, SGR.dim, formatTime(rec.time, opts.utc)),
    paint(c, SGR.cyan, `kubelet(${rec.node}) → containerd(${rec.node})`),
    paint(c, SGR.bold, rec.method.padEnd(16)),
    podColumn(rec).padEnd(24),
    ...(summary ? [summary] : []),
    formatDurationMs(rec.durationMs).padStart(7),
    statusText(rec, c),
  ].join('  ');
}

/** The --json object: stable keys (null when unknown) so `jq` filters never trip. */
export function toJson(rec: CriRecord): Record<string, unknown> {
  const p = podOf(rec);
  return {
    time: rec.time,
    node: rec.node,
    service: rec.service ?? null,
    method: rec.method,
    namespace: p.namespace ?? null,
    pod: p.name ?? null,
    container: rec.containerName ?? null,
    podSandboxId: rec.podSandboxId ?? null,
    containerId: rec.containerId ?? null,
    request: rec.request,
    ...(rec.response ? { response: rec.response } : {}),
    durationMs: rec.durationMs,
    code: rec.code,
    message: rec.message ?? null,
    traceId: rec.traceId ?? null,
    spanId: rec.spanId ?? null,
    parentSpanId: rec.parentSpanId ?? null,
  };
}

export function hiddenLine(count: number, color: boolean): string {
  return paint(color, SGR.dim, `(${count} relist call${count === 1 ? '' : 's'} hidden; --all shows them)`);
}

/** Counts hidden calls and says so at most once per interval (a step function: the caller passes the clock). */
export class HiddenTally {
  private pending = 0;
  total = 0;
  private last: number;
  constructor(
    private readonly intervalMs: number,
    now: number,
  ) {
    this.last = now;
  }
  note(): void {
    this.pending++;
    this.total++;
  }
  /** The count to report now, if any is pending and the interval has passed (or `force`). */
  due(now: number, force = false): number | undefined {
    if (this.pending === 0 || (!force && now - this.last < this.intervalMs)) return undefined;
    const n = this.pending;
    this.pending = 0;
    this.last = now;
    return n;
  }
}

/** HTTP status texts of the codes a write answers with (Go's http.StatusText). */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `pods`, `deployments.apps`, `pods/binding`: the resource as kubectl names it. */
export function resourceName(rec: Pick<ApiWriteRecord, 'group' | 'resource' | 'subresource'>): string {
  return `${rec.resource}${rec.group ? `.${rec.group}` : ''}${rec.subresource ? `/${rec.subresource}` : ''}`;
}

/**
 * One write the apiserver answered, as a step in the same sequence as the CRI calls:
 *   10:41:02.101  kube-controller-manager → kube-apiserver  create            pods default/web-7d9f5-x2x4k  user=system:serviceaccount:kube-system:replicaset-controller  3.1ms  201 Created
 */
export function formatApiLine(rec: ApiWriteRecord, opts: FormatOptions): string {
  const c = opts.color;
  const who = rec.component ?? rec.user;
  const obj = rec.name ? `${rec.namespace ? `${rec.namespace}/` : ''}${rec.name}` : rec.namespace ? `${rec.namespace}/` : '-';
  const text = STATUS_TEXT[rec.code];
  const status = `${rec.code}${text ? ` ${text}` : ''}`;
  return [
    paint(c, SGR.dim, formatTime(rec.time, opts.utc)),
    paint(c, SGR.cyan, `${who} → kube-apiserver`),
    paint(c, SGR.bold, `${rec.verb}${rec.operation === 'apply' ? ' (apply)' : ''}`.padEnd(16)),
    `${resourceName(rec)} ${obj}`.padEnd(24),
    `user=${rec.user}${rec.dryRun ? ' dryRun' : ''}`,
    formatDurationMs(rec.durationMs).padStart(7),
    paint(c, rec.code >= 400 ? SGR.red : SGR.green, status),
  ].join('  ');
}

/** The --json object of a write record: the record (`component`: who asked), marked `source: kube-apiserver`. */
export function apiToJson(rec: ApiWriteRecord): Record<string, unknown> {
  return { source: 'kube-apiserver', ...rec, component: rec.component ?? null, namespace: rec.namespace ?? null, name: rec.name ?? null, traceId: rec.traceId ?? null, spanId: rec.spanId ?? null };
}

/** Appended to a line let out after later starts (a call longer than the hold window). */
export function lateMark(color: boolean): string {
  return paint(color, SGR.dim, '  ↑ started before the lines above');
}

/**
 * One scheduling decision (--all-components), the scheduler's own step:
 *   10:41:02.100  kube-scheduler  Scheduled default/web → node-1 (2 node(s), the only feasible node)  0.4ms
 */
export function formatSchedLine(rec: SchedulingDecisionRecord, opts: FormatOptions): string {
  const c = opts.color;
  return [
    paint(c, SGR.dim, formatTime(rec.time, opts.utc)),
    paint(c, SGR.cyan, 'kube-scheduler'),
    paint(c, rec.result === 'Scheduled' ? SGR.green : SGR.red, formatSchedulingDecision(rec)),
    formatDurationMs(rec.durationMs).padStart(7),
  ].join('  ');
}

/**
 * One kube-proxy rules sync (--all-components), as its "SyncProxyRules complete" log line with the counts:
 *   10:41:02.300  kube-proxy(node-1)  SyncProxyRules iptables partial: 3 services, 4 ports, 6 endpoints, 41 rules ← EndpointSlice default/web-x7k2p (+1 change)  1.2ms
 */
export function formatProxyLine(rec: ProxySyncRecord, opts: FormatOptions): string {
  const c = opts.color;
  const what = `SyncProxyRules ${rec.mode} ${rec.fullSync ? 'full' : 'partial'}`;
  const counts = `${rec.services} services, ${rec.servicePorts} ports, ${rec.endpoints} endpoints, ${rec.rules} rules`;
  const more = rec.changes && rec.changes > 1 ? ` (+${rec.changes - 1} change${rec.changes > 2 ? 's' : ''})` : '';
  const cause = rec.trigger ? ` ← ${rec.trigger}${more}` : '';
  const body = rec.error ? paint(c, SGR.red, `${what} failed: ${rec.error}`) : `${paint(c, SGR.green, what)}: ${counts}${cause}`;
  return [paint(c, SGR.dim, formatTime(rec.time, opts.utc)), paint(c, SGR.cyan, `kube-proxy(${rec.node})`), body, formatDurationMs(rec.durationMs).padStart(7)].join('  ');
}
