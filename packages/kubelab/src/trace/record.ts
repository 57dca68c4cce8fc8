// The CRI call record as the viewer reads it: @kubelab/proto's lenient
// decoding of the runtime's record, plus which pod a record concerns.

import type { DecodedCriCallRecord } from '@kubelab/proto/cri-record';

export type CriRecord = DecodedCriCallRecord;

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
