// The CRI call record as the viewer reads it: the mock containerd's
// CriCallRecord (a type-only import: the CLI loads no runtime code), read
// leniently — a record from an older or newer runtime still prints, junk is skipped.

import type { CriCallRecord } from '@kubelab/containerd';

/** CriCallRecord with only what every record carries required. */
export type CriRecord = Omit<CriCallRecord, 'service' | 'codeNumber' | 'traceId' | 'spanId'> & {
  service?: string;
  codeNumber?: number;
  traceId?: string;
  spanId?: string;
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** A record from a message body, or undefined when it is not one. */
export function parseRecord(data: string): CriRecord | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return undefined;
  }
  const r = obj(raw);
  const method = str(r?.method);
  const node = str(r?.node);
  if (!r || !method || !node) return undefined;
  const rec: CriRecord = {
    time: str(r.time) ?? new Date().toISOString(),
    node,
    method,
    request: obj(r.request) ?? {},
    durationMs: typeof r.durationMs === 'number' && Number.isFinite(r.durationMs) ? r.durationMs : 0,
    code: str(r.code) ?? 'UNKNOWN',
  };
  for (const k of ['service', 'podSandboxId', 'podName', 'podNamespace', 'podUid', 'containerId', 'containerName', 'message', 'traceId', 'spanId', 'parentSpanId'] as const) {
    const v = str(r[k]);
    if (v) rec[k] = v;
  }
  if (typeof r.codeNumber === 'number') rec.codeNumber = r.codeNumber;
  const response = obj(r.response);
  if (response) rec.response = response;
  return rec;
}

/** The pod a record concerns: its sandbox's metadata, else a `namespace/name` in the request (RunPodSandbox, PullImage's sandbox config). */
export function podOf(rec: CriRecord): { namespace?: string; name?: string } {
  if (rec.podName) return { name: rec.podName, ...(rec.podNamespace ? { namespace: rec.podNamespace } : {}) };
  const p = rec.request.pod;
  if (typeof p === 'string' && p.includes('/')) {
    const [namespace, name] = [p.slice(0, p.indexOf('/')), p.slice(p.indexOf('/') + 1)];
    if (namespace && name && name !== 'undefined') return { namespace, name };
  }
  return {};
}
