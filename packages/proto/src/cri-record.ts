// The CRI call record on NATS (kubelab's own telemetry, in the role of an
// exported span): one JSON record per CRI call the runtime serves, on
// `kubelab.cri.<node>.<method>`. The runtime writes it, `kubelab trace`
// reads it; this module is the one place both take its shape and subject from.
// It imports no gRPC (only json-record.ts): the CLI loads it through `@kubelab/proto/cri-record`.

import { jsonObject, parseJsonObject } from './json-record.js';

export interface CriCallRecord {
  /** RFC 3339 start time. */
  time: string;
  node: string;
  service: 'RuntimeService' | 'ImageService';
  method: string;
  podSandboxId?: string;
  podName?: string;
  podNamespace?: string;
  podUid?: string;
  containerId?: string;
  containerName?: string;
  request: Record<string, unknown>;
  /** A summary of the answer where it matters to a reader (ExecSync's exit code). */
  response?: Record<string, unknown>;
  durationMs: number;
  /** gRPC status name (OK, NOT_FOUND, ...) and number. */
  code: string;
  codeNumber: number;
  message?: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

/** A record as a reader gets it: only what every runtime version writes is required. */
export type DecodedCriCallRecord = Omit<CriCallRecord, 'service' | 'codeNumber' | 'traceId' | 'spanId'> & {
  service?: string;
  codeNumber?: number;
  traceId?: string;
  spanId?: string;
};

const SUBJECT_ROOT = 'kubelab.cri';

/** Every record (the JetStream stream's and an unfiltered viewer's subject). */
export const CRI_SUBJECT_ALL = `${SUBJECT_ROOT}.>`;

/** The JetStream stream keeping the records for `kubelab trace --since` (created by the first viewer). */
export const CRI_STREAM = 'KUBELAB_CRI';

/** A subject token from free text: NATS tokens cannot hold dots, wildcards or blanks. */
export function criSubjectToken(s: string): string {
  return s.replace(/[.*> \t]/g, '_');
}

/** Where the runtime publishes a call's record. */
export function criSubject(node: string, method: string): string {
  return `${SUBJECT_ROOT}.${criSubjectToken(node)}.${method}`;
}

/** The subscription for one node and/or one method; a missing one matches any. */
export function criSubscription(node: string | undefined, method: string | undefined): string {
  if (!node && !method) return CRI_SUBJECT_ALL;
  return `${SUBJECT_ROOT}.${node ? criSubjectToken(node) : '*'}.${method || '*'}`;
}

export function encodeCriCallRecord(rec: CriCallRecord): string {
  return JSON.stringify(rec);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A record from a message body, read leniently so a record from an older or
 * newer runtime still reads; undefined when the body is not a record at all.
 */
export function decodeCriCallRecord(data: string): DecodedCriCallRecord | undefined {
  const r = parseJsonObject(data);
  const method = str(r?.method);
  const node = str(r?.node);
  if (!r || !method || !node) return undefined;
  const rec: DecodedCriCallRecord = {
    time: str(r.time) ?? new Date().toISOString(),
    node,
    method,
    request: jsonObject(r.request) ?? {},
    durationMs: typeof r.durationMs === 'number' && Number.isFinite(r.durationMs) ? r.durationMs : 0,
    code: str(r.code) ?? 'UNKNOWN',
  };
  for (const k of ['service', 'podSandboxId', 'podName', 'podNamespace', 'podUid', 'containerId', 'containerName', 'message', 'traceId', 'spanId', 'parentSpanId'] as const) {
    const v = str(r[k]);
    if (v) rec[k] = v;
  }
  if (typeof r.codeNumber === 'number') rec.codeNumber = r.codeNumber;
  const response = jsonObject(r.response);
  if (response) rec.response = response;
  return rec;
}
