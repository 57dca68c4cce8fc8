// Taint-based eviction decisions (pkg/controller/tainteviction): a pod on
// a node with NoExecute taints is deleted at once when some taint is not
// tolerated, after the smallest tolerationSeconds of the tolerations used,
// or never when they all tolerate forever.

import type { Taint, Toleration } from '@kubelab/api';
import { toleratesTaint } from '../../util/api-helpers.js';

export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** GetMatchingTolerations: whether every taint is tolerated, and the tolerations that do it. */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[] | undefined): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = (tolerations ?? []).find((x) => toleratesTaint(x, taint));
    if (!t) return { all: false, used: [] };
    used.push(t);
  }
  return { all: true, used };
}

/** getMinTolerationTime in ms: -1 when every toleration is forever. */
export function minTolerationMs(used: readonly Toleration[]): number {
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    const ms = Math.max(0, t.tolerationSeconds) * 1000;
    if (min < 0 || ms < min) min = ms;
  }
  return min;
}

export type EvictionDecision = { kind: 'cancel' } | { kind: 'now' } | { kind: 'after'; ms: number };

/** processPodOnNode's decision for a pod's tolerations against its node's taints. */
export function evictionDecision(taints: readonly Taint[] | undefined, tolerations: readonly Toleration[] | undefined): EvictionDecision {
  const ne = noExecuteTaints(taints);
  if (ne.length === 0) return { kind: 'cancel' };
  const { all, used } = matchingTolerations(ne, tolerations);
  if (!all) return { kind: 'now' };
  const ms = minTolerationMs(used);
  if (ms < 0) return { kind: 'cancel' };
  return { kind: 'after', ms };
}
