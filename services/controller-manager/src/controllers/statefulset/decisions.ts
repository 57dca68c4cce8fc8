// StatefulSet decisions (pkg/controller/statefulset stateful_set_utils.go and
// stateful_set_control.go) as pure functions: pod identity (name, ordinal,
// hostname, labels), claims from volumeClaimTemplates, which revision a new
// pod gets, and one sync's plan (create, delete, wait) with the status.

import { isPodAvailable, isPodReady, type OwnerReference, type Pod, type PodTemplateSpec, type StatefulSet, type StatefulSetStatus, type Volume } from '@kubelab/api';
import { nonZero } from '../../util/omitempty.js';
import { CONTROLLER_REVISION_HASH_LABEL } from '../../util/history.js';

export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

/** getPodName: `<set>-<ordinal>`. */
export const podName = (set: StatefulSet, ordinal: number): string => `${set.metadata.name}-${ordinal}`;

/** getParentNameAndOrdinal: the ordinal of a pod named `<set>-<n>` of this set, else -1. */
export function ordinalOf(set: StatefulSet, pod: Pod): number {
  const m = /^(.*)-([0-9]+)$/.exec(pod.metadata.name ?? '');
  if (!m || m[1] !== set.metadata.name) return -1;
  const n = Number(m[2]);
  return Number.isSafeInteger(n) ? n : -1;
}

export const startOrdinal = (set: StatefulSet): number => set.spec?.ordinals?.start ?? 0;
export const replicaCount = (set: StatefulSet): number => set.spec?.replicas ?? 1;
const isMonotonic = (set: StatefulSet): boolean => set.spec?.podManagementPolicy !== 'Parallel';

/** A pod whose ordinal lies beyond the set's range (scaled away). */
export function isCondemned(set: StatefulSet, pod: Pod): boolean {
  const ord = ordinalOf(set, pod);
  return ord >= 0 && (ord < startOrdinal(set) || ord >= startOrdinal(set) + replicaCount(set));
}

/** getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`. */
export const claimName = (set: StatefulSet, template: string, ordinal: number): string => `${template}-${set.metadata.name}-${ordinal}`;

export const podRevision = (pod: Pod): string | undefined => pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
const isTerminating = (pod: Pod): boolean => !!pod.metadata.deletionTimestamp;
const isCreated = (pod: Pod): boolean => !!pod.status?.phase;
const isFailed = (pod: Pod): boolean => pod.status?.phase === 'Failed';
const isSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Succeeded';
/** isRunningAndReady. */
export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);
/** isHealthy: running, ready and not terminating. */
const isHealthy = (pod: Pod): boolean => isRunningAndReady(pod) && !isTerminating(pod);

/** A PersistentVolumeClaim as the statefulset controller creates it (the kind is served by the core group). */
export interface Claim {
  apiVersion: 'v1';
  kind: 'PersistentVolumeClaim';
  metadata: { name: string; namespace: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: OwnerReference[] };
  spec: Record<string, unknown>;
}

/**
 * getPersistentVolumeClaims: one claim per template for this ordinal, its
 * labels the template's with the set's matchLabels over them;
 * whenDeleted=Delete makes the set an owner (upstream's retention policy).
 */
export function claimsFor(set: StatefulSet, ordinal: number, setRef: OwnerReference): Claim[] {
  const deleteWithSet = set.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete';
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => {
    const tm = t.metadata ?? {};
    const labels = { ...(tm.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: claimName(set, tm.name ?? '', ordinal),
        namespace: set.metadata.namespace ?? 'default',
        ...(Object.keys(labels).length ? { labels } : {}),
        ...(tm.annotations ? { annotations: { ...tm.annotations } } : {}),
        ...(deleteWithSet ? { ownerReferences: [{ apiVersion: setRef.apiVersion, kind: setRef.kind, name: setRef.name, uid: setRef.uid }] } : {}),
      },
      spec: structuredClone((t.spec ?? {}) as Record<string, unknown>),
    };
  });
}

/**
 * newStatefulSetPod + initIdentity + updateStorage: the template named
 * `<set>-<ordinal>`, hostname and subdomain set, the identity labels and
 * the revision's hash label, a volume per claim template.
 */
export function newStatefulSetPod(set: StatefulSet, template: PodTemplateSpec, revisionName: string, ordinal: number, ref: OwnerReference): Pod {
  const t = structuredClone(template);
  const name = podName(set, ordinal);
  const spec = t.spec ?? { containers: [] };
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  const claims = (set.spec?.volumeClaimTemplates ?? []).map((c) => c.metadata?.name ?? '');
  if (claims.length) {
    const volumes: Volume[] = (spec.volumes ?? []).filter((v) => !claims.includes(v.name));
    for (const c of claims) volumes.push({ name: c, persistentVolumeClaim: { claimName: claimName(set, c, ordinal) } });
    spec.volumes = volumes;
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace ?? 'default',
      labels: { ...(t.metadata?.labels ?? {}), [STATEFULSET_POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [CONTROLLER_REVISION_HASH_LABEL]: revisionName },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ownerReferences: [ref],
    },
    spec,
  };
}

