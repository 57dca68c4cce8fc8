// The status manager (upstream pkg/kubelet/status): caches the latest status
// the kubelet computed per pod and writes it through the pods/status
// subresource only when it differs from what was last written. Static pods
// report through their mirror pod. Once a deleted pod has fully stopped, it
// confirms the deletion with gracePeriodSeconds 0 (upstream canBeDeleted).
// syncBatch (every 10 s upstream) reconciles: when the API object's status
// no longer shows what the kubelet reported — someone else wrote it, e.g. the
// node-lifecycle controller's MarkPodsNotReady — the cached status is posted
// again (upstream needsReconcile).

import { canonicalJson, createTwoWayMergePatch, isConflict, isNotFound, type Pod, type PodCondition, type PodStatus } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import { contextFromObject } from '@kubelab/tracing';
import { untraced } from '../untraced.js';

/** The API calls the status manager makes. */
export interface PodStatusAPI {
  get(namespace: string, name: string): Promise<Pod>;
  /** Writes `status` to the pods/status of `pod` (the copy it is computed from). */
  patchStatus(pod: Pod, status: PodStatus): Promise<Pod>;
  /** Final delete: gracePeriodSeconds 0 with a UID precondition. */
  deleteNow(namespace: string, name: string, uid: string): Promise<void>;
}

/**
 * The status manager's calls through the clientset. Writes are never part of
 * whichever sync queued them; with `traced` each joins its pod's own trace
 * (the kubelab.io/traceparent the apiserver recorded on it).
 */
export function podStatusAPI(cs: Clientset, traced: boolean): PodStatusAPI {
  return {
    get: (ns, name) => untraced(() => cs.core.pods(ns).get(name)),
    patchStatus: (pod, status) =>
      untraced(() =>
        cs.core
          .pods(pod.metadata.namespace)
          .patch(pod.metadata.name!, 'strategic', podStatusPatch(pod.metadata.uid ?? '', pod.status, status), { subresource: 'status', ...(traced ? { traceContext: contextFromObject(pod) } : {}) }),
      ),
    deleteNow: async (ns, name, uid) => {
      await cs.core.pods(ns).delete(name, { gracePeriodSeconds: 0, preconditions: { uid } });
    },
  };
}

/**
 * The strategic merge patch from the pod's status to `next` (upstream statusutil.PatchPodStatus): only what
 * changed, and the pod's UID as a precondition (a pod recreated under the name is not written). A patch of
 * the UID alone is still sent, where upstream sends nothing: the diff starts from the informer's copy, not
 * a GET, and the answer is what shows a server that moved on (the reconcile in sync()).
 */
export function podStatusPatch(uid: string, old: PodStatus | undefined, next: PodStatus): Record<string, unknown> {
  const conditions = mergePodConditions(old?.conditions, next.conditions);
  const merged: PodStatus = { ...next, ...(conditions.length > 0 || next.conditions ? { conditions } : {}) };
  return createTwoWayMergePatch({ status: old ?? {} }, { metadata: { uid }, status: merged }, 'Pod');
}

/**
 * Upstream mergePodStatus: conditions other writers own stay as the server has them (first), the kubelet's
 * own come from its status, and one it shares (DisruptionTarget) replaces or joins theirs.
 */
export function mergePodConditions(old: PodCondition[] = [], next: PodCondition[] = []): PodCondition[] {
  const out = old.filter((c) => !KUBELET_POD_CONDITIONS.has(c.type));
  for (const c of next) {
    const i = KUBELET_POD_CONDITIONS.has(c.type) ? -1 : out.findIndex((o) => o.type === c.type);
    if (i >= 0) out[i] = c;
    else out.push(c);
  }
  return out;
}

interface Entry {
  status: PodStatus;
  /** statusKey(status), computed once. */
  key: string;
  namespace: string;
  name: string;
  /** The API object's UID (the mirror pod's for a static pod). */
  apiUid?: string;
  /** Set once every container stopped after deletion was requested. */
  canBeDeleted: boolean;
}

/** Conditions the kubelet owns (upstream kubetypes.PodConditionsByKubelet); others belong to other writers. */
export const KUBELET_POD_CONDITIONS: ReadonlySet<string> = new Set(['PodScheduled', 'PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready']);

