// DaemonSet decisions (pkg/controller/daemon) as pure functions: the
// tolerations every daemon pod gets, whether a node should run (or keep)
// the daemon pod, the pod pinned to its node, and the status counts.

import {
  ANNOTATION_DAEMONSET_TEMPLATE_GENERATION,
  getScaledValueFromIntOrPercent,
  isPodAvailable,
  isPodReady,
  matchToleration,
  podMatchesNodeSelectorAndAffinityTerms,
  tolerationsTolerateTaint,
  type DaemonSet,
  type DaemonSetStatus,
  type Node,
  type Pod,
  type Toleration,
} from '@kubelab/api';
import { computeHash } from '../../util/hash.js';
import { nonZero } from '../../util/omitempty.js';

export const CONTROLLER_REVISION_HASH = 'controller-revision-hash';
export const POD_TEMPLATE_GENERATION = 'pod-template-generation';

/** AddOrUpdateDaemonPodTolerations: not-ready/unreachable forever, pressure and unschedulable NoSchedule. */
export function daemonTolerations(existing: readonly Toleration[] | undefined, hostNetwork: boolean): Toleration[] {
  const add: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) add.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  const out = [...(existing ?? [])];
  for (const t of add) {
    const i = out.findIndex((x) => matchToleration(x, t));
    if (i >= 0) out[i] = t;
    else out.push(t);
  }
  return out;
}

/** The template hash that labels this DaemonSet's current pods (stands in for a ControllerRevision name). */
export const templateHash = (ds: DaemonSet): string => computeHash(ds.spec?.template, ds.status?.collisionCount);

/** CreatePodTemplate's pod-template-generation label: the DaemonSet's template generation, when it has one. */
function templateGenerationLabel(ds: DaemonSet): Record<string, string> {
  const g = ds.metadata.annotations?.[ANNOTATION_DAEMONSET_TEMPLATE_GENERATION];
  return g === undefined ? {} : { [POD_TEMPLATE_GENERATION]: g };
}

