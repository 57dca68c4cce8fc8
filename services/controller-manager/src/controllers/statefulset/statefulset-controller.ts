// The StatefulSet controller (pkg/controller/statefulset): pods with stable
// names `<set>-<ordinal>`, created in order and waited for (OrderedReady) or
// all at once (Parallel), their claims from volumeClaimTemplates, and
// updates rolled from the highest ordinal down to the partition; each
// template is a ControllerRevision, whose name labels the pods made from it.

import { contextFromObject } from '@kubelab/tracing';
import {
  canonicalJson,
  controllerRef,
  isAlreadyExists,
  isNotFound,
  labelSelectorAsSelector,
  newControllerRef,
  type ControllerRevision,
  type OwnerReference,
  type Pod,
  type StatefulSet,
  type StatefulSetStatus,
} from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type EventRecorder, type Lister, type SharedIndexInformer } from '@kubelab/client';
import { errText, ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { chooseUpdateRevision, hashRevisionData, newControllerRevision, revisionData, revisionsToDelete, revisionTemplate } from '../../util/history.js';
import { CONTROLLER_UID_INDEX, controllerIndexers } from '../../util/indexers.js';
import { claimObjects } from '../../util/ref-manager.js';
import { claimName, claimsFor, isCondemned, newStatefulSetPod, ordinalOf, planStatefulSet, podRevision, statefulSetStatus, usesCurrentRevision, type Claim } from './decisions.js';

/** PersistentVolumeClaims, reached through the generic client (the typed core group has no accessor for them). */
export const PVC_GVR = { group: '', version: 'v1', resource: 'persistentvolumeclaims' } as const;

export class StatefulSetController extends QueueController {
  private readonly setLister: Lister<StatefulSet>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly revisions: SharedIndexInformer<ControllerRevision>;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    super('statefulset', ctx.logger, queueOptions(ctx));
    this.recorder = ctx.recorder('statefulset-controller');
    const sets = ctx.informers.apps.statefulSets();
    this.setLister = sets.lister();
    this.pods = ctx.informers.core.pods({ indexers: controllerIndexers });
    this.revisions = ctx.informers.apps.controllerRevisions({ indexers: controllerIndexers });
    sets.addEventHandler({
      onAdd: (s) => this.enqueue(metaNamespaceKey(s)),
      onUpdate: (_o, s) => this.enqueue(metaNamespaceKey(s)),
    });
    const ownerKey = (p: Pod): string | undefined => {
      const ref = (p.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'StatefulSet');
      if (!ref) return undefined;
      const s = this.setLister.namespace(p.metadata.namespace ?? '').get(ref.name);
      return s?.metadata.uid === ref.uid ? metaNamespaceKey(s) : undefined;
    };
    const onPod = (p: Pod) => {
      const k = ownerKey(p);
      if (k) this.enqueue(k);
      // An orphan: the sets it could belong to may adopt it (upstream getPodStatefulSets).
      else if (!controllerRef(p) && !p.metadata.deletionTimestamp) for (const set of this.setsFor(p)) this.enqueue(metaNamespaceKey(set));
    };
    this.pods.addEventHandler({
      onAdd: onPod,
      onUpdate: (o, p) => {
        if (o.metadata.resourceVersion !== p.metadata.resourceVersion) onPod(p);
      },
      onDelete: (o) => onPod(isTombstone(o) ? o.obj : o),
    });
  }

  /** Sets whose selector matches the pod and whose name it bears (upstream getPodStatefulSets with isMemberOf). */
  private setsFor(p: Pod): StatefulSet[] {
    return this.setLister
      .namespace(p.metadata.namespace ?? '')
      .list()
      .filter((set) => {
        try {
          const sel = labelSelectorAsSelector(set.spec?.selector);
          return !sel.empty() && sel.matches(p.metadata.labels ?? {}) && ordinalOf(set, p) >= 0;
        } catch {
          return false;
        }
      });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const set = this.setLister.namespace(namespace).get(name);
    if (!set || set.metadata.deletionTimestamp) return;
    let selector;
    try {
      selector = labelSelectorAsSelector(set.spec?.selector);
      if (selector.empty()) return;
    } catch {
      return;
    }
    const uid = set.metadata.uid ?? '';
    const ref = newControllerRef(set, 'apps/v1', 'StatefulSet');
    // Upstream's ClaimControllerRevisions and ClaimPods: adopt orphans the selector matches (pods only if named <set>-<ordinal>), release what stops matching.
    const canAdopt = async () => {
      const fresh = await this.ctx.clientset.apps.statefulSets(namespace).get(name);
      return fresh.metadata.uid === uid && !fresh.metadata.deletionTimestamp;
    };
    const labels = (o: { metadata: { labels?: Record<string, string> | null } }) => o.metadata.labels ?? {};
    const orphans = <T extends Pod | ControllerRevision>(list: T[]) => list.filter((o) => !controllerRef(o) && selector.matches(labels(o)));
    const revisions = await claimObjects<ControllerRevision>([...this.revisions.getIndexer().byIndex(CONTROLLER_UID_INDEX, uid), ...orphans(this.revisions.lister().namespace(namespace).list())], {
      owner: set,
      ownerRef: ref,
      matches: (r) => selector.matches(labels(r)),
      client: (ns) => this.ctx.clientset.apps.controllerRevisions(ns),
      canAdopt,
    });
    const pods = await claimObjects<Pod>([...this.pods.getIndexer().byIndex(CONTROLLER_UID_INDEX, uid), ...orphans(this.pods.lister().namespace(namespace).list())], {
      owner: set,
      ownerRef: ref,
      matches: (p) => selector.matches(labels(p)) && ordinalOf(set, p) >= 0,
      client: (ns) => this.ctx.clientset.core.pods(ns),
      canAdopt,
    });
    const collisionCount = set.status?.collisionCount ?? 0;

    const update = await this.updateRevision(set, ref, revisions, collisionCount);
    const current = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;

    const now = this.clock.now();
    const plan = planStatefulSet(set, pods, update.metadata.name ?? '', now);
    const created: Pod[] = [];
    for (const ord of plan.create) {
      const rev = usesCurrentRevision(set, ord) ? current : update;
      const template = rev === update ? (set.spec?.template ?? {}) : revisionTemplate(rev);
      const pod = newStatefulSetPod(set, template, rev.metadata.name ?? '', ord, ref);
      await this.createClaims(set, pod, ord, ref);
      created.push(await this.createPod(set, pod));
    }
    for (const p of plan.delete) {
      if (isCondemned(set, p) && set.spec?.persistentVolumeClaimRetentionPolicy?.whenScaled === 'Delete') await this.claimsOwnedByPod(set, p);
      await this.deletePod(set, p);
    }

    const status = statefulSetStatus(set, pods, created, plan.delete, { current: current.metadata.name ?? '', update: update.metadata.name ?? '', collisionCount }, now);
    await this.writeStatus(set, status);

    // truncateHistory: revisions no pod and neither status revision uses, beyond revisionHistoryLimit.
    const live = new Set<string>([status.currentRevision ?? '', status.updateRevision ?? '']);
    for (const p of [...pods, ...created]) live.add(podRevision(p) ?? '');
    const all = revisions.some((r) => r.metadata.name === update.metadata.name) ? revisions : [...revisions, update];
    for (const r of revisionsToDelete(all, live, set.spec?.revisionHistoryLimit ?? 10)) {
      await this.ctx.clientset.apps
        .controllerRevisions(namespace)
        .delete(r.metadata.name ?? '')
        .catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
    }
  }

  /** The revision of the set's template: reused, renumbered (a rollback), or created; a name taken by other data bumps collisionCount. */
  private async updateRevision(set: StatefulSet, ref: OwnerReference, revisions: ControllerRevision[], collisionCount: number): Promise<ControllerRevision> {
    const ns = set.metadata.namespace ?? 'default';
    const data = revisionData(set.spec?.template);
    const candidate = newControllerRevision(set, ref, set.spec?.template?.metadata?.labels, data, 0, hashRevisionData(data, collisionCount));
    const choice = chooseUpdateRevision(revisions, candidate);
    const client = this.ctx.clientset.apps.controllerRevisions(ns);
    if (choice.renumber) return client.update(choice.update);
    if (!choice.create) return choice.update;
    try {
      return await client.create(choice.update);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await client.get(choice.update.metadata.name ?? '');
      if (JSON.stringify(existing.data) === JSON.stringify(choice.update.data) && existing.metadata.ownerReferences?.some((r) => r.uid === ref.uid)) return existing;
      // A hash collision: the next sync hashes with a higher count.
      const copy = structuredClone(set);
      copy.status = { ...(copy.status ?? { replicas: 0 }), collisionCount: collisionCount + 1 };
      await this.ctx.clientset.apps.statefulSets(ns).updateStatus(copy);
      throw err;
    }
  }

  /** createPersistentVolumeClaims: each claim the pod needs, unless it exists. */
  private async createClaims(set: StatefulSet, pod: Pod, ordinal: number, ref: OwnerReference): Promise<void> {
    const client = this.ctx.clientset.resource<Claim & { metadata: Claim['metadata'] }>(PVC_GVR, set.metadata.namespace ?? 'default');
    for (const claim of claimsFor(set, ordinal, ref)) {
      try {
        await client.get(claim.metadata.name);
        continue;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      try {
        await client.create(claim);
        this.recorder.eventf(set, 'Normal', 'SuccessfulCreate', 'create Claim %s Pod %s in StatefulSet %s success', claim.metadata.name, pod.metadata.name, set.metadata.name);
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        this.recorder.eventf(set, 'Warning', 'FailedCreate', 'create Claim %s for Pod %s in StatefulSet %s failed error: %s', claim.metadata.name, pod.metadata.name, set.metadata.name, errText(err));
        throw err;
      }
    }
  }

  /** whenScaled=Delete: a condemned pod's claims get the pod as an owner, so the garbage collector removes them with it. */
  private async claimsOwnedByPod(set: StatefulSet, pod: Pod): Promise<void> {
    const client = this.ctx.clientset.resource(PVC_GVR, set.metadata.namespace ?? 'default');
    const owner: OwnerReference = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
    for (const t of set.spec?.volumeClaimTemplates ?? []) {
      const claim = await ignoreNotFound(client.get(claimName(set, t.metadata?.name ?? '', ordinalOf(set, pod))));
      if (!claim || claim.metadata.ownerReferences?.some((r) => r.uid === owner.uid)) continue;
      claim.metadata.ownerReferences = [...(claim.metadata.ownerReferences ?? []), owner];
      await client.update(claim);
    }
  }

  private async createPod(set: StatefulSet, pod: Pod): Promise<Pod> {
    try {
      const created = await this.ctx.clientset.core.pods(pod.metadata.namespace).create(pod, { traceContext: contextFromObject(set) });
      this.recorder.eventf(set, 'Normal', 'SuccessfulCreate', 'create Pod %s in StatefulSet %s successful', pod.metadata.name, set.metadata.name);
      return created;
    } catch (err) {
      // A pod the informer has not seen yet: its name is the set's, so it is the same pod.
      if (isAlreadyExists(err)) return pod;
      this.recorder.eventf(set, 'Warning', 'FailedCreate', 'create Pod %s in StatefulSet %s failed error: %s', pod.metadata.name, set.metadata.name, errText(err));
      throw err;
    }
  }

  private async deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.ctx.clientset.core.pods(pod.metadata.namespace).delete(pod.metadata.name ?? '');
      this.recorder.eventf(set, 'Normal', 'SuccessfulDelete', 'delete Pod %s in StatefulSet %s successful', pod.metadata.name, set.metadata.name);
    } catch (err) {
      if (isNotFound(err)) return;
      this.recorder.eventf(set, 'Warning', 'FailedDelete', 'delete Pod %s in StatefulSet %s failed error: %s', pod.metadata.name, set.metadata.name, errText(err));
      throw err;
    }
  }

  private async writeStatus(set: StatefulSet, status: StatefulSetStatus): Promise<void> {
    const cur = set.status;
    const next: StatefulSetStatus = { ...status, ...(cur?.conditions ? { conditions: cur.conditions } : {}) };
    // Key order is the writer's; only a different value is a change (else every sync would write again).
    if (canonicalJson(cur ?? {}) === canonicalJson(next)) return;
    const copy = structuredClone(set);
    copy.status = next;
    await this.ctx.clientset.apps.statefulSets(set.metadata.namespace ?? 'default').updateStatus(copy);
  }
}
