// The pods/eviction subresource (upstream pkg/registry/core/pod/storage
// eviction.go): a graceful delete that first asks the pod's
// PodDisruptionBudget. The budget's status is the lock: the eviction takes
// one of status.disruptionsAllowed and records the pod in
// status.disruptedPods, so the disruption controller does not count it as
// healthy until it has seen it go.

import {
  internalError,
  isConflict,
  isPodReady,
  labelSelectorAsSelector,
  StatusError,
  tooManyRequests,
  updateDisruptionAllowedCondition,
  forbidden,
  type DeleteOptions,
  type KubeObject,
  type Pod,
  type PodDisruptionBudget,
} from '@kubelab/api';

type Time = string;
import type { RequestContext, ResourceStore } from './interface.js';
import { nowTime } from './meta.js';

export const EVICTION_VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";
/** Upstream MaxDisruptedPodSize: evictions the controller has not confirmed yet, per budget. */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** Upstream EvictionsRetry: conflicting budget updates retried this many times. */
const EVICTION_RETRIES = 20;

const PDB_RESOURCE = { group: 'policy', resource: 'poddisruptionbudget' };

function budgetError(cause: string): StatusError {
  const e = tooManyRequests(EVICTION_VIOLATES_BUDGET, 0);
  // NewTooManyRequests with 0 seconds: retryAfterSeconds is omitted, the budget's reason is a cause.
  e.status.details = { causes: [{ reason: 'DisruptionBudget', message: cause }] };
  return e;
}

/** The budgets whose selector matches the pod (policy/v1: an empty selector matches every pod, a missing one none). */
export function budgetsFor(pod: Pod, pdbs: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  return pdbs.filter((b) => {
    try {
      return labelSelectorAsSelector(b.spec?.selector).matches(pod.metadata.labels ?? {});
    } catch {
      return false;
    }
  });
}

/** canIgnorePDB: nothing left to protect (finished, never started, or already going). */
export function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/**
 * An unready pod of a budget that is already met may go without using the
 * budget (IfHealthyBudget, the default), or whenever (AlwaysAllow).
 */
export function unreadyPodMayGo(pod: Pod, pdb: PodDisruptionBudget): boolean {
  if (isPodReady(pod)) return false;
  if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const s = pdb.status;
  return !!s && s.desiredHealthy > 0 && s.currentHealthy >= s.desiredHealthy;
}

/**
 * checkAndDecrement: the budget's next status once it allows evicting
 * `podName`, or the error that refuses it (pure; `now` for disruptedPods).
 */
export function checkAndDecrement(podName: string, pdb: PodDisruptionBudget, now: Time): PodDisruptionBudget {
  const s = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  const name = pdb.metadata.name!;
  if ((s.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw budgetError(`The disruption budget ${name} is still being processed by the server.`);
  if (s.disruptionsAllowed < 0) throw forbidden(PDB_RESOURCE, name, 'pdb disruptions allowed is negative');
  if (Object.keys(s.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw forbidden(PDB_RESOURCE, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (s.disruptionsAllowed === 0) throw budgetError(`The disruption budget ${name} needs ${s.desiredHealthy} healthy pods and has ${s.currentHealthy} currently`);
  const status = { ...s, disruptionsAllowed: s.disruptionsAllowed - 1, disruptedPods: { ...(s.disruptedPods ?? {}), [podName]: now } };
  if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, now, status.observedGeneration);
  return { ...pdb, status };
}

export interface EvictionStores {
  pods: ResourceStore;
  pdbs: ResourceStore;
}

/** Evicts a pod: the budget consulted (and charged), the DisruptionTarget condition added, then the graceful delete. */
export async function evictPod(stores: EvictionStores, namespace: string, name: string, opts: DeleteOptions, ctx: RequestContext): Promise<void> {
  const pod = (await stores.pods.get(namespace, name)) as Pod;
  if (!canIgnoreBudget(pod)) {
    const list = await stores.pdbs.list({ namespace });
    const pdbs = budgetsFor(pod, list.items as PodDisruptionBudget[]);
    if (pdbs.length > 1) throw internalError(new Error('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'));
    if (pdbs.length === 1 && !unreadyPodMayGo(pod, pdbs[0]!)) await chargeBudget(stores.pdbs, pdbs[0]!, name, ctx);
  }
  if (!ctx.dryRun) await addDisruptionTarget(stores.pods, namespace, name, opts, ctx);
  await stores.pods.delete(namespace, name, opts, ctx);
}

async function chargeBudget(store: ResourceStore, first: PodDisruptionBudget, podName: string, ctx: RequestContext): Promise<void> {
  let pdb = first;
  for (let attempt = 0; ; attempt++) {
    const next = checkAndDecrement(podName, pdb, nowTime());
    if (ctx.dryRun) return;
    try {
      await store.update(pdb.metadata.namespace, pdb.metadata.name!, structuredClone(next) as KubeObject, ctx, 'status');
      return;
    } catch (e) {
      if (!isConflict(e) || attempt >= EVICTION_RETRIES) throw e;
      pdb = (await store.get(pdb.metadata.namespace, pdb.metadata.name!)) as PodDisruptionBudget;
    }
  }
}

/** The DisruptionTarget condition (EvictionByEvictionAPI) on the latest pod, honouring the delete's preconditions. */
async function addDisruptionTarget(store: ResourceStore, namespace: string, name: string, opts: DeleteOptions, ctx: RequestContext): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const pod = (await store.get(namespace, name)) as Pod;
    const pre = opts.preconditions;
    // A precondition that fails is left to the delete, which answers it with upstream's conflict.
    if ((pre?.uid && pre.uid !== pod.metadata.uid) || (pre?.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion)) return;
    const conds = pod.status?.conditions ?? [];
    const old = conds.find((c) => c.type === 'DisruptionTarget');
    if (old?.status === 'True' && old.reason === 'EvictionByEvictionAPI') return;
    const cond = {
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : nowTime(),
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    };
    const next = { ...pod, status: { ...(pod.status ?? {}), conditions: [...conds.filter((c) => c.type !== 'DisruptionTarget'), cond] } };
    try {
      await store.update(namespace, name, structuredClone(next) as unknown as KubeObject, ctx, 'status');
      return;
    } catch (e) {
      if (!isConflict(e) || attempt >= EVICTION_RETRIES) throw e;
    }
  }
}
