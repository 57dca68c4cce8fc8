// The disruption controller's arithmetic (upstream pkg/controller/disruption
// disruption.go), as pure functions: how many pods a budget expects and needs
// healthy, which evictions it still waits on, and the status that follows.

import {
  controllerRef,
  formatTime,
  getScaledValueFromIntOrPercent,
  isPodReady,
  parseTime,
  PDB_DISRUPTION_ALLOWED,
  PDB_INSUFFICIENT_PODS,
  PDB_SUFFICIENT_PODS,
  PDB_SYNC_FAILED,
  setStatusCondition,
  updateDisruptionAllowedCondition,
  type Condition,
  type Pod,
  type PodDisruptionBudget,
  type PodDisruptionBudgetStatus,
} from '@kubelab/api';

/** upstream DeletionTimeout: an eviction the API admitted is expected to delete the pod within this. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

/** A pod's controller and its desired scale (upstream controllerAndScale). */
export interface ControllerScale {
  uid: string;
  scale: number;
}

/** Finds the scale of a pod's controller (the finders: ReplicaSet, Deployment through its ReplicaSet); undefined when none applies. */
export type ScaleFinder = (ref: { kind: string; name: string; uid: string; apiVersion: string }, namespace: string) => ControllerScale | undefined;

/** A failure the controller reports as an event on the budget, then fails safe. */
export class SyncError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ExpectedPods {
  expectedCount: number;
  desiredHealthy: number;
  /** Selected pods without a controller: their scale is unknown (event UnmanagedPods). */
  unmanagedPods: string[];
}

/** getExpectedScale: the sum of the scales of the selected pods' distinct controllers. */
function expectedScale(pods: readonly Pod[], find: ScaleFinder): { count: number; unmanaged: string[] } {
  const scales = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerRef(pod);
    if (!ref) {
      unmanaged.push(pod.metadata.name!);
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = find(ref, pod.metadata.namespace ?? '');
    if (!found) throw new SyncError('NoControllers', `found no controllers for pod "${pod.metadata.name}"`);
    scales.set(found.uid, found.scale);
  }
  let count = 0;
  for (const n of scales.values()) count += n;
  return { count, unmanaged };
}

/** getExpectedPodCount: a whole-number minAvailable counts the pods; a percentage or maxUnavailable the controllers' scale. */
export function expectedPodCount(pdb: PodDisruptionBudget, pods: readonly Pod[], find: ScaleFinder): ExpectedPods {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const { count, unmanaged } = expectedScale(pods, find);
    const maxUnavailable = getScaledValueFromIntOrPercent(spec.maxUnavailable, count, true);
    return { expectedCount: count, desiredHealthy: Math.max(0, count - maxUnavailable), unmanagedPods: unmanaged };
  }
  if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
  if (typeof spec.minAvailable === 'string') {
    const { count, unmanaged } = expectedScale(pods, find);
    return { expectedCount: count, desiredHealthy: getScaledValueFromIntOrPercent(spec.minAvailable, count, true), unmanagedPods: unmanaged };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

export interface DisruptedPodMap {
  /** The evictions still awaited: pods alive and not deleting, evicted less than DELETION_TIMEOUT ago. */
  disruptedPods: Record<string, string>;
  /** When the earliest of them times out (ms), for a recheck then. */
  recheckAt?: number;
  /** Pods evicted longer ago than the timeout and still not deleting (event NotDeleted). */
  notDeleted: Pod[];
}

/** buildDisruptedPodMap. */
export function buildDisruptedPodMap(pods: readonly Pod[], pdb: PodDisruptionBudget, now: number): DisruptedPodMap {
  const recorded = pdb.status?.disruptedPods ?? {};
  const out: DisruptedPodMap = { disruptedPods: {}, notDeleted: [] };
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = recorded[pod.metadata.name!];
    if (at === undefined) continue;
    const expectedDeletion = parseTime(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < now) out.notDeleted.push(pod);
    else {
      out.disruptedPods[pod.metadata.name!] = at;
      if (out.recheckAt === undefined || expectedDeletion < out.recheckAt) out.recheckAt = expectedDeletion;
    }
  }
  return out;
}

/** countHealthyPods: ready, not deleting, not awaiting an admitted eviction. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Record<string, string>, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata.name!];
    if (at !== undefined && parseTime(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** pdbhelper.ConditionsAreUpToDate. */
function conditionsUpToDate(pdb: PodDisruptionBudget): boolean {
  const s = pdb.status;
  const c = s?.conditions?.find((x) => x.type === PDB_DISRUPTION_ALLOWED);
  if (!s || !c || (s.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  return s.disruptionsAllowed > 0 ? c.status === 'True' && c.reason === PDB_SUFFICIENT_PODS : c.status === 'False' && c.reason === PDB_INSUFFICIENT_PODS;
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string>): boolean => {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b).length && ka.every((k) => a![k] === b[k]);
};

/**
 * updatePdbStatus: the status to write, or undefined when the stored one
 * already says it. No expected pods means no disruption: a budget whose
 * pods appear before its next sync must not let them all go.
 */
export function nextStatus(
  pdb: PodDisruptionBudget,
  currentHealthy: number,
  desiredHealthy: number,
  expectedCount: number,
  disruptedPods: Record<string, string>,
  now: number,
): PodDisruptionBudgetStatus | undefined {
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const s = pdb.status;
  const generation = pdb.metadata.generation ?? 0;
  if (
    s &&
    s.currentHealthy === currentHealthy &&
    s.desiredHealthy === desiredHealthy &&
    s.expectedPods === expectedCount &&
    s.disruptionsAllowed === disruptionsAllowed &&
    sameMap(s.disruptedPods, disruptedPods) &&
    (s.observedGeneration ?? 0) === generation &&
    conditionsUpToDate(pdb)
  ) {
    return undefined;
  }
  const status: PodDisruptionBudgetStatus = { observedGeneration: generation, disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods: expectedCount };
  if (Object.keys(disruptedPods).length > 0) status.disruptedPods = disruptedPods;
  if (s?.conditions) status.conditions = s.conditions;
  updateDisruptionAllowedCondition(status, formatTime(now), generation);
  return status;
}

/** failSafe: no disruptions, and DisruptionAllowed False with SyncFailed and the error. */
export function failSafeStatus(pdb: PodDisruptionBudget, err: string, now: number): PodDisruptionBudgetStatus {
  const s: PodDisruptionBudgetStatus = { ...(pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 }), disruptionsAllowed: 0 };
  const cond: Condition = { type: PDB_DISRUPTION_ALLOWED, status: 'False', reason: PDB_SYNC_FAILED, message: err, lastTransitionTime: formatTime(now) };
  if (s.observedGeneration !== undefined) cond.observedGeneration = s.observedGeneration;
  setStatusCondition(s, cond);
  return s;
}