/** Keys sorted, null/undefined fields left out: equal content compares equal whatever the wire did. */
const canonical = (v: unknown): string => canonicalJson(v, { omitNull: true });

/**
 * Whether the API's status differs from what the kubelet reported, in the
 * fields the kubelet writes (upstream needsReconcile / isPodStatusByKubeletEqual):
 * every top-level field of the kubelet's status, and the kubelet-owned
 * conditions by type. Fields and conditions only others write are ignored.
 */
export function needsReconcile(apiStatus: PodStatus | undefined, kubelet: PodStatus): boolean {
  const api = (apiStatus ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(kubelet)) {
    if (k === 'conditions') continue;
    if (canonical(api[k]) !== canonical(v)) return true;
  }
  const owned = (list: PodStatus['conditions']) => canonical((list ?? []).filter((c) => KUBELET_POD_CONDITIONS.has(c.type)).sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0)));
  return owned(apiStatus?.conditions) !== owned(kubelet.conditions);
}

/** a < b for resourceVersions (numeric in kubelab's store; unknown shapes compare as not older). */
function olderThan(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) < BigInt(b);
}

/** JSON of a status with volatile fields left out, for change detection. */
export function statusKey(s: PodStatus | undefined): string {
  return JSON.stringify(s ?? {});
}

export class StatusManager {
  private readonly entries = new Map<string, Entry>();
  private readonly posted = new Map<string, string>();
  /** resourceVersion our last write produced: an older cached object is just a lagging informer. */
  private readonly postedRV = new Map<string, string>();
  private readonly queue = new Set<string>();
  /**
   * Per pod, the cached status last found in the API and where: the informer's object syncBatch
   * compared, or the resourceVersion the kubelet's own write of it produced. While the informer
   * still holds that object (or that version) and the kubelet that status, there is nothing to compare.
   */
  private readonly reconciled = new Map<string, { status: PodStatus; pod?: Pod; rv?: string }>();
  /** Pods whose write is in flight (one at a time per pod). */
  private readonly inflight = new Set<string>();
  private running = false;
  private stopped = false;
  private idle: (() => void)[] = [];
  posts = 0;

  constructor(
    private readonly api: PodStatusAPI,
    private readonly log: Logger,
    /** Current API object of a pod by its kubelet UID (informer cache), if known. */
    private readonly lookup: (uid: string) => Pod | undefined,
    private readonly parallelism = 8,
  ) {}

  getPodStatus(uid: string): PodStatus | undefined {
    return this.entries.get(uid)?.status;
  }

  /**
   * Records the status computed for a pod; queues a write when it changed.
   * `target` names the API object to write (the mirror pod for a static pod).
   */
  setPodStatus(uid: string, target: { namespace: string; name: string; uid?: string }, status: PodStatus): void {
    const prev = this.entries.get(uid);
    const key = statusKey(status);
    if (prev && prev.key === key && prev.apiUid === target.uid) return;
    this.entries.set(uid, { status, key, namespace: target.namespace, name: target.name, apiUid: target.uid, canBeDeleted: prev?.canBeDeleted ?? false });
    this.enqueue(uid);
  }

  /** The pod was deleted and has fully stopped: write the last status, then remove it. */
  markTerminated(uid: string): void {
    const e = this.entries.get(uid);
    if (!e || e.canBeDeleted) return;
    e.canBeDeleted = true;
    this.enqueue(uid);
  }

  /** Forget a pod (it is gone from the API). */
  removePod(uid: string): void {
    this.entries.delete(uid);
    this.posted.delete(uid);
    this.postedRV.delete(uid);
    this.reconciled.delete(uid);
    this.queue.delete(uid);
  }

  /**
   * Forgets the statuses of pods the kubelet no longer knows (upstream
   * RemoveOrphanedStatuses, from housekeeping): a pod gone from the API has
   * nothing left to write, and a write queued for it would be retried forever
   * (the Node authorizer refuses a pod that is no longer bound here).
   */
  removeOrphanedStatuses(known: ReadonlySet<string>): void {
    for (const uid of this.entries.keys()) if (!known.has(uid)) this.removePod(uid);
  }

