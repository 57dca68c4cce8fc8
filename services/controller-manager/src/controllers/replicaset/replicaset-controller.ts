// The ReplicaSet controller (pkg/controller/replicaset): keeps
// spec.replicas active pods that match the selector, owning them through a
// controllerRef; creations and deletions wait for the informer to confirm
// them (expectations) before the next decision.

import { controllerRef, isPodActive, isPodReady, labelSelectorAsSelector, newControllerRef, type KubeObject, type Pod, type ReplicaSet } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type EventRecorder, type Lister, type SharedIndexInformer } from '@kubelab/client';
import { podsToDelete } from '../../util/active-pods.js';
import { errText, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { ControllerExpectations } from '../../util/expectations.js';
import { CONTROLLER_UID_INDEX, controllerIndexers } from '../../util/indexers.js';
import { PodControl, podFromTemplate, slowStartBatch } from '../../util/pod-control.js';
import { claimObjects } from '../../util/ref-manager.js';
import { calculateReplicaSetStatus, replicasDiff, statusChanged, type ManageError } from './status.js';

/** upstream BurstReplicas: at most this many creations or deletions per sync. */
export const BURST_REPLICAS = 500;
const RS_GVK = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };

export class ReplicaSetController extends QueueController {
  readonly expectations: ControllerExpectations;
  private readonly rsLister: Lister<ReplicaSet>;
  private readonly podLister: Lister<Pod>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControl;

