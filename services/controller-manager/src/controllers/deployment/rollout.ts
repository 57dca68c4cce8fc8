// The Deployment's rollout decisions as pure functions over ReplicaSet
// sizes (deployment/rolling.go, recreate.go, sync.go scale): each returns
// the scale actions to apply; the controller applies them and records events.

import { parseTime, type Deployment, type ReplicaSet } from '@kubelab/api';
import { byCreation, filterActive, isSaturated, maxSurge, maxUnavailable, newRSNewReplicas, replicasOf, rsReplicas } from './util.js';

export interface ScaleAction {
  rs: ReplicaSet;
  to: number;
}

const available = (rs: ReplicaSet | undefined) => rs?.status?.availableReplicas ?? 0;

/** reconcileNewReplicaSet: the new ReplicaSet's next size, or undefined if it stays. */
export function reconcileNewReplicaSet(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet): number | undefined {
  const want = replicasOf(d);
  if (rsReplicas(newRS) === want) return undefined;
  if (rsReplicas(newRS) > want) return want;
  const next = newRSNewReplicas(d, all, newRS);
  return next === rsReplicas(newRS) ? undefined : next;
}

/**
 * reconcileOldReplicaSets: scale old ReplicaSets down without dropping
 * below spec.replicas - maxUnavailable available pods. First unhealthy
 * replicas (cleanupUnhealthyReplicas), then available ones.
 */
export function reconcileOldReplicaSets(d: Deployment, all: readonly ReplicaSet[], oldActive: readonly ReplicaSet[], newRS: ReplicaSet | undefined): ScaleAction[] {
  const oldPods = oldActive.reduce((n, rs) => n + rsReplicas(rs), 0);
  if (oldPods === 0) return [];
  const allPods = all.reduce((n, rs) => n + rsReplicas(rs), 0);
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newUnavailable = newRS ? rsReplicas(newRS) - available(newRS) : 0;
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];

  const sizes = new Map<string, number>(oldActive.map((rs) => [rs.metadata.uid ?? '', rsReplicas(rs)]));
  const sorted = [...oldActive].sort(byCreation);
  // cleanupUnhealthyReplicas: replicas that are not available can go at no cost.
  let cleaned = 0;
  for (const rs of sorted) {
    if (cleaned >= maxScaledDown) break;
    const size = sizes.get(rs.metadata.uid ?? '') ?? 0;
    if (size === 0 || size === available(rs)) continue;
    const down = Math.min(maxScaledDown - cleaned, size - available(rs));
    sizes.set(rs.metadata.uid ?? '', size - down);
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: available replicas above the minimum.
  const availableAll = all.reduce((n, rs) => n + available(rs), 0);
  if (availableAll > minAvailable) {
    const total = availableAll - minAvailable;
    let done = 0;
    for (const rs of sorted) {
      if (done >= total) break;
      const size = sizes.get(rs.metadata.uid ?? '') ?? 0;
      if (size === 0) continue;
      const down = Math.min(size, total - done);
      sizes.set(rs.metadata.uid ?? '', size - down);
      done += down;
    }
  }
  return sorted.filter((rs) => sizes.get(rs.metadata.uid ?? '') !== rsReplicas(rs)).map((rs) => ({ rs, to: sizes.get(rs.metadata.uid ?? '') ?? 0 }));
}

/** FindActiveOrLatest: the single active ReplicaSet, else the newest; undefined with several active. */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  const olds = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = filterActive(newRS ? [newRS, ...olds] : olds);
  if (active.length === 0) return newRS ?? olds[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** getReplicaSetFraction: this ReplicaSet's share of a resize, from its max-replicas annotation. */
function fraction(rs: ReplicaSet, d: Deployment): number {
  if (replicasOf(d) === 0) return -rsReplicas(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  const ann = rs.metadata.annotations?.['deployment.kubernetes.io/max-replicas'];
  const annotated = ann && /^\d+$/.test(ann) ? Number(ann) : (d.status?.replicas ?? 0);
  if (annotated === 0) return 0;
  return Math.round((rsReplicas(rs) * deploymentReplicas) / annotated) - rsReplicas(rs);
}

/**
 * scale(): a spec.replicas change while a rollout is in progress resizes
 * the ReplicaSets proportionally; with one active ReplicaSet, only it.
 */
export function planScale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ScaleAction[] {
  const target = findActiveOrLatest(newRS, oldRSs);
  if (target) return rsReplicas(target) === replicasOf(d) ? [] : [{ rs: target, to: replicasOf(d) }];
  if (isSaturated(d, newRS)) return filterActive(oldRSs).map((rs) => ({ rs, to: 0 }));
  if (d.spec?.strategy?.type === 'Recreate') return [];

  const all = filterActive(newRS ? [newRS, ...oldRSs] : [...oldRSs]);
  const current = all.reduce((n, rs) => n + rsReplicas(rs), 0);
  const allowed = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
  const toAdd = allowed - current;
  if (toAdd === 0) return [];
  const newer = (a: ReplicaSet, b: ReplicaSet) => parseTime(b.metadata.creationTimestamp) - parseTime(a.metadata.creationTimestamp);
  all.sort((a, b) => rsReplicas(b) - rsReplicas(a) || (toAdd > 0 ? newer(a, b) : -newer(a, b)));
  const sizes = new Map<ReplicaSet, number>();
  let added = 0;
  for (const rs of all) {
    let share = 0;
    if (rsReplicas(rs) > 0 && added !== toAdd) {
      const f = fraction(rs, d);
      const left = toAdd - added;
      share = toAdd > 0 ? Math.min(f, left) : Math.max(f, left);
    }
    sizes.set(rs, rsReplicas(rs) + share);
    added += share;
  }
  const first = all[0];
  if (first && added !== toAdd) sizes.set(first, Math.max(0, (sizes.get(first) ?? 0) + toAdd - added));
  return all.filter((rs) => sizes.get(rs) !== rsReplicas(rs)).map((rs) => ({ rs, to: sizes.get(rs) ?? 0 }));
}
