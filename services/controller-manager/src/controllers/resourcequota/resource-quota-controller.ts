// The resource quota controller (pkg/controller/resourcequota): keeps each
// ResourceQuota's status.hard equal to its spec and status.used equal to
// what the namespace's objects use. A quota is recounted when it is made or
// its spec changes, and (replenishment, upstream's QuotaMonitor) when an
// object it counts is created, deleted, or changes its usage.

import { isNotFound, type KubeObject, type ResourceQuota } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type Lister, type SharedIndexInformer } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { desiredQuotaStatus, quantitiesEqual, quotaTracks, usageChanged, type CountedObjects } from './decisions.js';

interface Counted {
  group: string;
  resource: string;
  lister: Lister<KubeObject>;
}

export class ResourceQuotaController extends QueueController {
  private readonly quotaLister: Lister<ResourceQuota>;
  private readonly counted: Counted[] = [];

  constructor(private readonly ctx: ControllerContext) {
    super('resourcequota_primary', ctx.logger, queueOptions(ctx));
    const quotas = ctx.informers.core.resourceQuotas();
    this.quotaLister = quotas.lister();
    quotas.addEventHandler({
      onAdd: (rq) => this.enqueue(metaNamespaceKey(rq)),
      // Status writes (this controller's, admission's increments) need no recount; a new spec.hard does.
      onUpdate: (old, cur) => {
        if (!quantitiesEqual(old.spec?.hard, cur.spec?.hard) || !quantitiesEqual(cur.spec?.hard, cur.status?.hard)) this.enqueue(metaNamespaceKey(cur));
      },
    });
    const i = ctx.informers;
    // The evaluators kubelab's informers can feed: pods, services, claims, object counts of the rest.
    this.watch('', 'pods', i.core.pods());
    this.watch('', 'services', i.core.services());
    this.watch('', 'configmaps', i.core.configMaps());
    this.watch('', 'secrets', i.core.secrets());
    this.watch('', 'persistentvolumeclaims', i.core.persistentVolumeClaims());
    this.watch('', 'resourcequotas', quotas);
    this.watch('apps', 'deployments', i.apps.deployments());
    this.watch('apps', 'replicasets', i.apps.replicaSets());
    this.watch('apps', 'statefulsets', i.apps.statefulSets());
    this.watch('apps', 'daemonsets', i.apps.daemonSets());
    this.watch('batch', 'jobs', i.batch.jobs());
    this.watch('batch', 'cronjobs', i.batch.cronJobs());
  }

  private watch<T extends KubeObject>(group: string, resource: string, informer: SharedIndexInformer<T>): void {
    this.counted.push({ group, resource, lister: informer.lister() as unknown as Lister<KubeObject> });
    informer.addEventHandler({
      onAdd: (o) => this.replenish(group, resource, o),
      onUpdate: (old, cur) => {
        if (usageChanged(group, resource, old, cur, new Date(this.clock.now()))) this.replenish(group, resource, cur);
      },
      onDelete: (o) => this.replenish(group, resource, isTombstone(o) ? (o.obj as T) : o),
    });
  }

  /** replenishQuota: every quota of the object's namespace that tracks its resource. */
  private replenish(group: string, resource: string, obj: KubeObject): void {
    const ns = obj.metadata.namespace;
    if (!ns) return;
    for (const rq of this.quotaLister.namespace(ns).list()) if (quotaTracks(rq, group, resource)) this.enqueue(metaNamespaceKey(rq));
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const rq = this.quotaLister.namespace(namespace).get(name);
    if (!rq) return;
    const objects: CountedObjects[] = this.counted.map((c) => ({ group: c.group, resource: c.resource, items: c.lister.namespace(namespace).list() }));
    const status = desiredQuotaStatus(rq, objects, new Date(this.clock.now()));
    if (!status) return;
    try {
      // Conditional on the cached resourceVersion: a conflict (admission counted meanwhile) requeues and recounts.
      await this.ctx.clientset.core.resourceQuotas(namespace).updateStatus({ ...rq, status });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
