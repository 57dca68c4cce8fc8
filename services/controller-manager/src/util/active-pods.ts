// Which pods a controller deletes first when it scales down
// (controller.ActivePodsWithRanks): the least useful go first — unassigned
// before assigned, Pending before Unknown before Running, not ready before
// ready, lower pod-deletion-cost first, pods doubled up on a node first,
// ready for a shorter time first, more restarts first, newer first.

import { getPodCondition, isPodReady, maxContainerRestarts, parseTime, type Pod } from '@kubelab/api';

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function deletionCost(p: Pod): number {
  const v = p.metadata.annotations?.[POD_DELETION_COST];
  if (v === undefined || !/^-?\d+$/.test(v)) return 0;
  return Number(v);
}

/** Timestamps compared on a log2 scale of their age, as LogarithmicScaleDown does. */
function logBucket(ts: number, now: number): number {
  const age = Math.max(0, now - ts) / 1000;
  return age < 1 ? 0 : Math.floor(Math.log2(age)) + 1;
}

/**
 * Negative when a should be deleted before b. rank: pods of the same owner
 * family on the pod's node (higher = delete first).
 */
export function compareForDeletion(a: Pod, b: Pod, rankA: number, rankB: number, now: number): number {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const pa = PHASE_ORDER[a.status?.phase ?? 'Pending'] ?? 0;
  const pb = PHASE_ORDER[b.status?.phase ?? 'Pending'] ?? 0;
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  const ca = deletionCost(a);
  const cb = deletionCost(b);
  if (ca !== cb) return ca - cb;
  if (rankA !== rankB) return rankB - rankA;
  if (ra && rb) {
    const ta = parseTime(getPodCondition(a.status, 'Ready').condition?.lastTransitionTime);
    const tb = parseTime(getPodCondition(b.status, 'Ready').condition?.lastTransitionTime);
    if (!Number.isNaN(ta) && !Number.isNaN(tb)) {
      const d = logBucket(ta, now) - logBucket(tb, now);
      if (d !== 0) return d; // shorter-ready (smaller age bucket) first
    }
  }
  const rsa = maxContainerRestarts(a);
  const rsb = maxContainerRestarts(b);
  if (rsa.regular !== rsb.regular) return rsb.regular - rsa.regular;
  if (rsa.sidecar !== rsb.sidecar) return rsb.sidecar - rsa.sidecar;
  const cta = parseTime(a.metadata.creationTimestamp);
  const ctb = parseTime(b.metadata.creationTimestamp);
  if (Number.isNaN(cta) !== Number.isNaN(ctb)) return Number.isNaN(cta) ? -1 : 1;
  if (!Number.isNaN(cta) && cta !== ctb) {
    const d = logBucket(cta, now) - logBucket(ctb, now);
    if (d !== 0) return d;
    return ctb - cta;
  }
  return 0;
}

/**
 * getPodsToDelete: the n least useful of pods, ranked by how many related
 * pods (the owner family, e.g. all of a Deployment's ReplicaSets) share each
 * pod's node.
 */
export function podsToDelete(pods: readonly Pod[], related: readonly Pod[], n: number, now: number): Pod[] {
  if (n >= pods.length) return [...pods];
  const onNode = new Map<string, number>();
  for (const p of related) {
    const node = p.spec?.nodeName;
    if (node) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const rank = (p: Pod) => (p.spec?.nodeName ? (onNode.get(p.spec.nodeName) ?? 0) : 0);
  const ranked = pods.map((p) => ({ p, r: rank(p) }));
  ranked.sort((x, y) => compareForDeletion(x.p, y.p, x.r, y.r, now));
  return ranked.slice(0, n).map((x) => x.p);
}