/**
 * newVersionedStatefulSetPod's choice: below the partition (RollingUpdate)
 * or below the current replicas (OnDelete) a new pod keeps the current
 * revision; the rest get the update revision.
 */
export function usesCurrentRevision(set: StatefulSet, ordinal: number): boolean {
  const us = set.spec?.updateStrategy;
  if (us?.type === 'OnDelete') return ordinal < startOrdinal(set) + (set.status?.currentReplicas ?? 0);
  return ordinal < startOrdinal(set) + (us?.rollingUpdate?.partition ?? 0);
}

export interface StatefulSetPlan {
  /** Ordinals whose pod is missing, to create in this order. */
  create: number[];
  /** Pods to delete: failed or succeeded ones (recreated next sync), condemned ones, or the next to roll. */
  delete: Pod[];
}

/**
 * One pass of updateStatefulSet: missing and failed replicas first (in
 * ordinal order; OrderedReady stops at the first pod that is created, or not
 * yet Running and Ready), then condemned pods from the highest ordinal, then
 * RollingUpdate from the highest ordinal down to the partition, one pod at a
 * time, waiting for each to be healthy.
 */
export function planStatefulSet(set: StatefulSet, pods: readonly Pod[], updateRevision: string, now: number): StatefulSetPlan {
  const plan: StatefulSetPlan = { create: [], delete: [] };
  const monotonic = isMonotonic(set);
  const start = startOrdinal(set);
  const end = start + replicaCount(set);
  const minReady = set.spec?.minReadySeconds ?? 0;
  const replicas = new Map<number, Pod>();
  const condemned: Pod[] = [];
  for (const p of pods) {
    const ord = ordinalOf(set, p);
    if (ord < 0) continue;
    if (ord >= start && ord < end) replicas.set(ord, p);
    else condemned.push(p);
  }
  condemned.sort((a, b) => ordinalOf(set, b) - ordinalOf(set, a));

  for (let ord = start; ord < end; ord++) {
    const p = replicas.get(ord);
    if (!p) {
      plan.create.push(ord);
      if (monotonic) return plan;
      continue;
    }
    if ((isFailed(p) || isSucceeded(p)) && !isTerminating(p)) {
      plan.delete.push(p);
      if (monotonic) return plan;
      continue;
    }
    if (!monotonic) continue;
    // OrderedReady: the next ordinal waits for this one.
    if (isTerminating(p) || !isRunningAndReady(p) || !isPodAvailable(p, minReady, now)) return plan;
  }
  if (plan.create.length || plan.delete.length) return plan;

  for (const p of condemned) {
    if (isTerminating(p)) {
      if (monotonic) return plan;
      continue;
    }
    plan.delete.push(p);
    if (monotonic) return plan;
  }
  if (plan.delete.length) return plan;

  if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return plan;
  const partition = start + (set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0);
  for (let ord = end - 1; ord >= partition; ord--) {
    const p = replicas.get(ord);
    if (!p) return plan;
    if (podRevision(p) !== updateRevision && !isTerminating(p)) {
      plan.delete.push(p);
      return plan;
    }
    if (!isHealthy(p)) return plan;
  }
  return plan;
}

/**
 * The status after a sync's plan: counts over the set's pods (created ones
 * counted as the pods they will be), revisions, and completeRollingUpdate
 * (once every pod is updated and ready, the update revision is current).
 */
export function statefulSetStatus(
  set: StatefulSet,
  pods: readonly Pod[],
  created: readonly Pod[],
  deleted: readonly Pod[],
  revisions: { current: string; update: string; collisionCount?: number },
  now: number,
): StatefulSetStatus {
  const minReady = set.spec?.minReadySeconds ?? 0;
  const gone = new Set(deleted.map((p) => p.metadata.name));
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let current = 0;
  let updated = 0;
  for (const p of [...pods.filter((p) => ordinalOf(set, p) >= 0), ...created]) {
    const live = !gone.has(p.metadata.name);
    if (isCreated(p) || created.includes(p)) replicas++;
    if (isRunningAndReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
    if ((isCreated(p) || created.includes(p)) && !isTerminating(p) && live) {
      if (podRevision(p) === revisions.current) current++;
      if (podRevision(p) === revisions.update) updated++;
    }
  }
  let currentRevision = revisions.current;
  if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && updated === replicas && ready === replicas) {
    current = updated;
    currentRevision = revisions.update;
  }
  return {
    observedGeneration: set.metadata.generation ?? 0,
    replicas,
    ...nonZero({ readyReplicas: ready, currentReplicas: current, updatedReplicas: updated }),
    currentRevision,
    updateRevision: revisions.update,
    collisionCount: revisions.collisionCount ?? 0,
    // Not omitempty upstream, unlike the three counts above.
    availableReplicas: available,
  };
}
