// ReplicaSet status (replica_set_utils.go calculateStatus) and the
// ReplicaFailure condition, as pure functions.

import { nonZero } from '../../util/omitempty.js';
import { formatTime, isPodAvailable, isPodReady, matchesSet, type Pod, type ReplicaSet, type ReplicaSetCondition, type ReplicaSetStatus } from '@kubelab/api';

export interface ManageError {
  /** FailedCreate or FailedDelete */
  reason: 'FailedCreate' | 'FailedDelete';
  message: string;
}

export function calculateReplicaSetStatus(rs: ReplicaSet, activePods: readonly Pod[], now: number, manageErr?: ManageError): ReplicaSetStatus {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const minReady = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const p of activePods) {
    if (matchesSet(templateLabels, p.metadata.labels)) fullyLabeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
  }
  const conditions = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
  const existing = rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
  if (manageErr) {
    const c: ReplicaSetCondition = existing ?? {
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: formatTime(now),
      reason: manageErr.reason,
      message: manageErr.message,
    };
    conditions.push(c);
  }
  // replicas is always written; the other counts are omitempty upstream.
  const status: ReplicaSetStatus = {
    replicas: activePods.length,
    ...nonZero({ fullyLabeledReplicas: fullyLabeled, readyReplicas: ready, availableReplicas: available, observedGeneration: rs.metadata.generation ?? 0 }),
  };
  if (conditions.length) status.conditions = conditions;
  return status;
}

/** Whether the stored status differs from the computed one (only then is it written). */
export function statusChanged(a: ReplicaSetStatus | undefined, b: ReplicaSetStatus): boolean {
  const norm = (s: ReplicaSetStatus | undefined) =>
    JSON.stringify({
      replicas: s?.replicas ?? 0,
      fullyLabeledReplicas: s?.fullyLabeledReplicas ?? 0,
      readyReplicas: s?.readyReplicas ?? 0,
      availableReplicas: s?.availableReplicas ?? 0,
      observedGeneration: s?.observedGeneration ?? 0,
      conditions: s?.conditions ?? [],
    });
  return norm(a) !== norm(b);
}

/** How many pods to create (positive) or delete (negative), capped at burstReplicas per sync. */
export function replicasDiff(active: number, desired: number, burstReplicas: number): number {
  const diff = desired - active;
  if (diff > 0) return Math.min(diff, burstReplicas);
  if (diff < 0) return -Math.min(-diff, burstReplicas);
  return 0;
}
