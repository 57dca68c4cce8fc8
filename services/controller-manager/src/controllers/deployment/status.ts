// Deployment status and conditions (deployment/sync.go calculateStatus,
// progress.go syncRolloutStatus) as pure functions: what `kubectl rollout
// status` and `kubectl describe deployment` read.

import { formatTime, parseTime, type Deployment, type DeploymentCondition, type DeploymentConditionType, type DeploymentStatus, type ReplicaSet } from '@kubelab/api';
import { nonZero } from '../../util/omitempty.js';
import { deploymentComplete, maxUnavailable, replicasOf } from './util.js';

export const Reasons = {
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewReplicaSet: 'FoundNewReplicaSet',
  NewReplicaSetAvailable: 'NewReplicaSetAvailable',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  DeploymentPaused: 'DeploymentPaused',
  DeploymentResumed: 'DeploymentResumed',
  FailedRSCreate: 'ReplicaSetCreateError',
} as const;

export function getCondition(s: DeploymentStatus | undefined, type: DeploymentConditionType): DeploymentCondition | undefined {
  return s?.conditions?.find((c) => c.type === type);
}

export function newCondition(type: DeploymentConditionType, status: DeploymentCondition['status'], reason: string, message: string, now: number): DeploymentCondition {
  const t = formatTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** SetDeploymentCondition: same status and reason = no change; same status keeps lastTransitionTime. */
export function setCondition(s: DeploymentStatus, c: DeploymentCondition): void {
  const cur = getCondition(s, c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  const next = { ...c };
  if (cur && cur.status === c.status && cur.lastTransitionTime) next.lastTransitionTime = cur.lastTransitionTime;
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(s: DeploymentStatus, type: DeploymentConditionType): void {
  if (!s.conditions) return;
  s.conditions = s.conditions.filter((c) => c.type !== type);
  if (s.conditions.length === 0) delete s.conditions;
}

const sum = (rss: readonly ReplicaSet[], f: (rs: ReplicaSet) => number | undefined) => rss.reduce((n, rs) => n + (f(rs) ?? 0), 0);

/** calculateStatus: counts from the ReplicaSets plus the Available condition. */
export function calculateStatus(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet | undefined, now: number): DeploymentStatus {
  const availableReplicas = sum(all, (rs) => rs.status?.availableReplicas);
  const total = sum(all, (rs) => rs.spec?.replicas);
  // Every count is omitempty upstream: a deployment scaled to 0 shows none.
  const status: DeploymentStatus = nonZero({
    observedGeneration: d.metadata.generation ?? 0,
    replicas: sum(all, (rs) => rs.status?.replicas),
    updatedReplicas: newRS ? (newRS.status?.replicas ?? 0) : 0,
    readyReplicas: sum(all, (rs) => rs.status?.readyReplicas),
    availableReplicas,
    unavailableReplicas: Math.max(0, total - availableReplicas),
  });
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions?.length) status.conditions = structuredClone(d.status.conditions);
  if (availableReplicas >= replicasOf(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', Reasons.MinimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition('Available', 'False', Reasons.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

/** DeploymentProgressing: more updated/ready/available replicas, or fewer old ones, than last time. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const o = d.status ?? {};
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) || newOld < oldOld || (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0);
}

/** DeploymentTimedOut: no progress for progressDeadlineSeconds since the Progressing condition's last update. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: number): boolean {
  const c = getCondition(s, 'Progressing');
  if (!c || !d.spec?.progressDeadlineSeconds) return false;
  if (c.reason === Reasons.NewReplicaSetAvailable) return false;
  if (c.reason === Reasons.ProgressDeadlineExceeded) return true;
  const from = parseTime(c.lastUpdateTime);
  return !Number.isNaN(from) && from + d.spec.progressDeadlineSeconds * 1000 < now;
}

/** syncRolloutStatus's status: calculateStatus plus the Progressing and ReplicaFailure conditions. */
export function rolloutStatus(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet | undefined, now: number): DeploymentStatus {
  const s = calculateStatus(d, all, newRS, now);
  const hasDeadline = !!d.spec?.progressDeadlineSeconds && d.spec.progressDeadlineSeconds < 2 ** 31 - 1;
  if (!hasDeadline) removeCondition(s, 'Progressing');
  const cur = getCondition(d.status, 'Progressing');
  const complete = (s.replicas ?? 0) === (s.updatedReplicas ?? 0) && cur?.reason === Reasons.NewReplicaSetAvailable;
  const what = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
  if (hasDeadline && !complete) {
    if (deploymentComplete(d, s)) {
      setCondition(s, newCondition('Progressing', 'True', Reasons.NewReplicaSetAvailable, `${what} has successfully progressed.`, now));
    } else if (deploymentProgressing(d, s)) {
      const c = newCondition('Progressing', 'True', Reasons.ReplicaSetUpdated, `${what} is progressing.`, now);
      const prev = getCondition(s, 'Progressing');
      if (prev?.status === 'True' && prev.lastTransitionTime) c.lastTransitionTime = prev.lastTransitionTime;
      removeCondition(s, 'Progressing');
      setCondition(s, c);
    } else if (deploymentTimedOut(d, s, now)) {
      setCondition(s, newCondition('Progressing', 'False', Reasons.ProgressDeadlineExceeded, `${what} has timed out progressing.`, now));
    }
  }
  const failure = [...all].map((rs) => rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure' && c.status === 'True')).find(Boolean);
  if (failure) {
    setCondition(s, {
      type: 'ReplicaFailure',
      status: 'True',
      ...(failure.lastTransitionTime ? { lastUpdateTime: failure.lastTransitionTime, lastTransitionTime: failure.lastTransitionTime } : {}),
      reason: failure.reason ?? '',
      message: failure.message ?? '',
    });
  } else removeCondition(s, 'ReplicaFailure');
  return s;
}

/** How long until the deadline would pass (requeueStuckDeployment), or undefined. */
export function msUntilDeadline(d: Deployment, s: DeploymentStatus, now: number): number | undefined {
  const c = getCondition(s, 'Progressing');
  if (!c || !d.spec?.progressDeadlineSeconds || c.reason === Reasons.NewReplicaSetAvailable || c.reason === Reasons.ProgressDeadlineExceeded) return undefined;
  if (deploymentComplete(d, s)) return undefined;
  const from = parseTime(c.lastUpdateTime);
  if (Number.isNaN(from)) return undefined;
  return Math.max(0, from + d.spec.progressDeadlineSeconds * 1000 - now) + 1000;
}

export const statusEqual = (a: DeploymentStatus | undefined, b: DeploymentStatus): boolean => JSON.stringify(norm(a)) === JSON.stringify(norm(b));

function norm(s: DeploymentStatus | undefined) {
  return {
    observedGeneration: s?.observedGeneration ?? 0,
    replicas: s?.replicas ?? 0,
    updatedReplicas: s?.updatedReplicas ?? 0,
    readyReplicas: s?.readyReplicas ?? 0,
    availableReplicas: s?.availableReplicas ?? 0,
    unavailableReplicas: s?.unavailableReplicas ?? 0,
    collisionCount: s?.collisionCount,
    conditions: [...(s?.conditions ?? [])].sort((x, y) => x.type.localeCompare(y.type)),
  };
}
