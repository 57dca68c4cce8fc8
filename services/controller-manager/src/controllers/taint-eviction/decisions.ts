// Taint-based eviction decisions (pkg/controller/tainteviction): a pod on
// a node with NoExecute taints is deleted at once when some taint is not
// tolerated, after the smallest tolerationSeconds of the tolerations used,
// or never when they all tolerate forever.

import { findUntoleratedTaint, minTolerationSeconds, type Taint, type Toleration } from '@kubelab/api';

export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

export type EvictionDecision = { kind: 'cancel' } | { kind: 'now' } | { kind: 'after'; ms: number };

/** processPodOnNode's decision for a pod's tolerations against its node's taints. */
export function evictionDecision(taints: readonly Taint[] | undefined, tolerations: readonly Toleration[] | undefined): EvictionDecision {
  const ne = noExecuteTaints(taints);
  if (ne.length === 0) return { kind: 'cancel' };
  if (findUntoleratedTaint(ne, tolerations)) return { kind: 'now' };
  const seconds = minTolerationSeconds(ne, tolerations);
  return seconds < 0 ? { kind: 'cancel' } : { kind: 'after', ms: seconds * 1000 };
}
