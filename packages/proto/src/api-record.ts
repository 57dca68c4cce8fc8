// The apiserver's write record on NATS (kubelab's own telemetry, in the role
// of an audit event at the Metadata level): one JSON record per write request
// the apiserver answered — who asked, what object, the status code and how
// long it took — on `kubelab.api.<verb>.<resource>`. The apiserver writes it,
// `kubelab trace --all-components` reads it. No gRPC imports (loaded by the
// CLI through `@kubelab/proto/api-record`).

import { parseJsonObject } from './json-record.js';

/** The audit verbs of a write (upstream's request verbs; a server-side apply is a `patch`, as upstream audits it). */
export type ApiWriteVerb = 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ApiWriteRecord {
  /** RFC 3339 start time (ms). */
  time: string;
  verb: ApiWriteVerb;
  /** `apply` for a server-side apply (verb patch), else absent. */
  operation?: 'apply';
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Who asked: the authenticated user name, and the component its User-Agent names (`kube-controller-manager`, `kubectl`). */
  user: string;
  component?: string;
  /** The HTTP status code the request got (201, 200, 409, ...). */
  code: number;
  durationMs: number;
  dryRun?: boolean;
  /** The object's `kubelab.io/traceparent` trace (or the request's) and the request's span. */
  traceId?: string;
  spanId?: string;
}

const SUBJECT_ROOT = 'kubelab.api';

/** Every write record. */
export const API_SUBJECT_ALL = `${SUBJECT_ROOT}.>`;

/** A subject token: NATS tokens cannot hold dots, wildcards or blanks. */
function token(s: string): string {
  return s.replace(/[.*> \t]/g, '_') || '_';
}

/** `kubelab.api.<verb>.<resource>` (`pods/binding` for a subresource). */
export function apiRecordSubject(verb: string, resource: string, subresource?: string): string {
  return `${SUBJECT_ROOT}.${token(verb)}.${token(subresource ? `${resource}/${subresource}` : resource)}`;
}

/** The component a User-Agent names: `kube-scheduler/v1.33 (linux/amd64) kubernetes/abc` → `kube-scheduler`. */
export function componentOfUserAgent(ua: string | undefined): string | undefined {
  if (!ua) return undefined;
  const first = ua.split(/[/ ]/, 1)[0];
  return first || undefined;
}

export function encodeApiWriteRecord(rec: ApiWriteRecord): string {
  return JSON.stringify(rec);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A record from a message body, read leniently; undefined when the body is not a write record. */
export function decodeApiWriteRecord(data: string): ApiWriteRecord | undefined {
  const r = parseJsonObject(data);
  const verb = str(r?.verb);
  const resource = str(r?.resource);
  if (!r || !verb || !resource) return undefined;
  const rec: ApiWriteRecord = {
    time: str(r.time) ?? new Date().toISOString(),
    verb: verb as ApiWriteVerb,
    group: typeof r.group === 'string' ? r.group : '',
    version: str(r.version) ?? 'v1',
    resource,
    user: str(r.user) ?? 'unknown',
    code: typeof r.code === 'number' ? r.code : 0,
    durationMs: typeof r.durationMs === 'number' && Number.isFinite(r.durationMs) ? r.durationMs : 0,
  };
  for (const k of ['subresource', 'namespace', 'name', 'component', 'traceId', 'spanId'] as const) {
    const v = str(r[k]);
    if (v) rec[k] = v;
  }
  if (r.operation === 'apply') rec.operation = 'apply';
  if (r.dryRun === true) rec.dryRun = true;
  return rec;
}
