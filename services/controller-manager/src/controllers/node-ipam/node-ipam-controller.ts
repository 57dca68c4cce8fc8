// The node IPAM controller's range allocator (pkg/controller/nodeipam):
// every node without spec.podCIDR gets the next /--node-cidr-mask-size of
// --cluster-cidr. The set is rebuilt from existing nodes before the first
// allocation, released when a node goes, and never hands a subnet out twice.

import type { Node } from '@kubelab/api';
import { isTombstone, type EventRecorder, type Lister } from '@kubelab/client';
import { errText, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { CidrSet, CidrSetError } from './cidrset.js';

/** PodCIDR writes at once (upstream's cidrUpdateWorkers). */
export const CIDR_UPDATE_WORKERS = 30;

export class NodeIpamController extends QueueController {
  readonly cidrs: CidrSet;
  private readonly nodeLister: Lister<Node>;
  private readonly recorder: EventRecorder;
  /** CIDRs this controller wrote, until the cache shows them (nodesInProcessing). */
  private readonly assigned = new Map<string, string>();

  constructor(private readonly ctx: ControllerContext) {
    super('node-ipam', ctx.logger, queueOptions(ctx));
    this.cidrs = new CidrSet(ctx.config.clusterCidr, ctx.config.nodeCidrMaskSize);
    this.recorder = ctx.recorder('cidrAllocator');
    const nodes = ctx.informers.core.nodes();
    this.nodeLister = nodes.lister();
    nodes.addEventHandler({
      onAdd: (n) => {
        if (!n.spec?.podCIDR) this.enqueue(n.metadata.name ?? '');
      },
      onUpdate: (_o, n) => {
        if (!n.spec?.podCIDR) this.enqueue(n.metadata.name ?? '');
      },
      onDelete: (o) => {
        const n = isTombstone(o) ? o.obj : o;
        const mine = this.assigned.get(n.metadata.name ?? '');
        if (mine) this.cidrs.release(mine);
        this.assigned.delete(n.metadata.name ?? '');
        for (const c of n.spec?.podCIDRs ?? (n.spec?.podCIDR ? [n.spec.podCIDR] : [])) this.cidrs.release(c);
      },
    });
  }

  /** Before any allocation: every CIDR already on a node is taken. */
  protected override onStart(): void {
    for (const n of this.nodeLister.list()) for (const c of n.spec?.podCIDRs ?? (n.spec?.podCIDR ? [n.spec.podCIDR] : [])) this.cidrs.occupy(c);
  }

  async sync(name: string): Promise<void> {
    const node = this.nodeLister.get(name);
    if (!node) return;
    if (node.spec?.podCIDR) {
      this.cidrs.occupy(node.spec.podCIDR);
      this.assigned.delete(name);
      return;
    }
    if (this.assigned.has(name)) return; // written already; the cache has not caught up
    let cidr: string;
    try {
      cidr = this.cidrs.allocateNext();
    } catch (err) {
      if (!(err instanceof CidrSetError)) throw err;
      this.recorder.eventf({ kind: 'Node', name, uid: name, namespace: '' }, 'Normal', 'CIDRNotAvailable', 'Node %s status is now: %s', name, 'CIDRNotAvailable');
      throw err;
    }
    try {
      this.assigned.set(name, cidr);
      await this.ctx.clientset.core.nodes().patch(name, 'merge', { spec: { podCIDR: cidr, podCIDRs: [cidr] } });
      this.log.info('Set node PodCIDR', { node: name, podCIDRs: [cidr] });
    } catch (err) {
      this.assigned.delete(name);
      this.cidrs.release(cidr);
      this.recorder.eventf({ kind: 'Node', name, uid: name, namespace: '' }, 'Normal', 'CIDRAssignmentFailed', 'Node %s status is now: %s', name, 'CIDRAssignmentFailed');
      throw new Error(`failed to patch node ${name} with podCIDR ${cidr}: ${errText(err)}`, { cause: err });
    }
  }
}
