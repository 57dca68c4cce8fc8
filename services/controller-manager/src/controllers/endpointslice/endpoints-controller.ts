// The legacy Endpoints controller (pkg/controller/endpoint): one Endpoints
// object per Service with a selector, named like the Service, with ready
// and not-ready addresses per port set (what `kubectl get ep` shows).

import { canonicalJson, isAlreadyExists, type Endpoints, type Pod, type Service } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { endpointsSubsets } from './desired.js';
import { enqueueServicesAndPods, podsForService } from './service-pods.js';

export class EndpointsController extends QueueController {
  private readonly svcLister: Lister<Service>;
  private readonly podLister: Lister<Pod>;
  private readonly epLister: Lister<Endpoints>;

  constructor(private readonly ctx: ControllerContext) {
    super('endpoint', ctx.logger, queueOptions(ctx));
    const svc = ctx.informers.core.services();
    const pods = ctx.informers.core.pods();
    const eps = ctx.informers.core.endpoints();
    this.svcLister = svc.lister();
    this.podLister = pods.lister();
    this.epLister = eps.lister();
    enqueueServicesAndPods(svc, pods, this.svcLister, (key) => this.enqueue(key));
    eps.addEventHandler({ onDelete: (o) => this.enqueue(metaNamespaceKey(isTombstone(o) ? o.obj : o)) });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const svc = this.svcLister.namespace(namespace).get(name);
    const client = this.ctx.clientset.core.endpoints(namespace);
    const cur = this.epLister.namespace(namespace).get(name);
    if (!svc) {
      if (cur) await ignoreNotFound(client.delete(name));
      return;
    }
    if (!svc.spec?.selector || Object.keys(svc.spec.selector).length === 0) return;
    const subsets = endpointsSubsets(svc, podsForService(this.podLister, svc));
    const labels = { ...(svc.metadata.labels ?? {}) };
    if (svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    if (cur && canonicalJson(cur.subsets ?? []) === canonicalJson(subsets) && canonicalJson(cur.metadata.labels ?? {}) === canonicalJson(labels)) return;
    const obj: Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { ...(cur ? structuredClone(cur.metadata) : { name, namespace }), labels }, subsets };
    if (cur) await client.update(obj);
    else {
      try {
        await client.create(obj);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        this.enqueue(key);
      }
    }
  }
}
