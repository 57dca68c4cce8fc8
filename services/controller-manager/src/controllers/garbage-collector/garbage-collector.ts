// The garbage collector (pkg/controller/garbagecollector): objects whose
// owners are all gone are deleted (background propagation); an owner
// deleted in the foreground keeps its foregroundDeletion finalizer until
// every dependent with blockOwnerDeletion is gone; an owner with the orphan
// finalizer has its references removed from its dependents first.
// Dependents are found through an owner-UID index on every informer.

import { isStored, lookupKind, RESOURCES, type KubeObject, type ResourceInfo } from '@kubelab/api';
import { isTombstone, type GroupVersionResource, type SharedIndexInformer } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { customResourcesFor, type CustomResources } from '../../util/custom-resources.js';
import { OWNER_UID_INDEX, ownerUidIndexFunc } from '../../util/indexers.js';
import { blockingDependents, decideDependent, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type OwnerState } from './decisions.js';

/** Resources the collector watches: everything stored except Events (which own nothing and are many). */
export function gcResources(): ResourceInfo[] {
  return RESOURCES.filter((r) => isStored(r) && !(r.group === '' && r.resource === 'events'));
}

const gvrOf = (r: ResourceInfo): GroupVersionResource => ({ group: r.group, version: r.version, resource: r.resource });
const resId = (r: ResourceInfo) => `${r.group}/${r.resource}`;

export class GarbageCollector extends QueueController {
  private readonly informers = new Map<string, { info: ResourceInfo; inf: SharedIndexInformer<KubeObject> }>();
  private readonly custom: CustomResources;

  constructor(private readonly ctx: ControllerContext) {
    super('garbage-collector', ctx.logger, queueOptions(ctx));
    for (const info of gcResources()) this.monitor(info);
    // Custom resources own and are owned too (upstream: resyncMonitors as discovery changes).
    this.custom = customResourcesFor(ctx.informers);
    this.custom.onChange((added, removed) => {
      for (const info of removed) this.informers.delete(resId(info));
      for (const info of added) this.monitor(info);
      this.enqueueDependentsOfKinds(added);
      // An owner deleted before its new informer's first list never shows a delete event: look again once it has listed.
      for (const info of added)
        void this.informers
          .get(resId(info))
          ?.inf.whenSynced()
          .then(() => this.enqueueDependentsOfKinds([info]));
    });
  }

  /**
   * A dependent seen while its owner's kind was not yet served was kept (an
   * unverifiable owner); once the kind is, it is looked at again (upstream:
   * the graph's virtual nodes, verified when the monitors resync), or a
   * custom owner deleted in between would leave it forever.
   */
  private enqueueDependentsOfKinds(kinds: readonly ResourceInfo[]): void {
    if (!kinds.length) return;
    const named = (ref: { apiVersion: string; kind: string }) => kinds.some((k) => k.kind === ref.kind && ref.apiVersion.startsWith(`${k.group}/`));
    for (const { info, inf } of this.informers.values()) for (const obj of inf.getIndexer().list()) if ((obj.metadata.ownerReferences ?? []).some(named)) this.enqueue(this.keyOf(info, obj));
  }

  private monitor(info: ResourceInfo): void {
    const inf = this.ctx.informers.forResource<KubeObject>(gvrOf(info), { indexers: { [OWNER_UID_INDEX]: ownerUidIndexFunc } });
    this.informers.set(resId(info), { info, inf });
    inf.addEventHandler({
      onAdd: (o) => this.observe(info, undefined, o),
      onUpdate: (old, cur) => this.observe(info, old, cur),
      onDelete: (o) => this.removed(info, isTombstone(o) ? o.obj : o),
    });
  }