  constructor(private readonly ctx: ControllerContext) {
    super('replicaset', ctx.logger, queueOptions(ctx));
    this.expectations = new ControllerExpectations(ctx.clock);
    this.recorder = ctx.recorder('replicaset-controller');
    this.podControl = new PodControl(ctx.clientset, this.recorder);
    const rsInf = ctx.informers.apps.replicaSets();
    this.pods = ctx.informers.core.pods({ indexers: controllerIndexers });
    this.rsLister = rsInf.lister();
    this.podLister = this.pods.lister();

    rsInf.addEventHandler({
      onAdd: (rs) => this.enqueueRs(rs),
      onUpdate: (old, cur) => {
        if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
        this.enqueueRs(cur);
      },
      onDelete: (obj) => {
        const rs = isTombstone(obj) ? obj.obj : obj;
        const key = metaNamespaceKey(rs);
        this.expectations.delete(key);
        this.enqueue(key);
      },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, cur) => this.updatePod(old, cur),
      onDelete: (obj) => this.deletePod(isTombstone(obj) ? obj.obj : obj),
    });
  }

  private enqueueRs(rs: ReplicaSet): void {
    this.enqueue(metaNamespaceKey(rs));
  }

  /** The ReplicaSet a controllerRef names, if it is one we know with that UID. */
  private resolveRef(ns: string, ref: { kind: string; name: string; uid: string } | undefined): ReplicaSet | undefined {
    if (!ref || ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsLister.namespace(ns).get(ref.name);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** ReplicaSets whose selector matches an orphan pod (getPodReplicaSets). */
  private matchingReplicaSets(pod: Pod): ReplicaSet[] {
    return this.rsLister
      .namespace(pod.metadata.namespace ?? '')
      .list()
      .filter((rs) => {
        try {
          const sel = labelSelectorAsSelector(rs.spec?.selector);
          return !sel.empty() && sel.matches(pod.metadata.labels ?? {});
        } catch {
          return false;
        }
      });
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      this.deletePod(pod);
      return;
    }
    const ref = controllerRef(pod);
    if (ref) {
      const rs = this.resolveRef(pod.metadata.namespace ?? '', ref);
      if (!rs) return;
      const key = metaNamespaceKey(rs);
      this.expectations.creationObserved(key);
      this.enqueue(key);
      return;
    }
    for (const rs of this.matchingReplicaSets(pod)) this.enqueueRs(rs);
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {});
    if (cur.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) {
      // A graceful delete: count it as seen now so a replacement starts at once.
      this.deletePod(cur);
      if (labelsChanged) this.deletePod(old);
      return;
    }
    const curRef = controllerRef(cur);
    const oldRef = controllerRef(old);
    if (oldRef && oldRef.uid !== curRef?.uid) {
      const rs = this.resolveRef(old.metadata.namespace ?? '', oldRef);
      if (rs) this.enqueueRs(rs);
    }
    if (curRef) {
      const rs = this.resolveRef(cur.metadata.namespace ?? '', curRef);
      if (!rs) return;
      this.enqueueRs(rs);
      // A pod that just became ready becomes available minReadySeconds later: look again then.
      const minReady = rs.spec?.minReadySeconds ?? 0;
      const wasReady = isPodReady(old);
      const isReady = isPodReady(cur);
      if (minReady > 0 && !wasReady && isReady) this.queue.addAfter(metaNamespaceKey(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelsChanged || oldRef) for (const rs of this.matchingReplicaSets(cur)) this.enqueueRs(rs);
  }

  private deletePod(pod: Pod): void {
    const ref = controllerRef(pod);
    if (!ref) return;
    const rs = this.resolveRef(pod.metadata.namespace ?? '', ref);
    if (!rs) return;
    const key = metaNamespaceKey(rs);
    this.expectations.deletionObserved(key, metaNamespaceKey(pod));
    this.enqueue(key);
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const rs = this.rsLister.namespace(namespace).get(name);
    if (!rs) {
      this.expectations.delete(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    let selector;
    try {
      selector = labelSelectorAsSelector(rs.spec?.selector);
    } catch (err) {
      this.recorder.eventf(rs, 'Warning', 'InvalidSelector', 'invalid selector: %v', errText(err));
      return; // a spec error: wait for the user to edit
    }
    const all = this.podLister.namespace(namespace).list().filter(isPodActive);
    const pods = await claimObjects<Pod>(all, {
      owner: rs,
      ownerRef: newControllerRef(rs, RS_GVK.apiVersion, RS_GVK.kind),
      matches: (p) => !selector.empty() && selector.matches(p.metadata.labels ?? {}),
      client: (ns) => this.ctx.clientset.core.pods(ns),
      canAdopt: async () => {
        const fresh = await this.ctx.clientset.apps.replicaSets(namespace).get(name);
        return fresh.metadata.uid === rs.metadata.uid && !fresh.metadata.deletionTimestamp;
      },
    });

    let manageErr: ManageError | undefined;
    if (needsSync && !rs.metadata.deletionTimestamp) manageErr = await this.manageReplicas(key, pods, rs);

    const status = calculateReplicaSetStatus(rs, pods, this.clock.now(), manageErr);
    let latest = rs;
    if (statusChanged(rs.status, status)) {
      const copy = structuredClone(rs) as ReplicaSet;
      copy.status = status;
      latest = await this.ctx.clientset.apps.replicaSets(namespace).updateStatus(copy);
    }
    const minReady = latest.spec?.minReadySeconds ?? 0;
    const desired = latest.spec?.replicas ?? 1;
    if (!manageErr && minReady > 0 && (status.readyReplicas ?? 0) === desired && (status.availableReplicas ?? 0) !== desired) {
      this.queue.addAfter(key, minReady * 1000);
    }
    if (manageErr) throw new Error(manageErr.message);
  }

  /** Creates or deletes pods to reach spec.replicas (manageReplicas). */
  private async manageReplicas(key: string, pods: Pod[], rs: ReplicaSet): Promise<ManageError | undefined> {
    const ns = rs.metadata.namespace ?? 'default';
    const diff = replicasDiff(pods.length, rs.spec?.replicas ?? 1, BURST_REPLICAS);
    if (diff > 0) {
      this.expectations.expectCreations(key, diff);
      const ref = newControllerRef(rs, RS_GVK.apiVersion, RS_GVK.kind);
      const res = await slowStartBatch(diff, 1, async () => {
        await this.podControl.createPod(podFromTemplate(rs.spec?.template, ns, `${rs.metadata.name}-`, ref), rs);
      });
      const skipped = diff - res.successes;
      if (res.error !== undefined) {
        // Creations never attempted (or failed) will not be observed.
        this.expectations.lowerCreations(key, skipped);
        return { reason: 'FailedCreate', message: errText(res.error) };
      }
      return undefined;
    }
    if (diff < 0) {
      const related = this.relatedPods(rs);
      const victims = podsToDelete(pods, related, -diff, this.clock.now());
      const keys = victims.map((p) => metaNamespaceKey(p));
      this.expectations.expectDeletions(key, keys);
      const results = await Promise.allSettled(
        victims.map(async (p) => {
          try {
            await this.podControl.deletePod(ns, p.metadata.name ?? '', rs);
          } catch (err) {
            this.expectations.deletionObserved(key, metaNamespaceKey(p));
            if (!(err as { reason?: string }).reason || (err as { reason?: string }).reason !== 'NotFound') throw err;
          }
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) return { reason: 'FailedDelete', message: errText(failed.reason) };
    }
    return undefined;
  }

  /** Pods of every ReplicaSet with the same controller as rs (getIndirectlyRelatedPods). */
  private relatedPods(rs: ReplicaSet): Pod[] {
    const owner = controllerRef(rs);
    const siblings: KubeObject[] = owner
      ? this.rsLister
          .namespace(rs.metadata.namespace ?? '')
          .list()
          .filter((r) => controllerRef(r)?.uid === owner.uid)
      : [rs];
    const out: Pod[] = [];
    for (const s of siblings)
      out.push(
        ...this.pods
          .getIndexer()
          .byIndex(CONTROLLER_UID_INDEX, s.metadata.uid ?? '')
          .filter(isPodActive),
      );
    return out;
  }
}
