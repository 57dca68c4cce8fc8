// The node lifecycle controller (pkg/controller/nodelifecycle): every
// --node-monitor-period it checks each node's heartbeat (its Lease in
// kube-node-lease and its Ready condition). A node silent for
// --node-monitor-grace-period gets Unknown conditions ("Kubelet stopped
// posting node status."), its pods are marked not ready, and it is tainted
// node.kubernetes.io/unreachable:NoExecute (not-ready when the kubelet says
// Ready=False) through its zone's rate-limited queue. A zone's rate follows
// its state (planDisruption): --node-eviction-rate when Normal or fully
// disrupted, --secondary-node-eviction-rate (or 0 in a zone of at most
// --large-cluster-size-threshold nodes) when partially disrupted, and none
// anywhere when every zone is fully disrupted ("master disruption mode": the
// control plane is probably the one cut off, so the taints are lifted).
// NoSchedule taints follow conditions as they change (an event-driven queue).

import { formatTime, getNodeCondition, isConflict, parseTime, type Lease, type Node, type Pod } from '@kubelab/api';
import { isTombstone, NODE_NAME_INDEX, type EventRecorder, type Lister, type SharedIndexInformer, type Timer } from '@kubelab/client';
import { errText, ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import {
  excludedFromDisruption,
  nodeHealth,
  noExecuteTaintFor,
  noScheduleTaints,
  planDisruption,
  swapNoExecuteTaint,
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  taintsPatch,
  zoneKey,
  type NodeHealth,
  type ZoneState,
} from './decisions.js';
import { RateLimitedTimedQueue, type TryResult } from './rate-limited-queue.js';

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Retries of a node status write after a conflict (nodeStatusUpdateRetry). */
const STATUS_UPDATE_RETRIES = 5;
/** How often the zones' tainting queues are worked (scheduler.NodeEvictionPeriod). */
export const NODE_EVICTION_PERIOD_MS = 100;
/** Nodes whose health one pass checks at once (nodeUpdateWorkerSize). */
export const NODE_UPDATE_WORKERS = 8;
/** A queued node without a Ready condition is tried again this much later. */
const NO_CONDITION_RETRY_MS = 50;

export class NodeLifecycleController extends QueueController {
  private readonly nodeLister: Lister<Node>;
  private readonly leaseLister: Lister<Lease>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly recorder: EventRecorder;
  private readonly health = new Map<string, NodeHealth>();
  private readonly known = new Map<string, Node>();
  /** Per zone key: the NoExecute tainting queue (zoneNoExecuteTainter). */
  private readonly tainters = new Map<string, RateLimitedTimedQueue>();
  private zoneStates = new Map<string, ZoneState>();
  private monitorTimer: Timer | undefined;
  private tainterTimer: Timer | undefined;
  private stopped = false;
  private monitoring: Promise<void> = Promise.resolve();
  private inPass = false;

  constructor(private readonly ctx: ControllerContext) {
    super('node-lifecycle', ctx.logger, queueOptions(ctx));
    this.recorder = ctx.recorder('node-controller');
    const nodes = ctx.informers.core.nodes();
    this.nodeLister = nodes.lister();
    this.leaseLister = ctx.informers.coordination.leases({ namespace: NODE_LEASE_NAMESPACE }).lister();
    this.pods = ctx.informers.core.pods();
    // NoSchedule taints follow conditions at once (upstream's nodeUpdateQueue).
    nodes.addEventHandler({
      onAdd: (n) => this.enqueue(n.metadata.name ?? ''),
      onUpdate: (o, n) => {
        if (o.metadata.resourceVersion !== n.metadata.resourceVersion) this.enqueue(n.metadata.name ?? '');
      },
      onDelete: (o) => this.enqueue((isTombstone(o) ? o.obj : o).metadata.name ?? ''),
    });
  }

  /** doNoScheduleTaintingPass for one node. */
  async sync(name: string): Promise<void> {
    const node = this.nodeLister.get(name);
    if (!node) return;
    const taints = noScheduleTaints(node, this.clock.now());
    if (!taints) return;
    await this.ctx.clientset.core.nodes().patch(name, 'strategic', taintsPatch(node, taints));
  }

  protected override onStart(signal: AbortSignal): void {
    const tick = () => {
      if (this.stopped || signal.aborted) return;
      this.monitoring = this.monitorNodeHealth()
        .catch((err) => this.log.error('Error monitoring node health', { err: errText(err) }))
        .finally(() => {
          if (!this.stopped && !signal.aborted) this.monitorTimer = this.clock.setTimeout(tick, this.ctx.config.nodeMonitorPeriodMs);
        });
    };
    tick();
    const taint = () => {
      if (this.stopped || signal.aborted) return;
      void this.doNoExecuteTaintingPass()
        .catch((err) => this.log.error('tainting pass failed', { err: errText(err) }))
        .finally(() => {
          if (!this.stopped && !signal.aborted) this.tainterTimer = this.clock.setTimeout(taint, NODE_EVICTION_PERIOD_MS);
        });
    };
    this.tainterTimer = this.clock.setTimeout(taint, NODE_EVICTION_PERIOD_MS);
  }

  protected override onStop(): void {
    this.stopped = true;
    this.monitorTimer?.stop();
    this.tainterTimer?.stop();
  }

  /** Waits for a running monitor pass (tests). */
  idle(): Promise<void> {
    return this.monitoring;
  }

  /** The zones' states after the last pass (tests). */
  states(): ReadonlyMap<string, ZoneState> {
    return this.zoneStates;
  }

  /** monitorNodeHealth: one pass over every node (exposed as a step for tests). */
  async monitorNodeHealth(): Promise<void> {
    this.inPass = true;
    try {
      await this.monitorPass();
    } finally {
      this.inPass = false;
    }
  }

  private async monitorPass(): Promise<void> {
    const nodes = this.nodeLister.list();
    const seen = new Set<string>();
    for (const n of nodes) {
      const name = n.metadata.name ?? '';
      seen.add(name);
      this.addTainterForNewZone(n);
      if (!this.known.has(name)) {
        this.known.set(name, n);
        this.recordNodeEvent(n, 'Normal', 'RegisteredNode', `Registered Node ${name} in Controller`);
        await this.markNodeAsReachable(n);
      }
    }
    for (const [name, n] of this.known) {
      if (seen.has(name)) continue;
      this.known.delete(name);
      this.health.delete(name);
      this.recordNodeEvent(n, 'Normal', 'RemovingNode', `Removing Node ${name} from Controller`);
    }

    const zoneReady = new Map<string, Array<string | undefined>>();
    const updateNode = async (cached: Node): Promise<void> => {
      const name = cached.metadata.name ?? '';
      const r = await this.tryUpdateNodeHealth(cached);
      if (!r) return;
      if (!excludedFromDisruption(cached)) {
        const zone = zoneKey(cached);
        if (!zoneReady.has(zone)) zoneReady.set(zone, []);
        zoneReady.get(zone)!.push(r.current);
      }
      if (r.current === undefined) return;
      await this.processTaintBaseEviction(cached, r.observed);
      if (r.current !== 'True') {
        // Reported once, when the status changes; pods that arrive later on a node not Ready are marked on later
        // passes (upstream's pod update queue).
        if (r.observed === 'True') this.recordStatusChange(cached, 'NodeNotReady');
        await this.markPodsNotReady(name);
      }
    };
    // As upstream's ParallelizeUntil: a few nodes at a time, so a pass over hundreds of nodes stays short.
    const pending = [...nodes];
    await Promise.all(
      Array.from({ length: Math.min(NODE_UPDATE_WORKERS, pending.length) }, async () => {
        for (let n = pending.shift(); n; n = pending.shift()) await updateNode(n);
      }),
    );
    await this.handleDisruption(zoneReady, nodes);
  }

  /** addPodEvictorForNewZone: a tainting queue at --node-eviction-rate for a zone not seen before. */
  private addTainterForNewZone(node: Node): void {
    const zone = zoneKey(node);
    if (this.tainters.has(zone)) return;
    this.tainters.set(zone, new RateLimitedTimedQueue(this.ctx.config.nodeEvictionRate, this.clock));
    this.log.info('Initializing eviction metric for zone', { zone });
  }

  private tainter(node: Node): RateLimitedTimedQueue {
    this.addTainterForNewZone(node);
    return this.tainters.get(zoneKey(node))!;
  }

  /** Writes Unknown conditions for a stale node (retrying on conflicts with a fresh copy). */
  private async tryUpdateNodeHealth(cached: Node): Promise<{ observed: string; current: string | undefined } | undefined> {
    const name = cached.metadata.name ?? '';
    let node = cached;
    for (let attempt = 0; attempt < STATUS_UPDATE_RETRIES; attempt++) {
      const lease = this.leaseLister.namespace(NODE_LEASE_NAMESPACE).get(name);
      const renew = parseTime(lease?.spec?.renewTime);
      const r = nodeHealth({
        node,
        prev: this.health.get(name),
        leaseRenewTime: Number.isNaN(renew) ? undefined : renew,
        now: this.clock.now(),
        monitorGraceMs: this.ctx.config.nodeMonitorGracePeriodMs,
        startupGraceMs: this.ctx.config.nodeStartupGracePeriodMs,
      });
      if (!r.conditions) {
        this.health.set(name, r.health);
        return { observed: r.observedReady.status, current: r.currentReady?.status };
      }
      const copy = structuredClone(node);
      copy.status = { ...(copy.status ?? {}), conditions: r.conditions };
      try {
        await this.ctx.clientset.core.nodes().updateStatus(copy);
        this.health.set(name, r.health);
        return { observed: r.observedReady.status, current: r.currentReady?.status };
      } catch (err) {
        if (!isConflict(err)) {
          this.log.warn('updating node status failed', { node: name, err: errText(err) });
          return undefined;
        }
        const fresh = await ignoreNotFound(this.ctx.clientset.core.nodes().get(name));
        if (!fresh) return undefined;
        node = fresh;
      }
    }
    return undefined;
  }

  /** processTaintBaseEviction: queue the node for its NoExecute taint (swap at once a taint of the other kind), or clear it when Ready. */
  private async processTaintBaseEviction(node: Node, observedReady: string): Promise<void> {
    const name = node.metadata.name ?? '';
    const want = noExecuteTaintFor(observedReady);
    if (!want) {
      if (observedReady === 'True' && (await this.markNodeAsReachable(node))) this.log.v(2).info('Node is healthy again, removed all taints', { node: name });
      return;
    }
    const taints = node.spec?.taints ?? [];
    // Already tainted for the other state: swap at once (not rate-limited, as upstream).
    if (taints.some((t) => t.effect === 'NoExecute' && t.key === want.remove)) {
      if (!(await this.updateTaints(name, want.add, [want.remove])))
        this.log.error(`Failed to instantly swap ${want.remove === TAINT_UNREACHABLE ? 'UnreachableTaint to NotReadyTaint' : 'NotReadyTaint to UnreachableTaint'}. Will try again in the next cycle`, {
          node: name,
        });
      return;
    }
    // markNodeForTainting: a node still without its taint is queued anew each pass; a tainted one stays in the set.
    const tainter = this.tainter(node);
    if (!taints.some((t) => t.effect === 'NoExecute' && t.key === want.add)) tainter.remove(name);
    if (tainter.add(name)) {
      this.log.v(2).info(observedReady === 'False' ? 'Node is NotReady. Adding it to the Taint queue' : 'Node is unresponsive. Adding it to the Taint queue', {
        node: name,
        timeStamp: formatTime(this.clock.now()),
      });
    }
  }

  /** markNodeAsReachable: no NoExecute taint of this controller, and out of the queue; true when it was queued. */
  private async markNodeAsReachable(node: Node): Promise<boolean> {
    const name = node.metadata.name ?? '';
    if ((node.spec?.taints ?? []).some((t) => t.effect === 'NoExecute' && (t.key === TAINT_UNREACHABLE || t.key === TAINT_NOT_READY))) {
      if (!(await this.updateTaints(name, undefined, [TAINT_UNREACHABLE, TAINT_NOT_READY]))) return false;
    }
    return this.tainter(node).remove(name);
  }

  /**
   * doNoExecuteTaintingPass: taint queued nodes as each zone's limiter
   * allows. It waits while a monitor pass runs, so the nodes a pass queues
   * and the zone rates it sets take effect together (upstream's pass, on 8
   * workers in one process, mostly ends within one 100 ms tainting period;
   * here its writes go through a loaded apiserver).
   */
  async doNoExecuteTaintingPass(): Promise<void> {
    if (this.inPass) return;
    for (const tainter of this.tainters.values()) {
      await tainter.work(async (name): Promise<TryResult> => {
        const node = this.nodeLister.get(name);
        if (!node) {
          this.log.info('Node no longer present in nodeLister', { node: name });
          return { done: true };
        }
        const ready = getNodeCondition(node.status, 'Ready').condition;
        if (!ready) {
          this.log.info('Failed to get NodeCondition from the node status', { node: name });
          return { done: false, retryMs: NO_CONDITION_RETRY_MS };
        }
        const want = noExecuteTaintFor(ready.status);
        if (!want) return { done: true }; // Ready again: nothing to taint.
        return (await this.updateTaints(name, want.add, [want.remove])) ? { done: true } : { done: false, retryMs: 0 };
      });
    }
  }

  /** SwapNodeControllerTaint on a fresh copy of the node; false when the write failed. */
  private async updateTaints(name: string, add: string | undefined, remove: string[]): Promise<boolean> {
    for (let attempt = 0; attempt < STATUS_UPDATE_RETRIES; attempt++) {
      const node = attempt === 0 ? this.nodeLister.get(name) : await ignoreNotFound(this.ctx.clientset.core.nodes().get(name));
      if (!node) return true;
      const taints = swapNoExecuteTaint(node, add, remove, this.clock.now());
      if (!taints) return true;
      try {
        await this.ctx.clientset.core.nodes().patch(name, 'strategic', taintsPatch(node, taints));
        return true;
      } catch (err) {
        if (!isConflict(err)) {
          this.log.warn(`unable to taint ${add ?? '-'} unresponsive Node`, { node: name, err: errText(err) });
          return false;
        }
      }
    }
    return false;
  }

  /** MarkPodsNotReady: pods on a node that stopped answering are not ready. */
  private async markPodsNotReady(nodeName: string): Promise<void> {
    const pods = this.pods.getIndexer().byIndex(NODE_NAME_INDEX, nodeName);
    for (const pod of pods) {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      const copy = structuredClone(pod);
      copy.status!.conditions = copy.status!.conditions!.map((c) => (c.type === 'Ready' ? { ...c, status: 'False' as const, lastTransitionTime: formatTime(this.clock.now()) } : c));
      try {
        await this.ctx.clientset.core.pods(pod.metadata.namespace ?? 'default').updateStatus(copy);
        this.recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
      } catch (err) {
        this.log.info('marking pod not ready failed', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: errText(err) });
      }
    }
  }

  /** handleDisruption: the zones' states and tainting rates for this pass (planDisruption), and master disruption mode. */
  private async handleDisruption(zoneReady: Map<string, Array<string | undefined>>, nodes: Node[]): Promise<void> {
    const plan = planDisruption(this.zoneStates, zoneReady, this.ctx.config);
    for (const zone of plan.newZones) this.log.error('Setting initial state for unseen zone', { zone });
    if (plan.mode === 'enter') {
      this.log.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const n of nodes) await this.markNodeAsReachable(n);
    } else if (plan.mode === 'exit') {
      this.log.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      // Every node gets a fresh grace period.
      const now = this.clock.now();
      for (const n of nodes) {
        const h = this.health.get(n.metadata.name ?? '');
        if (h) this.health.set(n.metadata.name ?? '', { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
    }
    for (const { zone, state } of plan.changed) this.log.info('Controller detected that zone is now in new state', { zone, newState: state });
    for (const [zone, qps] of plan.limiters) this.tainters.get(zone)?.swapLimiter(qps);
    this.zoneStates = plan.states;
  }

  /** RecordNodeEvent: "Node <name> event: <message>". */
  private recordNodeEvent(node: Node, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const name = node.metadata.name ?? '';
    this.recorder.eventf({ kind: 'Node', name, uid: node.metadata.uid ?? name, namespace: '' }, type, reason, 'Node %s event: %s', name, message);
  }

  /** RecordNodeStatusChange: "Node <name> status is now: <status>". */
  private recordStatusChange(node: Node, status: string): void {
    const name = node.metadata.name ?? '';
    this.recorder.eventf({ kind: 'Node', name, uid: node.metadata.uid ?? name, namespace: '' }, 'Normal', status, 'Node %s status is now: %s', name, status);
  }
}
