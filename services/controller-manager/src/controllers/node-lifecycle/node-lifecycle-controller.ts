// The node lifecycle controller (pkg/controller/nodelifecycle): every
// --node-monitor-period it checks each node's heartbeat (its Lease in
// kube-node-lease and its Ready condition). A node silent for
// --node-monitor-grace-period gets Unknown conditions ("Kubelet stopped
// posting node status."), its pods are marked not ready, and it is tainted
// node.kubernetes.io/unreachable:NoExecute (not-ready when the kubelet says
// Ready=False) at a per-zone rate of --node-eviction-rate nodes per second.
// NoSchedule taints follow conditions as they change (an event-driven queue).

import { formatTime, getNodeCondition, isConflict, parseTime, type Lease, type Node, type Pod } from '@kubelab/api';
import { BucketRateLimiter, isTombstone, NODE_NAME_INDEX, type EventRecorder, type Lister, type SharedIndexInformer, type Timer } from '@kubelab/client';
import { errText, ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import {
  computeZoneState,
  nodeHealth,
  noExecuteTaintFor,
  noScheduleTaints,
  swapNoExecuteTaint,
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  withTaints,
  zoneEvictionRate,
  zoneKey,
  type NodeHealth,
  type ZoneState,
} from './decisions.js';

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Retries of a node status write after a conflict (nodeStatusUpdateRetry). */
const STATUS_UPDATE_RETRIES = 5;
/** Burst of the per-zone tainting limiter (evictionLimiterBurst). */
const EVICTION_BURST = 1;

interface ZoneTainter {
  limiter: BucketRateLimiter<string>;
  /** Nodes waiting to be tainted, in arrival order. */
  queue: Set<string>;
}

export class NodeLifecycleController extends QueueController {
  private readonly nodeLister: Lister<Node>;
  private readonly leaseLister: Lister<Lease>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly recorder: EventRecorder;
  private readonly health = new Map<string, NodeHealth>();
  private readonly known = new Map<string, Node>();
  private readonly zones = new Map<string, ZoneTainter>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private monitorTimer: Timer | undefined;
  private tainterTimer: Timer | undefined;
  private stopped = false;
  private monitoring: Promise<void> = Promise.resolve();

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
    await this.ctx.clientset.core.nodes().update(withTaints(node, taints));
  }

  protected override onStart(signal: AbortSignal): void {
    const tick = () => {
      if (this.stopped || signal.aborted) return;
      this.monitoring = this.monitorNodeHealth()
        .catch((err) => this.log.error('monitoring node health failed', { err: errText(err) }))
        .finally(() => {
          if (!this.stopped && !signal.aborted) this.monitorTimer = this.clock.setTimeout(tick, this.ctx.config.nodeMonitorPeriodMs);
        });
    };
    tick();
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

  /** monitorNodeHealth: one pass over every node (exposed as a step for tests). */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.nodeLister.list();
    const seen = new Set<string>();
    for (const n of nodes) {
      const name = n.metadata.name ?? '';
      seen.add(name);
      if (!this.known.has(name)) {
        this.known.set(name, n);
        this.recordNodeEvent(n, 'Normal', 'RegisteredNode', `Registered Node ${name} in Controller`);
      }
    }
    for (const [name, n] of this.known) {
      if (seen.has(name)) continue;
      this.known.delete(name);
      this.health.delete(name);
      for (const z of this.zones.values()) z.queue.delete(name);
      this.recordNodeEvent(n, 'Normal', 'RemovingNode', `Removing Node ${name} from Controller`);
    }

    const zoneReady = new Map<string, Array<string | undefined>>();
    for (const cached of nodes) {
      const name = cached.metadata.name ?? '';
      const r = await this.tryUpdateNodeHealth(cached);
      if (!r) continue;
      const zone = zoneKey(cached);
      if (!zoneReady.has(zone)) zoneReady.set(zone, []);
      zoneReady.get(zone)!.push(r.current);
      if (r.current === undefined) continue;
      this.processTaintBaseEviction(cached, r.observed);
      if (r.current !== 'True') {
        if (r.observed === 'True') this.recordStatusChange(cached, 'NodeNotReady');
        await this.markPodsNotReady(name);
      }
    }
    await this.handleDisruption(zoneReady, nodes);
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

  /** processTaintBaseEviction: queue the node for its NoExecute taint, or clear it when Ready. */
  private processTaintBaseEviction(node: Node, observedReady: string): void {
    const name = node.metadata.name ?? '';
    const want = noExecuteTaintFor(observedReady);
    const zone = this.zone(zoneKey(node));
    if (!want) {
      zone.queue.delete(name);
      if (swapNoExecuteTaint(node, undefined, [TAINT_NOT_READY, TAINT_UNREACHABLE], this.clock.now())) {
        void this.updateTaints(name, undefined, [TAINT_NOT_READY, TAINT_UNREACHABLE]);
      }
      return;
    }
    const taints = node.spec?.taints ?? [];
    const hasWanted = taints.some((t) => t.effect === 'NoExecute' && t.key === want.add);
    const hasOpposite = taints.some((t) => t.effect === 'NoExecute' && t.key === want.remove);
    // Already tainted for the other state: swap at once (not rate-limited, as upstream).
    if (hasOpposite) {
      void this.updateTaints(name, want.add, [want.remove]);
      return;
    }
    if (!hasWanted) {
      zone.queue.add(name);
      this.scheduleTainting(0);
    }
  }

  private zone(key: string): ZoneTainter {
    let z = this.zones.get(key);
    if (!z) this.zones.set(key, (z = { limiter: new BucketRateLimiter<string>(this.ctx.config.nodeEvictionRate, EVICTION_BURST, this.clock), queue: new Set() }));
    return z;
  }

  private scheduleTainting(ms: number): void {
    if (this.stopped || this.tainterTimer) return;
    this.tainterTimer = this.clock.setTimeout(() => {
      this.tainterTimer = undefined;
      void this.doNoExecuteTaintingPass();
    }, ms);
  }

  /** doNoExecuteTaintingPass: taint queued nodes as each zone's limiter allows. */
  async doNoExecuteTaintingPass(): Promise<void> {
    let next = Number.POSITIVE_INFINITY;
    for (const z of this.zones.values()) {
      for (const name of [...z.queue]) {
        if (!z.limiter.tryTake()) {
          next = Math.min(next, z.limiter.msUntilToken());
          break;
        }
        z.queue.delete(name);
        const node = this.nodeLister.get(name);
        const want = noExecuteTaintFor(node ? getNodeCondition(node.status, 'Ready').condition?.status : undefined);
        if (!node || !want) continue;
        await this.updateTaints(name, want.add, [want.remove]);
      }
    }
    if (Number.isFinite(next)) this.scheduleTainting(next);
  }

  /** Writes a NoExecute taint swap on a fresh copy of the node. */
  private async updateTaints(name: string, add: string | undefined, remove: string[]): Promise<void> {
    for (let attempt = 0; attempt < STATUS_UPDATE_RETRIES; attempt++) {
      const node = attempt === 0 ? this.nodeLister.get(name) : await ignoreNotFound(this.ctx.clientset.core.nodes().get(name));
      if (!node) return;
      const taints = swapNoExecuteTaint(node, add, remove, this.clock.now());
      if (!taints) return;
      try {
        await this.ctx.clientset.core.nodes().update(withTaints(node, taints));
        return;
      } catch (err) {
        if (!isConflict(err)) {
          this.log.warn('updating node taints failed', { node: name, err: errText(err) });
          return;
        }
      }
    }
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

  /**
   * handleDisruption: each zone's tainting rate follows its state; when
   * every zone is fully disrupted (the control plane is probably the one cut
   * off) no node is tainted and NoExecute taints are lifted.
   */
  private async handleDisruption(zoneReady: Map<string, Array<string | undefined>>, nodes: Node[]): Promise<void> {
    const states = new Map<string, { state: ZoneState; size: number }>();
    for (const [zone, statuses] of zoneReady) states.set(zone, { state: computeZoneState(statuses, this.ctx.config.unhealthyZoneThreshold).state, size: statuses.length });
    const allFull = states.size > 0 && [...states.values()].every((s) => s.state === 'FullDisruption');
    const wasAllFull = this.zoneStates.size > 0 && [...this.zoneStates.values()].every((s) => s === 'FullDisruption');
    if (allFull) {
      if (!wasAllFull) this.log.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const z of this.zones.values()) {
        z.queue.clear();
        z.limiter.setQps(0);
      }
      for (const n of nodes) {
        if ((n.spec?.taints ?? []).some((t) => t.effect === 'NoExecute' && (t.key === TAINT_UNREACHABLE || t.key === TAINT_NOT_READY))) {
          await this.updateTaints(n.metadata.name ?? '', undefined, [TAINT_NOT_READY, TAINT_UNREACHABLE]);
        }
      }
    } else {
      if (wasAllFull) this.log.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      for (const [zone, s] of states) this.zone(zone).limiter.setQps(zoneEvictionRate(s.state, s.size, this.ctx.config));
    }
    this.zoneStates.clear();
    for (const [zone, s] of states) this.zoneStates.set(zone, s.state);
  }

  /** RecordNodeEvent: "Node <name> event: <message>". */
  private recordNodeEvent(node: Node, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const name = node.metadata.name ?? '';
    this.recorder.eventf({ kind: 'Node', name, uid: node.metadata.uid ?? name, namespace: '' }, type, reason, 'Node %s event: %s', name, message);
  }

  /** RecordNodeStatusChange: "Node <name> status is now: <status>". */
  private recordStatusChange(node: Node, status: string): void {
    const name = node.metadata.name ?? '';
    this.recorder.eventf({ kind: 'Node', name, uid: name, namespace: '' }, 'Normal', status, 'Node %s status is now: %s', name, status);
  }
}
