// The namespace controller (pkg/controller/namespace): a Terminating
// namespace has everything in it deleted; once it is empty the `kubernetes`
// finalizer is removed through namespaces/finalize and the apiserver
// removes the namespace. Deletions of its content requeue it.

import { isStored, RESOURCES, type KubeObject, type Namespace, type ResourceInfo } from '@kubelab/api';
import { isTombstone, type GroupVersionResource, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { customResourcesFor, type CustomResources } from '../../util/custom-resources.js';
import { deletionConditions, type Remaining } from './decisions.js';

export const FINALIZER_KUBERNETES = 'kubernetes';
/** How soon to look again while content remains and no event arrives. */
const RECHECK_MS = 5_000;

const gvrOf = (r: ResourceInfo): GroupVersionResource => ({ group: r.group, version: r.version, resource: r.resource });
/** Built-in kinds a namespace holds (Events included: they go with it, but their deletion need not wake us). */
const BUILT_IN = RESOURCES.filter((r) => r.namespaced && isStored(r));
const isCoreEvents = (r: ResourceInfo) => r.group === '' && r.resource === 'events';

export class NamespaceController extends QueueController {
  private readonly nsLister: Lister<Namespace>;
  private readonly custom: CustomResources;

  constructor(private readonly ctx: ControllerContext) {
    super('namespace', ctx.logger, queueOptions(ctx));
    const nsInf = ctx.informers.core.namespaces();
    this.nsLister = nsInf.lister();
    nsInf.addEventHandler({
      onAdd: (ns) => this.enqueue(ns.metadata.name ?? ''),
      onUpdate: (_o, ns) => this.enqueue(ns.metadata.name ?? ''),
    });
    // Content going away moves a terminating namespace forward; custom resources too, once their CRD is served.
    for (const info of BUILT_IN.filter((r) => !isCoreEvents(r))) this.watchDeletions(info);
    this.custom = customResourcesFor(ctx.informers);
    this.custom.onChange((added) => {
      for (const info of added.filter((r) => r.namespaced)) this.watchDeletions(info);
    });
  }

  private watchDeletions(info: ResourceInfo): void {
    this.ctx.informers.forResource<KubeObject>(gvrOf(info)).addEventHandler({
      onDelete: (o) => {
        const ns = (isTombstone(o) ? o.obj : o).metadata.namespace ?? '';
        if (this.nsLister.get(ns)?.metadata.deletionTimestamp) this.enqueue(ns);
      },
    });
  }

  async sync(name: string): Promise<void> {
    const ns = this.nsLister.get(name);
    if (!ns?.metadata.deletionTimestamp) return;
    if (!(ns.spec?.finalizers ?? []).includes(FINALIZER_KUBERNETES)) return;
    const remaining: Remaining = { byResource: new Map(), byFinalizer: new Map() };
    for (const info of [...BUILT_IN, ...this.custom.list().filter((r) => r.namespaced)]) {
      const client = this.ctx.clientset.resource<KubeObject>(gvrOf(info), name);
      const list = await client.list();
      if (list.items.length === 0) continue;
      remaining.byResource.set(`${info.resource}.${info.group}`, list.items.length);
      for (const item of list.items) {
        for (const f of item.metadata.finalizers ?? []) remaining.byFinalizer.set(f, (remaining.byFinalizer.get(f) ?? 0) + 1);
        if (!item.metadata.deletionTimestamp) await ignoreNotFound(client.delete(item.metadata.name ?? '', { propagationPolicy: 'Background' }));
      }
    }
    const conditions = deletionConditions(remaining, ns.status?.conditions, this.clock.now());
    if (JSON.stringify(conditions) !== JSON.stringify(ns.status?.conditions ?? [])) {
      const copy = structuredClone(ns);
      copy.status = { ...(copy.status ?? {}), conditions };
      await ignoreNotFound(this.ctx.clientset.core.namespaces().updateStatus(copy));
    }
    if (remaining.byResource.size > 0) {
      this.queue.addAfter(name, RECHECK_MS);
      return;
    }
    // Empty: hand the namespace back to the apiserver without our finalizer (an update of
    // namespaces/finalize, as upstream's controller does: its role may update, not patch, there).
    const copy = structuredClone(ns);
    copy.spec = { ...copy.spec, finalizers: (ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES) };
    await ignoreNotFound(this.ctx.clientset.core.namespaces().update(copy, { subresource: 'finalize' }));
  }
}
