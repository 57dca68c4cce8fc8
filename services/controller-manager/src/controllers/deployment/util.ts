// Deployment helpers (pkg/controller/deployment/util): revisions and the
// replica annotations, maxSurge/maxUnavailable, which ReplicaSet is "new",
// and how many replicas each step of a rollout may have. Pure functions.

import { TRACEPARENT_ANNOTATION } from '@kubelab/tracing';
import { getScaledValueFromIntOrPercent, semanticJson, parseTime, type Deployment, type PodTemplateSpec, type ReplicaSet } from '@kubelab/api';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** Annotations a Deployment does not copy onto its ReplicaSets (annotationsToSkip). */
const SKIP_ANNOTATIONS = new Set([
  // Each object carries its own step of the trace (the apiserver sets it on create).
  TRACEPARENT_ANNOTATION,
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

export const replicasOf = (d: Deployment): number => d.spec?.replicas ?? 1;
export const rsReplicas = (rs: ReplicaSet): number => rs.spec?.replicas ?? 0;

/** Revision of a ReplicaSet (0 when absent or malformed). */
export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  const v = obj.metadata.annotations?.[REVISION_ANNOTATION];
  return v && /^\d+$/.test(v) ? Number(v) : 0;
}

export function maxRevision(rss: readonly ReplicaSet[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/** MaxSurge: rounded up, 0 for Recreate. */
export function maxSurge(d: Deployment): number {
  if (d.spec?.strategy?.type === 'Recreate') return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  const surge = getScaledValueFromIntOrPercent(ru?.maxSurge ?? '25%', replicasOf(d), true);
  const unavailable = getScaledValueFromIntOrPercent(ru?.maxUnavailable ?? '25%', replicasOf(d), false);
  return surge === 0 && unavailable === 0 ? 0 : surge;
}

/** MaxUnavailable: rounded down; 1 when both are 0; never above replicas. */
export function maxUnavailable(d: Deployment): number {
  if (d.spec?.strategy?.type === 'Recreate') return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  const surge = getScaledValueFromIntOrPercent(ru?.maxSurge ?? '25%', replicasOf(d), true);
  let unavailable = getScaledValueFromIntOrPercent(ru?.maxUnavailable ?? '25%', replicasOf(d), false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return Math.min(unavailable, replicasOf(d));
}

/** The template without the pod-template-hash label, compared as Go's Semantic.DeepEqual would (EqualIgnoreHash). */
function templateIgnoringHash(t: PodTemplateSpec | undefined): string {
  const c = structuredClone(t ?? {});
  if (c.metadata?.labels) {
    delete c.metadata.labels[POD_TEMPLATE_HASH_LABEL];
    if (Object.keys(c.metadata.labels).length === 0) delete c.metadata.labels;
  }
  // ObjectMeta is a value in Go: one holding only nulls equals none at all.
  if (c.metadata && Object.values(c.metadata).every((v) => v === null || v === undefined)) delete c.metadata;
  return semanticJson(c);
}

export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return templateIgnoringHash(a) === templateIgnoringHash(b);
}

/** Oldest first; ties by name (controller.ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = parseTime(a.metadata.creationTimestamp) - parseTime(b.metadata.creationTimestamp);
  if (d !== 0 && !Number.isNaN(d)) return d;
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** The ReplicaSets that are not the new one. */
export function findOldReplicaSets(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet[] {
  const n = findNewReplicaSet(d, rss);
  return rss.filter((rs) => rs.metadata.uid !== n?.metadata.uid);
}

export const filterActive = (rss: readonly ReplicaSet[]): ReplicaSet[] => rss.filter((rs) => rsReplicas(rs) > 0);

/** NewRSNewReplicas: the new ReplicaSet's size for this step. */
export function newRSNewReplicas(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (d.spec?.strategy?.type === 'Recreate') return replicasOf(d);
  const surge = maxSurge(d);
  const current = all.reduce((n, rs) => n + rsReplicas(rs), 0);
  const maxTotal = replicasOf(d) + surge;
  if (current >= maxTotal) return rsReplicas(newRS);
  const up = Math.min(maxTotal - current, Math.max(0, replicasOf(d) - rsReplicas(newRS)));
  return rsReplicas(newRS) + up;
}

/** Whether desired/max-replicas annotations differ from the given values. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): void {
  rs.metadata.annotations = { ...(rs.metadata.annotations ?? {}), [DESIRED_REPLICAS_ANNOTATION]: String(desired), [MAX_REPLICAS_ANNOTATION]: String(max) };
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations and moves
 * the revision forward. Returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: number, exists: boolean): boolean {
  const before = JSON.stringify(rs.metadata.annotations ?? {});
  const ann = { ...(rs.metadata.annotations ?? {}) };
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (!SKIP_ANNOTATIONS.has(k)) ann[k] = v;
  const old = revisionOf(rs);
  if (old < newRevision) {
    ann[REVISION_ANNOTATION] = String(newRevision);
    // An old ReplicaSet becoming new again (rollout undo) keeps the revisions it had.
    if (old > 0 && exists) {
      const hist = ann[REVISION_HISTORY_ANNOTATION];
      ann[REVISION_HISTORY_ANNOTATION] = hist ? `${hist},${old}` : String(old);
    }
  }
  if (!exists) {
    ann[DESIRED_REPLICAS_ANNOTATION] = String(replicasOf(d));
    ann[MAX_REPLICAS_ANNOTATION] = String(replicasOf(d) + maxSurge(d));
  }
  rs.metadata.annotations = ann;
  return JSON.stringify(ann) !== before;
}

/** Desired-replicas annotation, or undefined. */
export function desiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  const v = rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION];
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** IsSaturated: the new ReplicaSet runs every desired replica, all available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  return desiredReplicasAnnotation(rs) === replicasOf(d) && rsReplicas(rs) === replicasOf(d) && (rs.status?.availableReplicas ?? 0) === replicasOf(d);
}

/** isScalingEvent: some active ReplicaSet was sized for a different spec.replicas. */
export function isScalingEvent(d: Deployment, rss: readonly ReplicaSet[]): boolean {
  for (const rs of filterActive(rss)) {
    const desired = desiredReplicasAnnotation(rs);
    if (desired !== undefined && desired !== replicasOf(d)) return true;
  }
  return false;
}

/** DeploymentComplete: every replica updated and available, and the newest spec observed. */
export function deploymentComplete(d: Deployment, s: Deployment['status']): boolean {
  const r = replicasOf(d);
  return (s?.updatedReplicas ?? 0) === r && (s?.replicas ?? 0) === r && (s?.availableReplicas ?? 0) === r && (s?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}