  /** A built-in kind, or a custom one served now. */
  private lookupKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    return lookupKind(apiVersion, kind) ?? this.custom.lookupKind(apiVersion, kind);
  }

  private keyOf(info: ResourceInfo, o: KubeObject): string {
    return `${resId(info)}|${o.metadata.namespace ?? ''}|${o.metadata.name ?? ''}`;
  }

  private observe(info: ResourceInfo, old: KubeObject | undefined, cur: KubeObject): void {
    if (old && old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    const m = cur.metadata;
    const refsChanged = !old || JSON.stringify(old.metadata.ownerReferences ?? []) !== JSON.stringify(m.ownerReferences ?? []);
    const deleting = !!m.deletionTimestamp;
    const gcFinalizer = (m.finalizers ?? []).some((f) => f === FINALIZER_ORPHAN || f === FINALIZER_FOREGROUND);
    if ((m.ownerReferences?.length && refsChanged) || (deleting && gcFinalizer)) this.enqueue(this.keyOf(info, cur));
    // Being deleted: owners waiting in the foreground may now proceed.
    if (deleting && !old?.metadata.deletionTimestamp) this.enqueueOwners(cur);
  }

  private removed(info: ResourceInfo, o: KubeObject): void {
    for (const d of this.dependentsOf(o.metadata.uid ?? '')) this.enqueue(this.keyOf(d.info, d.obj));
    this.enqueueOwners(o);
    void info;
  }

  private enqueueOwners(o: KubeObject): void {
    for (const ref of o.metadata.ownerReferences ?? []) {
      const info = this.lookupKind(ref.apiVersion, ref.kind);
      if (!info) continue;
      const ns = info.namespaced ? (o.metadata.namespace ?? '') : '';
      this.enqueue(`${resId(info)}|${ns}|${ref.name}`);
    }
  }

  /** Every cached object naming uid among its owners. */
  dependentsOf(uid: string): Array<{ info: ResourceInfo; obj: KubeObject }> {
    const out: Array<{ info: ResourceInfo; obj: KubeObject }> = [];
    if (!uid) return out;
    for (const { info, inf } of this.informers.values()) for (const obj of inf.getIndexer().byIndex(OWNER_UID_INDEX, uid)) out.push({ info, obj });
    return out;
  }

  private client(info: ResourceInfo, ns: string) {
    return this.ctx.clientset.resource<KubeObject>(gvrOf(info), info.namespaced ? ns : '');
  }

  async sync(key: string): Promise<void> {
    const [id, ns, name] = key.split('|') as [string, string, string];
    const entry = this.informers.get(id);
    if (!entry) return;
    const { info, inf } = entry;
    const obj = inf.getIndexer().getByKey(ns ? `${ns}/${name}` : name);
    if (!obj) return;
    const fin = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp) {
      if (fin.includes(FINALIZER_ORPHAN)) return this.orphanDependents(info, obj);
      if (fin.includes(FINALIZER_FOREGROUND)) return this.processDeletingDependents(info, obj);
      return; // being deleted some other way: nothing to decide
    }
    if (!obj.metadata.ownerReferences?.length) return;
    if ((await this.decide(obj)).kind === 'none') return;
    // The cache may not yet show an owner reference just removed (an orphaning owner patches
    // its dependents, then goes): decide again on the live object, as upstream's attemptToDeleteItem does.
    const latest = await ignoreNotFound(this.client(info, ns).get(name));
    if (!latest || latest.metadata.uid !== obj.metadata.uid || latest.metadata.deletionTimestamp || !latest.metadata.ownerReferences?.length) return;
    const action = await this.decide(latest);
    if (action.kind === 'none') return;
    if (action.kind === 'removeOwnerRefs') {
      const refs = latest.metadata.ownerReferences.filter((r) => !action.uids.includes(r.uid));
      await ignoreNotFound(this.client(info, ns).patch(name, 'merge', { metadata: { ownerReferences: refs.length ? refs : null, resourceVersion: latest.metadata.resourceVersion } }));
      return;
    }
    this.log.info('deleting object', { object: key, propagationPolicy: action.propagationPolicy });
    await ignoreNotFound(this.client(info, ns).delete(name, { propagationPolicy: action.propagationPolicy, preconditions: { uid: latest.metadata.uid ?? '' } }));
  }

  private async decide(obj: KubeObject) {
    const owners = await Promise.all((obj.metadata.ownerReferences ?? []).map(async (ref) => ({ ref, state: await this.ownerState(ref, obj) })));
    return decideDependent(obj, owners, this.dependentsOf(obj.metadata.uid ?? '').length > 0);
  }

  /** Whether an owner exists (checked live when the cache lacks it), is gone, or waits for its dependents. */
  private async ownerState(ref: { apiVersion: string; kind: string; name: string; uid: string }, dependent: KubeObject): Promise<OwnerState> {
    const info = this.lookupKind(ref.apiVersion, ref.kind);
    if (!info) return 'solid'; // a kind this cluster does not serve: cannot be verified, so kept
    const ns = info.namespaced ? (dependent.metadata.namespace ?? '') : '';
    const cached = this.informers
      .get(resId(info))
      ?.inf.getIndexer()
      .getByKey(ns ? `${ns}/${ref.name}` : ref.name);
    let owner: KubeObject | undefined = cached?.metadata.uid === ref.uid ? cached : undefined;
    // Absent from the cache may only mean the cache is behind: ask the apiserver.
    if (!owner) {
      const live = await ignoreNotFound(this.client(info, ns).get(ref.name));
      owner = live?.metadata.uid === ref.uid ? live : undefined;
    }
    if (!owner) return 'dangling';
    if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND)) return 'waitingForDependentsDeletion';
    return 'solid';
  }

  /** Foreground deletion: dependents go first; the finalizer goes when none blocks. */
  private async processDeletingDependents(info: ResourceInfo, owner: KubeObject): Promise<void> {
    const deps = this.dependentsOf(owner.metadata.uid ?? '');
    for (const d of deps) if (!d.obj.metadata.deletionTimestamp) this.enqueue(this.keyOf(d.info, d.obj));
    if (
      blockingDependents(
        owner.metadata.uid ?? '',
        deps.map((d) => d.obj),
      ).length > 0
    )
      return;
    await this.removeFinalizer(info, owner, FINALIZER_FOREGROUND);
  }

  /** Orphan: remove this owner from every dependent, then the finalizer. */
  private async orphanDependents(info: ResourceInfo, owner: KubeObject): Promise<void> {
    const uid = owner.metadata.uid ?? '';
    for (const d of this.dependentsOf(uid)) {
      const refs = (d.obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      await ignoreNotFound(
        this.client(d.info, d.obj.metadata.namespace ?? '').patch(d.obj.metadata.name ?? '', 'merge', {
          metadata: { ownerReferences: refs.length ? refs : null, resourceVersion: d.obj.metadata.resourceVersion },
        }),
      );
    }
    await this.removeFinalizer(info, owner, FINALIZER_ORPHAN);
  }

  private async removeFinalizer(info: ResourceInfo, obj: KubeObject, finalizer: string): Promise<void> {
    const copy = structuredClone(obj);
    copy.metadata.finalizers = (copy.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    await ignoreNotFound(this.client(info, obj.metadata.namespace ?? '').update(copy));
  }
}
