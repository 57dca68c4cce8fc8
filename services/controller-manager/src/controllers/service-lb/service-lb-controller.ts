// The service load-balancer controller (upstream's service-lb-controller of
// cloud-controller-manager, k8s.io/cloud-provider/controllers/service), with
// kind's cloud-provider-kind as its cloud: every type=LoadBalancer Service
// without a loadBalancerClass gets an address from --load-balancer-cidr in
// status.loadBalancer.ingress (ipMode VIP: the nodes' kube-proxy answers it)
// and the load-balancer-cleanup finalizer; deleted, or no longer a
// LoadBalancer, it gives the address back and drops the finalizer. Events as
// upstream's: EnsuringLoadBalancer/EnsuredLoadBalancer,
// DeletingLoadBalancer/DeletedLoadBalancer, SyncLoadBalancerFailed.

import { isConflict, isNotFound, parseIpv4Cidr, type Ipv4Cidr, type Service } from '@kubelab/api';
import { type EventRecorder, type Lister } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { chooseAddress, ingressInPool, LB_CLEANUP_FINALIZER, needsCleanup, wantsLoadBalancer } from './decisions.js';

export class ServiceLbController extends QueueController {
  private readonly lister: Lister<Service>;
  private readonly recorder: EventRecorder;
  private readonly pool: Ipv4Cidr;
  /** Addresses this controller wrote that its informer may not show yet (key → ip); one entry per live LoadBalancer at most. */
  private readonly written = new Map<string, string>();

  constructor(private readonly ctx: ControllerContext) {
    super('service', ctx.logger, queueOptions(ctx));
    const pool = parseIpv4Cidr(ctx.config.loadBalancerCidr);
    if (!pool) throw new Error(`invalid --load-balancer-cidr ${JSON.stringify(ctx.config.loadBalancerCidr)}`);
    this.pool = pool;
    this.recorder = ctx.recorder('service-controller');
    const inf = ctx.informers.core.services();
    this.lister = inf.lister();
    const key = (s: Service) => `${s.metadata.namespace ?? 'default'}/${s.metadata.name ?? ''}`;
    const relevant = (s: Service) => wantsLoadBalancer(s) || needsCleanup(s);
    inf.addEventHandler({
      onAdd: (s) => relevant(s) && this.enqueue(key(s)),
      onUpdate: (o, s) => (relevant(s) || relevant(o)) && this.enqueue(key(s)),
    });
  }

  /** Addresses held by other Services: the informer's view plus what this controller just wrote (the cache may lag its own writes). */
  private usedAddresses(except: string): Set<string> {
    const used = new Set<string>();
    for (const s of this.lister.list()) {
      if (`${s.metadata.namespace}/${s.metadata.name}` === except) continue;
      for (const ip of ingressInPool(s, this.pool)) used.add(ip);
    }
    for (const [key, ip] of this.written) if (key !== except) used.add(ip);
    return used;
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.lister.namespace(namespace).get(name);
    if (!cached) {
      this.written.delete(key);
      return;
    }
    try {
      if (needsCleanup(cached)) {
        await this.cleanup(cached);
        this.written.delete(key);
        return;
      }
      if (!wantsLoadBalancer(cached) || cached.metadata.deletionTimestamp) return;
      await this.ensure(cached);
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err)) throw err;
      this.recorder.eventf(cached, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: %v', (err as Error).message);
      throw err;
    }
  }

  private async ensure(svc: Service): Promise<void> {
    const client = this.ctx.clientset.core.services(svc.metadata.namespace ?? 'default');
    const choice = chooseAddress(svc, this.pool, this.usedAddresses(`${svc.metadata.namespace}/${svc.metadata.name}`));
    const have = ingressInPool(svc, this.pool);
    if (choice.ip && have.length === 1 && have[0] === choice.ip && svc.metadata.finalizers?.includes(LB_CLEANUP_FINALIZER)) return;
    this.recorder.event(svc, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    if (!choice.ip) {
      // Upstream retries with backoff; a full pool is not fixed by retrying, so the event says why and the next change re-queues.
      this.recorder.eventf(svc, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: failed to ensure load balancer: %v', choice.error);
      return;
    }
    let current = svc;
    // The finalizer goes on before the address is handed out (upstream addFinalizer), so a delete always releases it.
    if (!current.metadata.finalizers?.includes(LB_CLEANUP_FINALIZER)) {
      const copy = structuredClone(current);
      copy.metadata.finalizers = [...(copy.metadata.finalizers ?? []), LB_CLEANUP_FINALIZER];
      current = await client.update(copy);
    }
    const withStatus = structuredClone(current);
    withStatus.status = { ...withStatus.status, loadBalancer: { ingress: [{ ip: choice.ip, ipMode: 'VIP' }] } };
    await client.updateStatus(withStatus);
    this.written.set(`${svc.metadata.namespace}/${svc.metadata.name}`, choice.ip);
    this.recorder.event(svc, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
  }

  private async cleanup(svc: Service): Promise<void> {
    const client = this.ctx.clientset.core.services(svc.metadata.namespace ?? 'default');
    this.recorder.event(svc, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
    let current = svc;
    if ((svc.status?.loadBalancer?.ingress ?? []).length > 0 && !svc.metadata.deletionTimestamp) {
      const copy = structuredClone(svc);
      copy.status = { ...copy.status, loadBalancer: {} };
      current = await client.updateStatus(copy);
    }
    const copy = structuredClone(current);
    copy.metadata.finalizers = (copy.metadata.finalizers ?? []).filter((f) => f !== LB_CLEANUP_FINALIZER);
    await client.update(copy);
    this.recorder.event(svc, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
  }
}