/** NewPod + ReplaceDaemonSetPodNodeNameNodeAffinity: the template, pinned to one node by required affinity. */
export function newDaemonPod(ds: DaemonSet, nodeName: string): Pod {
  const t = structuredClone(ds.spec?.template ?? {});
  const spec = t.spec ?? { containers: [] };
  spec.tolerations = daemonTolerations(spec.tolerations, spec.hostNetwork === true);
  spec.affinity = {
    ...(spec.affinity ?? {}),
    nodeAffinity: {
      ...(spec.affinity?.nodeAffinity ?? {}),
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] },
    },
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${ds.metadata.name}-`,
      namespace: ds.metadata.namespace ?? 'default',
      labels: {
        ...(t.metadata?.labels ?? {}),
        [CONTROLLER_REVISION_HASH]: templateHash(ds),
        ...templateGenerationLabel(ds),
      },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
    },
    spec,
  };
}

/** The node a daemon pod is for: spec.nodeName, or its matchFields metadata.name affinity (GetTargetNodeName). */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  }
  return undefined;
}

/** Whether a node takes the daemon pod: computed once per node per sync and passed to every step below. */
export interface NodeDecision {
  name: string;
  /** A new pod belongs there (selector, affinity, NoSchedule/NoExecute taints tolerated). */
  shouldRun: boolean;
  /** An existing pod may stay (only untolerated NoExecute taints evict). */
  shouldContinueRunning: boolean;
}

/** The daemon pod as the node checks see it: the template's selector and affinity, the daemon tolerations. */
function podForNodeChecks(ds: DaemonSet): Pod {
  const t = ds.spec?.template?.spec;
  return { metadata: {}, spec: { containers: [], nodeSelector: t?.nodeSelector ?? {}, affinity: t?.affinity ?? {}, tolerations: daemonTolerations(t?.tolerations, t?.hostNetwork === true) } };
}

function decide(node: Node, pod: Pod): NodeDecision {
  const name = node.metadata.name ?? '';
  if (!podMatchesNodeSelectorAndAffinityTerms(pod, node)) return { name, shouldRun: false, shouldContinueRunning: false };
  let shouldRun = true;
  let shouldContinueRunning = true;
  for (const taint of node.spec?.taints ?? []) {
    if (taint.effect === 'PreferNoSchedule' || tolerationsTolerateTaint(pod.spec?.tolerations, taint)) continue;
    shouldRun = false;
    if (taint.effect === 'NoExecute') shouldContinueRunning = false;
  }
  return { name, shouldRun, shouldContinueRunning };
}

/** NodeShouldRunDaemonPod for one node. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const { shouldRun, shouldContinueRunning } = decide(node, podForNodeChecks(ds));
  return { shouldRun, shouldContinueRunning };
}

/** NodeShouldRunDaemonPod for every node, in the nodes' order. */
export function decideNodes(ds: DaemonSet, nodes: readonly Node[]): NodeDecision[] {
  const pod = podForNodeChecks(ds);
  return nodes.map((n) => decide(n, pod));
}

export interface NodePlan {
  create: string[];
  delete: Pod[];
}

const byCreation = (a: Pod, b: Pod): number => Date.parse(a.metadata.creationTimestamp ?? '') - Date.parse(b.metadata.creationTimestamp ?? '');

/**
 * Two pods on a node while surging (podsShouldBeOnNode with AllowsSurge): the
 * oldest new and the oldest old pod stay while the new one is not ready yet
 * and the old one is; every other pod goes.
 */
function surgeExtras(alive: Pod[], hash: string): Pod[] {
  const out: Pod[] = [];
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const p of [...alive].sort(byCreation)) {
    if (p.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash) {
      if (!oldestNew) oldestNew = p;
      else out.push(p);
    } else if (!oldestOld) oldestOld = p;
    else out.push(p);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodReady(oldestNew))) out.push(oldestOld);
  return out;
}

/**
 * podsShouldBeOnNode for every node: create where missing, delete
 * failed/extra/misplaced pods. `surgeHash`: maxSurge is on, so a node may
 * hold an old and a new pod (the new template's hash) during an update.
 */
export function planDaemonPods(nodes: readonly NodeDecision[], podsByNode: Map<string, Pod[]>, surgeHash?: string): NodePlan {
  const plan: NodePlan = { create: [], delete: [] };
  const nodeNames = new Set(nodes.map((n) => n.name));
  for (const { name, shouldRun, shouldContinueRunning } of nodes) {
    const pods = (podsByNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp);
    if (shouldRun && pods.length === 0) {
      plan.create.push(name);
      continue;
    }
    if (shouldContinueRunning) {
      const failed = pods.filter((p) => p.status?.phase === 'Failed');
      plan.delete.push(...failed);
      const alive = pods.filter((p) => p.status?.phase !== 'Failed');
      if (alive.length === 0 && failed.length > 0 && shouldRun) continue; // recreate on the next sync
      if (alive.length > 1 && surgeHash !== undefined) plan.delete.push(...surgeExtras(alive, surgeHash));
      else if (alive.length > 1) plan.delete.push(...alive.sort(byCreation).slice(1));
    } else plan.delete.push(...pods);
  }
  // pods for nodes that no longer exist
  for (const [n, pods] of podsByNode) if (!nodeNames.has(n)) plan.delete.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
  return plan;
}

/**
 * UnavailableCount: maxUnavailable scaled against the nodes that should run
 * the daemon (desiredNumberScheduled), rounded up; 1 when that comes to 0.
 */
export function maxUnavailableCount(ds: DaemonSet, nodes: readonly NodeDecision[]): number {
  const desired = nodes.filter((n) => n.shouldRun).length;
  const n = getScaledValueFromIntOrPercent(ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1, desired, true);
  // Neither surge nor unavailability configured: accept one unavailable node (updatedDesiredNodeCounts).
  return desired > 0 && n === 0 && maxSurgeCount(ds, nodes) === 0 ? 1 : n;
}

/** SurgeCount: maxSurge scaled against the nodes that should run the daemon, rounded up; 0 unless RollingUpdate. */
export function maxSurgeCount(ds: DaemonSet, nodes: readonly NodeDecision[]): number {
  const us = ds.spec?.updateStrategy;
  if ((us?.type ?? 'RollingUpdate') !== 'RollingUpdate' || us?.rollingUpdate?.maxSurge === undefined || us.rollingUpdate.maxSurge === null) return 0;
  return getScaledValueFromIntOrPercent(us.rollingUpdate.maxSurge, nodes.filter((n) => n.shouldRun).length, true);
}

/**
 * rollingUpdate with maxSurge: a node whose old pod is unavailable gets its
 * new pod at once; up to maxSurge nodes with an available old pod get a new
 * pod beside it; an old pod goes once the new pod on its node is available.
 * Nodes already surging (a new pod not yet available) use up the budget.
 */
export function surgingRollingUpdate(ds: DaemonSet, nodes: readonly NodeDecision[], podsByNode: Map<string, Pod[]>, maxSurge: number, now: number): NodePlan {
  const hash = templateHash(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const shouldRun = new Map(nodes.map((n) => [n.name, n.shouldRun]));
  const plan: NodePlan = { create: [], delete: [] };
  const candidates: string[] = [];
  let surging = 0;
  for (const [node, all] of podsByNode) {
    const pods = all.filter((p) => !p.metadata.deletionTimestamp);
    const fresh = pods.filter((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash);
    const old = pods.filter((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH] !== hash);
    // findUpdatedPodsOnNode: more than one of a kind is the manage loop's to clean up; it counts as surging.
    if (fresh.length > 1 || old.length > 1) {
      surging++;
      continue;
    }
    const [newPod] = fresh;
    const [oldPod] = old;
    if (!oldPod) continue;
    if (!newPod) {
      if (isPodAvailable(oldPod, minReady, now)) candidates.push(node);
      else if (shouldRun.get(node)) plan.create.push(node);
      else plan.delete.push(oldPod);
      continue;
    }
    if (!isPodAvailable(newPod, minReady, now)) surging++;
    else plan.delete.push(oldPod);
  }
  const remaining = Math.min(Math.max(0, maxSurge - surging), candidates.length);
  plan.create.push(...candidates.slice(0, remaining));
  return plan;
}

/**
 * rollingUpdate without surge (maxSurge 0): old pods that are not available go at once;
 * available ones only while fewer than maxUnavailable nodes lack an
 * available pod.
 */
export function rollingUpdateDeletes(ds: DaemonSet, nodes: readonly NodeDecision[], podsByNode: Map<string, Pod[]>, maxUnavailable: number, now: number): Pod[] {
  const hash = templateHash(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let unavailable = 0;
  const oldAvailable: Pod[] = [];
  const out: Pod[] = [];
  for (const { name, shouldRun } of nodes) {
    if (!shouldRun) continue;
    const pods = (podsByNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp);
    const avail = pods.filter((p) => isPodAvailable(p, minReady, now));
    if (avail.length === 0) unavailable++;
    for (const p of pods) {
      if (p.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash) continue;
      if (isPodAvailable(p, minReady, now)) oldAvailable.push(p);
      else out.push(p);
    }
  }
  for (const p of oldAvailable) {
    if (unavailable >= maxUnavailable) break;
    out.push(p);
    unavailable++;
  }
  return out;
}

/** updateDaemonSetStatus's counts. */
export function daemonSetStatus(ds: DaemonSet, nodes: readonly NodeDecision[], podsByNode: Map<string, Pod[]>, now: number): DaemonSetStatus {
  const hash = templateHash(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const { name, shouldRun } of nodes) {
    const pods = (podsByNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp);
    if (shouldRun) desired++;
    if (pods.length === 0) continue;
    if (!shouldRun) {
      misscheduled++;
      continue;
    }
    current++;
    const p = pods[0]!;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
    if (p.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash) updated++;
  }
  // The first four are always written; the rest are omitempty upstream.
  return {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    ...nonZero({ observedGeneration: ds.metadata.generation ?? 0, updatedNumberScheduled: updated, numberAvailable: available, numberUnavailable: Math.max(0, desired - available) }),
  };
}
