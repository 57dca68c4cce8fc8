// DefaultTolerationSeconds: every pod tolerates the not-ready and
// unreachable NoExecute taints for a while (300 s by default), so a node
// blip does not evict everything at once.

import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

function tolerates(ts: Toleration[], key: string): boolean {
  return ts.some((t) => (t.effect === 'NoExecute' || !t.effect) && (t.key === key || (!t.key && t.operator === 'Exists')));
}

/** The tolerations a pod ends up with (pure). */
export function withDefaultTolerations(ts: Toleration[] | undefined, notReadySeconds: number, unreachableSeconds: number): Toleration[] | undefined {
  const out = [...(ts ?? [])];
  let changed = false;
  if (!tolerates(out, TAINT_NOT_READY)) {
    out.push({ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
    changed = true;
  }
  if (!tolerates(out, TAINT_UNREACHABLE)) {
    out.push({ key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds });
    changed = true;
  }
  return changed ? out : ts;
}

export function defaultTolerationSeconds(notReadySeconds = 300, unreachableSeconds = 300): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    admit(a: AdmissionAttributes) {
      if (a.operation !== 'CREATE' || a.info.resource !== 'pods' || a.info.group !== '' || a.subresource || !a.object) return;
      const pod = a.object as unknown as { spec?: { tolerations?: Toleration[] } };
      if (!pod.spec) pod.spec = {};
      const t = withDefaultTolerations(pod.spec.tolerations, notReadySeconds, unreachableSeconds);
      if (t) pod.spec.tolerations = t;
    },
  };
}