  /**
   * Upstream syncBatch's reconcile: queue a re-post for every pod whose API
   * status (the informer's copy) lost what the kubelet last reported.
   * Returns the pods queued.
   */
  syncBatch(): string[] {
    const queued: string[] = [];
    for (const [uid, e] of this.entries) {
      if (this.queue.has(uid) || this.inflight.has(uid) || !this.posted.has(uid)) continue;
      const pod = this.lookup(uid);
      if (!pod || (e.apiUid && pod.metadata.uid !== e.apiUid)) continue;
      if (olderThan(pod.metadata.resourceVersion, this.postedRV.get(uid))) continue;
      const seen = this.reconciled.get(uid);
      if (seen?.status === e.status && (seen.pod === pod || (seen.rv !== undefined && seen.rv === pod.metadata.resourceVersion))) continue;
      if (!needsReconcile(pod.status, e.status)) {
        this.reconciled.set(uid, { pod, status: e.status });
        continue;
      }
      this.log.info('Pod status is inconsistent with cached status for pod, a reconciliation should be triggered', { pod: `${e.namespace}/${e.name}` });
      this.posted.delete(uid);
      queued.push(uid);
      this.enqueue(uid);
    }
    return queued;
  }

  private enqueue(uid: string): void {
    this.queue.add(uid);
    if (!this.running && !this.stopped) void this.drain();
  }

  /** Resolves once nothing is queued (for tests and shutdown). */
  whenIdle(): Promise<void> {
    if (!this.running && this.queue.size === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  /** Writes queued statuses, up to `parallelism` pods at once, each pod's writes in order. */
  private async drain(): Promise<void> {
    this.running = true;
    const lane = async () => {
      while (!this.stopped) {
        const uid = [...this.queue].find((u) => !this.inflight.has(u));
        if (uid === undefined) return;
        this.queue.delete(uid);
        this.inflight.add(uid);
        try {
          await this.sync(uid);
        } catch (err) {
          this.log.warn('failed to update pod status', { pod: uid, err });
          // Retry later: a transient apiserver failure must not lose the update.
          setTimeout(() => this.enqueue(uid), 1000).unref();
        } finally {
          this.inflight.delete(uid);
        }
      }
    };
    try {
      while (this.queue.size && !this.stopped) await Promise.all(Array.from({ length: this.parallelism }, lane));
    } finally {
      this.running = false;
      const waiters = this.idle;
      this.idle = [];
      for (const w of waiters) w();
    }
  }

  private async sync(uid: string): Promise<void> {
    const e = this.entries.get(uid);
    if (!e) return;
    const status = e.status;
    const key = e.key;
    if (this.posted.get(uid) !== key) {
      let pod = this.lookup(uid);
      if (!pod) {
        try {
          pod = await this.api.get(e.namespace, e.name);
        } catch (err) {
          // Upstream syncPod: a pod that does not exist on the server is not written; RemoveOrphanedStatuses forgets it.
          if (isNotFound(err)) return;
          throw err;
        }
      }
      for (let attempt = 0; ; attempt++) {
        if (e.apiUid && pod.metadata.uid !== e.apiUid) return; // a different object now holds the name
        try {
          const written = await this.api.patchStatus(pod, status);
          // A copy older than the server's leaves what someone else wrote meanwhile: read afresh and patch again (upstream diffs against a GET each time).
          if (written?.status && needsReconcile(written.status, status) && attempt < 4) {
            pod = await this.api.get(e.namespace, e.name);
            continue;
          }
          if (written?.metadata?.resourceVersion) {
            this.postedRV.set(uid, written.metadata.resourceVersion);
            this.reconciled.set(uid, { status, rv: written.metadata.resourceVersion });
          }
          this.posts++;
          break;
        } catch (err) {
          if (isNotFound(err)) {
            this.posted.delete(uid);
            return;
          }
          if (!isConflict(err) || attempt >= 4) throw err;
          pod = await this.api.get(e.namespace, e.name);
        }
      }
      this.posted.set(uid, key);
    }
    if (e.canBeDeleted) {
      try {
        await this.api.deleteNow(e.namespace, e.name, e.apiUid ?? uid);
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
      this.removePod(uid);
    }
  }

  stop(): void {
    this.stopped = true;
  }
}
