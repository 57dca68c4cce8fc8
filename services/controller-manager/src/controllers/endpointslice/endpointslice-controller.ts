// The EndpointSlice controller (pkg/controller/endpointslice): for every
// Service with a selector, slices named <service>-<random> labelled
// kubernetes.io/service-name and managed-by endpointslice-controller.k8s.io
// hold one endpoint per selected pod with an IP; slices are written only
// when their content changes.

import { newControllerRef, type EndpointSlice, type Node, type Pod, type Service } from '@kubelab/api';
import { isTombstone, splitMetaNamespaceKey, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { desiredByPortSet, LABEL_HEADLESS, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MANAGED_BY, planSlices } from './desired.js';
import { enqueueServicesAndPods, podsForService } from './service-pods.js';

export class EndpointSliceController extends QueueController {
  private readonly svcLister: Lister<Service>;
  private readonly podLister: Lister<Pod>;
  private readonly nodeLister: Lister<Node>;
  private readonly sliceLister: Lister<EndpointSlice>;
  /** Per Service: slice name → generation we wrote (0 = deleted) until the cache shows it (endpointSliceTracker). */
  private readonly tracker = new Map<string, Map<string, number>>();

  constructor(private readonly ctx: ControllerContext) {
    super('endpointslice', ctx.logger, queueOptions(ctx));
    const svc = ctx.informers.core.services();
    const pods = ctx.informers.core.pods();
    const slices = ctx.informers.discovery.endpointSlices();
    this.svcLister = svc.lister();
    this.podLister = pods.lister();
    this.nodeLister = ctx.informers.core.nodes().lister();
    this.sliceLister = slices.lister();
    enqueueServicesAndPods(svc, pods, this.svcLister, (key) => this.enqueue(key));
    // Someone else touching our slices: reconcile the Service again.
    const forSlice = (s: EndpointSlice) => {
      const svcName = s.metadata.labels?.[LABEL_SERVICE_NAME];
      if (svcName && s.metadata.labels?.[LABEL_MANAGED_BY] === MANAGED_BY) this.enqueue(`${s.metadata.namespace}/${svcName}`);
    };
    slices.addEventHandler({
      onAdd: forSlice,
      onUpdate: (o, s) => {
        if (o.metadata.resourceVersion !== s.metadata.resourceVersion) forSlice(s);
      },
      onDelete: (o) => {
        const s = isTombstone(o) ? o.obj : o;
        const svcName = s.metadata.labels?.[LABEL_SERVICE_NAME];
        // A slice deleted by anyone can no longer be "not yet seen".
        if (svcName) this.tracker.get(`${s.metadata.namespace}/${svcName}`)?.delete(s.metadata.name ?? '');
        forSlice(s);
      },
    });
  }

  private managedSlices(ns: string, svcName: string): EndpointSlice[] {
    return this.sliceLister.namespace(ns).list({ [LABEL_SERVICE_NAME]: svcName, [LABEL_MANAGED_BY]: MANAGED_BY });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const svc = this.svcLister.namespace(namespace).get(name);
    // A deleted Service's slices go with it through their owner reference (garbage collector).
    if (!svc || svc.metadata.deletionTimestamp) return;
    if (!svc.spec?.selector || Object.keys(svc.spec.selector).length === 0) return;
    if (svc.spec.type === 'ExternalName') return;
    const existing = this.managedSlices(namespace, name);
    // Acting on a cache that has not seen our last writes would duplicate slices: wait for it.
    if (this.staleSlices(key, existing)) {
      this.queue.addAfter(key, 1000);
      return;
    }
    const track = this.tracker.get(key) ?? new Map<string, number>();
    this.tracker.set(key, track);
    const desired = desiredByPortSet(svc, podsForService(this.podLister, svc), (n) => this.nodeLister.get(n));
    const plan = planSlices(existing, desired, this.ctx.config.maxEndpointsPerSlice);
    const client = this.ctx.clientset.discovery.endpointSlices(namespace);
    const labels = this.sliceLabels(svc);
    for (const s of plan.delete) {
      await ignoreNotFound(client.delete(s.metadata.name ?? ''));
      track.set(s.metadata.name ?? '', 0);
    }
    for (const s of plan.update) {
      s.metadata.labels = labels;
      const u = await client.update(s);
      track.set(u.metadata.name ?? '', u.metadata.generation ?? 1);
    }
    for (const c of plan.create) {
      const made = await client.create({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { generateName: `${name}-`, namespace, labels, ownerReferences: [newControllerRef(svc, 'v1', 'Service')] },
        addressType: 'IPv4',
        endpoints: c.endpoints,
        ports: c.ports,
      });
      track.set(made.metadata.name ?? '', made.metadata.generation ?? 1);
    }
    // Labels copied from the Service changed: rewrite slices not rewritten above.
    for (const s of existing) {
      if (plan.delete.includes(s) || plan.update.some((u) => u.metadata.uid === s.metadata.uid)) continue;
      if (JSON.stringify(s.metadata.labels ?? {}) === JSON.stringify(labels)) continue;
      const copy = structuredClone(s);
      copy.metadata.labels = labels;
      const u = await client.update(copy);
      track.set(u.metadata.name ?? '', u.metadata.generation ?? 1);
    }
  }

  /** StaleSlices: some slice we wrote is not yet in the cache as written (entries seen are forgotten). */
  private staleSlices(key: string, cached: EndpointSlice[]): boolean {
    const track = this.tracker.get(key);
    if (!track) return false;
    const byName = new Map(cached.map((s) => [s.metadata.name ?? '', s]));
    let stale = false;
    for (const [name, gen] of track) {
      const s = byName.get(name);
      const seen = gen === 0 ? !s : !!s && (s.metadata.generation ?? 1) >= gen;
      if (seen) track.delete(name);
      else stale = true;
    }
    if (track.size === 0) this.tracker.delete(key);
    return stale;
  }

  /** The Service's labels plus the slice labels (setEndpointSliceLabels). */
  private sliceLabels(svc: Service): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) if (k !== LABEL_SERVICE_NAME && k !== LABEL_MANAGED_BY) out[k] = v;
    if (svc.spec?.clusterIP === 'None') out[LABEL_HEADLESS] = '';
    out[LABEL_SERVICE_NAME] = svc.metadata.name ?? '';
    out[LABEL_MANAGED_BY] = MANAGED_BY;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}
