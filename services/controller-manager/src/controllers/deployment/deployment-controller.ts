// The Deployment controller (pkg/controller/deployment): owns one
// ReplicaSet per pod template (named <deployment>-<pod-template-hash>),
// moves replicas from old to new as RollingUpdate or Recreate allows,
// keeps revisionHistoryLimit old ReplicaSets, and reports progress in status.

import { contextFromObject } from '@kubelab/tracing';
import { controllerRef, isAlreadyExists, isPodTerminal, labelSelectorAsSelector, newControllerRef, type Deployment, type DeploymentStatus, type Pod, type ReplicaSet } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type EventRecorder, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { computeHash } from '../../util/hash.js';
import { CONTROLLER_UID_INDEX, controllerIndexers } from '../../util/indexers.js';
import { claimObjects } from '../../util/ref-manager.js';
import { planScale, reconcileNewReplicaSet, reconcileOldReplicaSets, type ScaleAction } from './rollout.js';
import { getCondition, msUntilDeadline, newCondition, Reasons, rolloutStatus, calculateStatus, setCondition, statusEqual } from './status.js';
import {
  byCreation,
  deploymentComplete,
  equalIgnoreHash,
  filterActive,
  findNewReplicaSet,
  isScalingEvent,
  maxRevision,
  maxSurge,
  newRSNewReplicas,
  POD_TEMPLATE_HASH_LABEL,
  replicasAnnotationsNeedUpdate,
  replicasOf,
  revisionOf,
  REVISION_ANNOTATION,
  rsReplicas,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './util.js';

/** upstream maxRetries: a Deployment failing this often is dropped until its next change. */
const MAX_RETRIES = 15;

export class DeploymentController extends QueueController {
  private readonly dLister: Lister<Deployment>;
  private readonly rsLister: Lister<ReplicaSet>;
  private readonly pods;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    super('deployment', ctx.logger, queueOptions(ctx, { maxRetries: MAX_RETRIES }));
    this.recorder = ctx.recorder('deployment-controller');
    const dInf = ctx.informers.apps.deployments();
    const rsInf = ctx.informers.apps.replicaSets({ indexers: controllerIndexers });
    this.pods = ctx.informers.core.pods({ indexers: controllerIndexers });
    this.dLister = dInf.lister();
    this.rsLister = rsInf.lister();

    dInf.addEventHandler({
      onAdd: (d) => this.enqueue(metaNamespaceKey(d)),
      onUpdate: (_o, d) => this.enqueue(metaNamespaceKey(d)),
      onDelete: (o) => this.enqueue(metaNamespaceKey(isTombstone(o) ? o.obj : o)),
    });
    rsInf.addEventHandler({
      onAdd: (rs) => this.enqueueForReplicaSet(rs),
      onUpdate: (old, cur) => {
        if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
        const oldRef = controllerRef(old);
        if (oldRef && oldRef.uid !== controllerRef(cur)?.uid) this.enqueueOwner(old);
        this.enqueueForReplicaSet(cur);
      },
      onDelete: (o) => this.enqueueOwner(isTombstone(o) ? o.obj : o),
    });
    // Recreate waits for old pods to be gone: their deletion is the signal.
    this.pods.addEventHandler({
      onDelete: (o) => {
        const pod = isTombstone(o) ? o.obj : o;
        const ref = controllerRef(pod);
        if (ref?.kind !== 'ReplicaSet') return;
        const rs = this.rsLister.namespace(pod.metadata.namespace ?? '').get(ref.name);
        if (!rs) return;
        const d = this.ownerOf(rs);
        if (d?.spec?.strategy?.type === 'Recreate') this.enqueue(metaNamespaceKey(d));
      },
    });
  }

  private ownerOf(rs: ReplicaSet): Deployment | undefined {
    const ref = controllerRef(rs);
    if (ref?.kind !== 'Deployment') return undefined;
    const d = this.dLister.namespace(rs.metadata.namespace ?? '').get(ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  private enqueueOwner(rs: ReplicaSet): void {
    const d = this.ownerOf(rs);
    if (d) this.enqueue(metaNamespaceKey(d));
  }

  private enqueueForReplicaSet(rs: ReplicaSet): void {
    if (controllerRef(rs)) return this.enqueueOwner(rs);
    // An orphan: every Deployment that could adopt it.
    for (const d of this.dLister.namespace(rs.metadata.namespace ?? '').list()) {
      try {
        const sel = labelSelectorAsSelector(d.spec?.selector);
        if (!sel.empty() && sel.matches(rs.metadata.labels ?? {})) this.enqueue(metaNamespaceKey(d));
      } catch {
        /* an invalid selector adopts nothing */
      }
    }
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    this.pendingRevision.delete(key);
    const cached = this.dLister.namespace(namespace).get(name);
    if (!cached) return;
    const d = structuredClone(cached) as Deployment;
    let selector;
    try {
      selector = labelSelectorAsSelector(d.spec?.selector);
    } catch {
      return;
    }
    if (selector.empty()) {
      this.recorder.eventf(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        await this.writeStatus(cached, { ...(d.status ?? {}), observedGeneration: d.metadata.generation ?? 0 });
      }
      return;
    }
    const rss = await claimObjects<ReplicaSet>(this.rsLister.namespace(namespace).list(), {
      owner: d,
      ownerRef: newControllerRef(d, 'apps/v1', 'Deployment'),
      matches: (rs) => selector.matches(rs.metadata.labels ?? {}),
      client: (ns) => this.ctx.clientset.apps.replicaSets(ns),
      canAdopt: async () => {
        const fresh = await this.ctx.clientset.apps.deployments(namespace).get(name);
        return fresh.metadata.uid === d.metadata.uid && !fresh.metadata.deletionTimestamp;
      },
    });

    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(cached, d, rss);
    if (await this.checkPausedConditions(cached, d)) return;
    if (d.spec?.paused) return this.syncScale(cached, d, rss);
    if (isScalingEvent(d, rss)) return this.syncScale(cached, d, rss);
    if (d.spec?.strategy?.type === 'Recreate') return this.rolloutRecreate(cached, d, rss);
    return this.rolloutRolling(cached, d, rss);
  }

  // ------------------------------------------------------------ strategies

  private async rolloutRolling(cached: Deployment, d: Deployment, rss: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rss, true);
    const all = newRS ? [...oldRSs, newRS] : oldRSs;
    if (newRS) {
      const to = reconcileNewReplicaSet(d, all, newRS);
      if (to !== undefined) {
        const scaled = await this.scaleReplicaSet(newRS, to, d);
        return this.syncRolloutStatus(
          cached,
          d,
          all.map((rs) => (rs === newRS ? scaled : rs)),
          scaled,
        );
      }
    }
    const actions = reconcileOldReplicaSets(d, all, filterActive(oldRSs), newRS);
    if (actions.length) {
      const updated = await this.applyScale(actions, d);
      return this.syncRolloutStatus(
        cached,
        d,
        all.map((rs) => updated.get(rs) ?? rs),
        newRS,
      );
    }
    if (deploymentComplete(d, d.status)) await this.cleanupDeployment(oldRSs, d);
    return this.syncRolloutStatus(cached, d, all, newRS);
  }

  private async rolloutRecreate(cached: Deployment, d: Deployment, rss: ReplicaSet[]): Promise<void> {
    let { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rss, false);
    const all = () => (newRS ? [...oldRSs, newRS] : oldRSs);
    const activeOld = filterActive(oldRSs);
    if (activeOld.length) {
      const updated = await this.applyScale(
        activeOld.map((rs) => ({ rs, to: 0 })),
        d,
      );
      oldRSs = oldRSs.map((rs) => updated.get(rs) ?? rs);
      return this.syncRolloutStatus(cached, d, all(), newRS);
    }
    // Recreate starts new pods only once every old pod has stopped.
    if (this.oldPodsRunning(newRS, oldRSs)) return this.syncRolloutStatus(cached, d, all(), newRS);
    if (!newRS) ({ newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rss, true));
    if (newRS && rsReplicas(newRS) !== replicasOf(d)) newRS = await this.scaleReplicaSet(newRS, replicasOf(d), d);
    if (deploymentComplete(d, d.status)) await this.cleanupDeployment(oldRSs, d);
    return this.syncRolloutStatus(cached, d, all(), newRS);
  }

  private oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): boolean {
    if (oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
    for (const rs of oldRSs) {
      if (rs.metadata.uid === newRS?.metadata.uid) continue;
      const pods = this.pods.getIndexer().byIndex(CONTROLLER_UID_INDEX, rs.metadata.uid ?? '') as Pod[];
      if (pods.some((p) => !isPodTerminal(p))) return true;
    }
    return false;
  }

  /** sync(): scaling (or paused) without rolling forward. */
  private async syncScale(cached: Deployment, d: Deployment, rss: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rss, false);
    const updated = await this.applyScale(planScale(d, newRS, oldRSs), d);
    const all = [...oldRSs, ...(newRS ? [newRS] : [])].map((rs) => updated.get(rs) ?? rs);
    const nextNew = newRS ? (updated.get(newRS) ?? newRS) : undefined;
    if (d.spec?.paused) await this.cleanupDeployment(oldRSs, d);
    await this.writeStatusIfChanged(cached, calculateStatus(d, all, nextNew, this.clock.now()));
  }

  private async syncStatusOnly(cached: Deployment, d: Deployment, rss: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rss, false);
    await this.writeStatusIfChanged(cached, calculateStatus(d, newRS ? [...oldRSs, newRS] : oldRSs, newRS, this.clock.now()));
  }

  /** Paused and resumed are shown on the Progressing condition. Returns true when it wrote status. */
  private async checkPausedConditions(cached: Deployment, d: Deployment): Promise<boolean> {
    if (!d.spec?.progressDeadlineSeconds) return false;
    const cond = getCondition(d.status, 'Progressing');
    const paused = !!d.spec.paused;
    const pausedCond = cond?.reason === Reasons.DeploymentPaused;
    let c;
    if (paused && !pausedCond) c = newCondition('Progressing', 'Unknown', Reasons.DeploymentPaused, 'Deployment is paused', this.clock.now());
    else if (!paused && pausedCond) c = newCondition('Progressing', 'Unknown', Reasons.DeploymentResumed, 'Deployment is resumed', this.clock.now());
    if (!c) return false;
    const s = structuredClone(d.status ?? {});
    setCondition(s, c);
    await this.writeStatus(cached, s);
    return true;
  }

  // ------------------------------------------------------------ ReplicaSets

  /**
   * getAllReplicaSetsAndSyncRevision: finds (or creates) the new
   * ReplicaSet, moving its revision past every old one.
   */
  private async getAllReplicaSetsAndSyncRevision(d: Deployment, rss: ReplicaSet[], create: boolean): Promise<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
    const existing = findNewReplicaSet(d, rss);
    const oldRSs = rss.filter((rs) => rs.metadata.uid !== existing?.metadata.uid);
    const newRevision = maxRevision(oldRSs) + 1;
    const ns = d.metadata.namespace ?? 'default';
    if (existing) {
      const copy = structuredClone(existing) as ReplicaSet;
      const annChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true);
      const minReadyChanged = (copy.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
      let rs = existing;
      if (annChanged || minReadyChanged) {
        if (copy.spec) {
          // minReadySeconds is omitempty: 0 leaves the field out, as upstream stores it.
          if (d.spec?.minReadySeconds) copy.spec.minReadySeconds = d.spec.minReadySeconds;
          else delete copy.spec.minReadySeconds;
        }
        rs = await this.ctx.clientset.apps.replicaSets(ns).update(copy);
      }
      this.setDeploymentRevision(d, revisionOf(rs));
      if (!getCondition(d.status, 'Progressing') && d.spec?.progressDeadlineSeconds) {
        const s = (d.status ??= {});
        setCondition(s, newCondition('Progressing', 'True', Reasons.FoundNewReplicaSet, `Found new replica set "${rs.metadata.name}"`, this.clock.now()));
      }
      return { newRS: rs, oldRSs };
    }
    if (!create) return { newRS: undefined, oldRSs };

    const template = structuredClone(d.spec?.template ?? {});
    const hash = computeHash(template, d.status?.collisionCount);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
    const selector = structuredClone(d.spec?.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    const rsName = `${d.metadata.name}-${hash}`;
    const draft: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: rsName,
        namespace: ns,
        labels: { ...(template.metadata.labels ?? {}) },
        ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
      },
      spec: { replicas: 0, ...(d.spec?.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}), selector, template },
    };
    const replicas = newRSNewReplicas(d, oldRSs, draft);
    draft.spec!.replicas = replicas;
    setNewReplicaSetAnnotations(d, draft, newRevision, false);
    let created: ReplicaSet;
    try {
      created = await this.ctx.clientset.apps.replicaSets(ns).create(draft, { traceContext: contextFromObject(d) });
    } catch (err) {
      if (!isAlreadyExists(err)) {
        const msg = `Failed to create new replica set "${rsName}": ${(err as Error).message}`;
        this.recorder.eventf(d, 'Warning', Reasons.FailedRSCreate, msg);
        throw err;
      }
      // Ours already (the cache was behind), or a hash collision: bump collisionCount and retry.
      const other = await this.ctx.clientset.apps.replicaSets(ns).get(rsName);
      if (controllerRef(other)?.uid === d.metadata.uid && equalIgnoreHash(other.spec?.template, d.spec?.template)) {
        return { newRS: other, oldRSs };
      }
      const s = structuredClone(d.status ?? {});
      s.collisionCount = (s.collisionCount ?? 0) + 1;
      await this.writeStatus(this.dLister.namespace(ns).get(d.metadata.name ?? '') ?? d, s);
      throw new Error(`hash collision for ReplicaSet "${rsName}": collisionCount is now ${s.collisionCount}`, { cause: err });
    }
    if (replicas > 0) this.recorder.eventf(d, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set %s to %d', created.metadata.name, replicas);
    this.setDeploymentRevision(d, newRevision);
    if (d.spec?.progressDeadlineSeconds) {
      const s = (d.status ??= {});
      setCondition(s, newCondition('Progressing', 'True', Reasons.NewReplicaSetCreated, `Created new replica set "${created.metadata.name}"`, this.clock.now()));
    }
    return { newRS: created, oldRSs };
  }

  /** The Deployment carries its current revision as an annotation too (kubectl rollout history reads it). */
  private setDeploymentRevision(d: Deployment, revision: number): void {
    if (revisionOf(d) !== revision) {
      d.metadata.annotations = { ...(d.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(revision) };
      this.pendingRevision.set(metaNamespaceKey(d), String(revision));
    }
  }
  private readonly pendingRevision = new Map<string, string>();

  /** scaleReplicaSetAndRecordEvent */
  private async scaleReplicaSet(rs: ReplicaSet, to: number, d: Deployment): Promise<ReplicaSet> {
    const sizeChanged = rsReplicas(rs) !== to;
    const max = replicasOf(d) + maxSurge(d);
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), max)) return rs;
    const copy = structuredClone(rs) as ReplicaSet;
    copy.spec = { ...(copy.spec ?? { selector: {} }), replicas: to };
    setReplicasAnnotations(copy, replicasOf(d), max);
    const updated = await this.ctx.clientset.apps.replicaSets(rs.metadata.namespace ?? 'default').update(copy);
    if (sizeChanged) {
      const op = rsReplicas(rs) < to ? 'up' : 'down';
      this.recorder.eventf(d, 'Normal', 'ScalingReplicaSet', 'Scaled %s replica set %s to %d from %d', op, rs.metadata.name, to, rsReplicas(rs));
    }
    return updated;
  }

  private async applyScale(actions: ScaleAction[], d: Deployment): Promise<Map<ReplicaSet, ReplicaSet>> {
    const out = new Map<ReplicaSet, ReplicaSet>();
    for (const a of actions) out.set(a.rs, await this.scaleReplicaSet(a.rs, a.to, d));
    return out;
  }

  /** cleanupDeployment: delete old, empty ReplicaSets beyond revisionHistoryLimit, oldest revision first. */
  private async cleanupDeployment(oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit;
    if (limit === undefined || limit === null) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = cleanable.length - limit;
    if (diff <= 0) return;
    cleanable.sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    let removed = 0;
    for (const rs of cleanable) {
      if (removed >= diff) break;
      if ((rs.status?.replicas ?? 0) !== 0 || rsReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      await ignoreNotFound(this.ctx.clientset.apps.replicaSets(rs.metadata.namespace ?? 'default').delete(rs.metadata.name ?? ''));
      removed++;
    }
  }

  // ------------------------------------------------------------ status

  private async syncRolloutStatus(cached: Deployment, d: Deployment, all: ReplicaSet[], newRS: ReplicaSet | undefined): Promise<void> {
    const s = rolloutStatus(d, all, newRS, this.clock.now());
    await this.writeStatusIfChanged(cached, s);
    const wait = msUntilDeadline(d, s, this.clock.now());
    if (wait !== undefined) this.queue.addAfter(metaNamespaceKey(d), wait);
  }

  private async writeStatusIfChanged(cached: Deployment, s: DeploymentStatus): Promise<void> {
    const key = metaNamespaceKey(cached);
    const rev = this.pendingRevision.get(key);
    if (rev !== undefined && cached.metadata.annotations?.[REVISION_ANNOTATION] !== rev) {
      const copy = structuredClone(cached) as Deployment;
      copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [REVISION_ANNOTATION]: rev };
      cached = await this.ctx.clientset.apps.deployments(cached.metadata.namespace ?? 'default').update(copy);
    }
    this.pendingRevision.delete(key);
    if (statusEqual(cached.status, s)) return;
    await this.writeStatus(cached, s);
  }

  private async writeStatus(cached: Deployment, s: DeploymentStatus): Promise<void> {
    const copy = structuredClone(cached) as Deployment;
    copy.status = s;
    await this.ctx.clientset.apps.deployments(cached.metadata.namespace ?? 'default').updateStatus(copy);
  }
}
