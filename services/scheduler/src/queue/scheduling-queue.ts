// The scheduling queue (internal/queue PriorityQueue): activeQ (pods ready to
// try, by the profile's QueueSort), backoffQ (failed pods waiting out a
// per-pod backoff of 1 s doubling to 10 s) and unschedulablePods (rejected
// pods parked until a cluster event their rejecting plugins care about, or
// 5 minutes). Time comes from an injected clock so tests step it by hand.

import type { Pod } from '@kubelab/api';
import { matchClusterEvent, type ClusterEvent } from '../framework/events.js';
import type { ClusterEventWithHint, QueuedPodInfo } from '../framework/interface.js';
import { podKey } from '../framework/node-info.js';
import type { Status } from '../framework/status.js';
import { Heap } from './heap.js';
import { Nominator } from './nominator.js';

export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** podMaxInUnschedulablePodsDuration */
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;

export interface SchedulingQueueOptions {
  now?: () => number;
  less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  /** PreEnqueue plugins (SchedulingGates); a non-success keeps the pod gated. */
  preEnqueue?: (pod: Pod) => Status | undefined;
  /** Plugin name → events that may make a pod it rejected schedulable. */
  eventsByPlugin?: Map<string, ClusterEventWithHint[]>;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulableMs?: number;
  /** Shared with the frameworks, which count nominated pods in Filter. */
  nominator?: Nominator;
}

export type QueueName = 'active' | 'backoff' | 'unschedulable' | 'gated';

export class SchedulingQueue {
  private readonly now: () => number;
  private readonly activeQ: Heap<QueuedPodInfo>;
  private readonly backoffQ: Heap<QueuedPodInfo>;
  private readonly unschedulable = new Map<string, QueuedPodInfo>();
  /** Popped, not yet done (being scheduled or bound). */
  private readonly inFlight = new Map<string, QueuedPodInfo>();
  private schedulingCycle = 0;
  /** The cycle at which the last move request (relevant cluster event) arrived. */
  private moveRequestCycle = -1;
  private closed = false;
  private waiters: (() => void)[] = [];
  private readonly initialBackoff: number;
  private readonly maxBackoff: number;
  private readonly maxInUnschedulable: number;
  private readonly preEnqueue: ((pod: Pod) => Status | undefined) | undefined;
  private readonly eventsByPlugin: Map<string, ClusterEventWithHint[]>;
  /** Pods waiting for the space preemption freed for them (the PriorityQueue embeds it upstream). */
  readonly nominator: Nominator;
  /** Called when a pod enters/leaves a sub-queue (metrics). */
  onChange: (() => void) | undefined;

  constructor(opts: SchedulingQueueOptions) {
    this.now = opts.now ?? Date.now;
    this.activeQ = new Heap((p) => p.key, opts.less);
    this.backoffQ = new Heap(
      (p) => p.key,
      (a, b) => this.backoffExpiry(a) < this.backoffExpiry(b),
    );
    this.initialBackoff = opts.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS;
    this.maxBackoff = opts.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS;
    this.maxInUnschedulable = opts.podMaxInUnschedulableMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_MS;
    this.preEnqueue = opts.preEnqueue;
    this.eventsByPlugin = opts.eventsByPlugin ?? new Map();
    this.nominator = opts.nominator ?? new Nominator();
  }

  /** Backoff for the n-th attempt: initial × 2^(n−1), capped (calculateBackoffDuration). */
  backoffDuration(attempts: number): number {
    let d = this.initialBackoff;
    for (let i = 1; i < attempts; i++) {
      if (d > this.maxBackoff - d) return this.maxBackoff;
      d += d;
    }
    return Math.min(d, this.maxBackoff);
  }

  backoffExpiry(p: QueuedPodInfo): number {
    return p.timestamp + this.backoffDuration(p.attempts);
  }

  isPodBackingOff(p: QueuedPodInfo): boolean {
    return p.attempts > 0 && this.backoffExpiry(p) > this.now();
  }

  private newQueuedPodInfo(pod: Pod): QueuedPodInfo {
    const now = this.now();
    return {
      pod,
      key: podKey(pod),
      timestamp: now,
      initialAttemptTimestamp: now,
      attempts: 0,
      unschedulablePlugins: new Set(),
      pendingPlugins: new Set(),
      gatingPlugin: undefined,
    };
  }

  /** Runs PreEnqueue; a gated pod is parked in unschedulablePods. Returns whether it went to activeQ. */
  private moveToActiveQ(p: QueuedPodInfo): boolean {
    const s = this.preEnqueue?.(p.pod);
    if (s && !s.isSuccess()) {
      p.gatingPlugin = s.plugin || 'PreEnqueue';
      this.unschedulable.set(p.key, p);
      return false;
    }
    p.gatingPlugin = undefined;
    this.unschedulable.delete(p.key);
    this.backoffQ.delete(p.key);
    this.activeQ.addOrUpdate(p);
    this.wake();
    return true;
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  private changed(): void {
    this.onChange?.();
  }

  /** A new unscheduled pod (informer Add). */
  add(pod: Pod): void {
    const key = podKey(pod);
    if (this.activeQ.has(key) || this.backoffQ.has(key) || this.unschedulable.has(key) || this.inFlight.has(key)) return this.update(pod, pod);
    this.nominator.addNominatedPod(pod);
    this.moveToActiveQ(this.newQueuedPodInfo(pod));
    this.changed();
  }

  /** An unscheduled pod changed (informer Update). */
  update(oldPod: Pod, newPod: Pod): void {
    const key = podKey(newPod);
    this.nominator.updateNominatedPod(oldPod, newPod);
    for (const q of [this.activeQ, this.backoffQ]) {
      const p = q.get(key);
      if (p) {
        p.pod = newPod;
        q.addOrUpdate(p);
        return;
      }
    }
    const inFlight = this.inFlight.get(key);
    if (inFlight) {
      inFlight.pod = newPod;
      return;
    }
    const p = this.unschedulable.get(key);
    if (p) {
      p.pod = newPod;
      if (p.gatingPlugin || podSpecChanged(oldPod, newPod)) {
        if (!p.gatingPlugin && this.isPodBackingOff(p)) {
          this.unschedulable.delete(key);
          this.backoffQ.addOrUpdate(p);
        } else this.moveToActiveQ(p);
        this.changed();
      }
      return;
    }
    this.add(newPod);
  }

  /** The pod is gone, or got assigned by someone else. */
  delete(pod: Pod): void {
    const key = podKey(pod);
    this.nominator.deleteNominatedPodIfExists(pod);
    this.activeQ.delete(key);
    this.backoffQ.delete(key);
    this.unschedulable.delete(key);
    this.changed();
  }

  /** Waits for the next pod; undefined once the queue is closed. */
  async pop(): Promise<QueuedPodInfo | undefined> {
    for (;;) {
      const p = this.tryPop();
      if (p || this.closed) return p;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** The highest-priority active pod, or undefined; counts an attempt and a scheduling cycle. */
  tryPop(): QueuedPodInfo | undefined {
    const p = this.activeQ.pop();
    if (!p) return undefined;
    p.attempts++;
    this.schedulingCycle++;
    this.inFlight.set(p.key, p);
    this.changed();
    return p;
  }

  /** The cycle number of the last pop (passed back to addUnschedulableIfNotPresent). */
  get currentSchedulingCycle(): number {
    return this.schedulingCycle;
  }

  /** The pod's cycle is over (scheduled, bound, or requeued). */
  done(key: string): void {
    this.inFlight.delete(key);
  }

  /**
   * A pod that failed its cycle: to backoffQ when it failed by error or a
   * relevant event arrived during its cycle, else to unschedulablePods.
   */
  addUnschedulableIfNotPresent(p: QueuedPodInfo, podSchedulingCycle: number): void {
    const key = p.key;
    this.inFlight.delete(key);
    if (this.activeQ.has(key) || this.backoffQ.has(key) || this.unschedulable.has(key)) return;
    p.timestamp = this.now();
    const rejectors = p.unschedulablePlugins.size + p.pendingPlugins.size;
    if (this.moveRequestCycle >= podSchedulingCycle || rejectors === 0) this.backoffQ.addOrUpdate(p);
    else this.unschedulable.set(key, p);
    this.changed();
  }

  /** Moves backoffQ pods whose backoff has expired to activeQ (flushBackoffQCompleted, every second). */
  flushBackoffQCompleted(): number {
    let n = 0;
    const now = this.now();
    for (;;) {
      const top = this.backoffQ.peek();
      if (!top || this.backoffExpiry(top) > now) break;
      this.backoffQ.pop();
      this.moveToActiveQ(top);
      n++;
    }
    if (n > 0) this.changed();
    return n;
  }

  /** Pods parked longer than podMaxInUnschedulablePodsDuration go back (every 30 s upstream). */
  flushUnschedulablePodsLeftover(): number {
    const now = this.now();
    const stale: QueuedPodInfo[] = [];
    for (const p of this.unschedulable.values()) {
      if (p.gatingPlugin) continue;
      if (now - p.timestamp > this.maxInUnschedulable) stale.push(p);
    }
    this.movePods(stale);
    return stale.length;
  }

  /** A cluster event: move every parked pod a rejecting plugin registered this event for. */
  moveAllToActiveOrBackoffQueue(ev: ClusterEvent, oldObj?: unknown, newObj?: unknown): number {
    const moving: QueuedPodInfo[] = [];
    for (const p of this.unschedulable.values()) {
      if (p.gatingPlugin) continue;
      if (this.podMatchesEvent(p, ev, oldObj, newObj)) moving.push(p);
    }
    this.movePods(moving);
    this.moveRequestCycle = this.schedulingCycle;
    return moving.length;
  }

  private movePods(ps: QueuedPodInfo[]): void {
    for (const p of ps) {
      if (this.isPodBackingOff(p)) {
        this.unschedulable.delete(p.key);
        this.backoffQ.addOrUpdate(p);
      } else this.moveToActiveQ(p);
    }
    if (ps.length > 0) this.changed();
  }

  podMatchesEvent(p: QueuedPodInfo, ev: ClusterEvent, oldObj?: unknown, newObj?: unknown): boolean {
    if (ev.resource === '*') return true;
    const rejectors = [...p.unschedulablePlugins, ...p.pendingPlugins];
    if (rejectors.length === 0) return true;
    for (const name of rejectors) {
      for (const reg of this.eventsByPlugin.get(name) ?? []) {
        if (!matchClusterEvent(reg.event, ev)) continue;
        if (!reg.hint || reg.hint(p.pod, oldObj, newObj)) return true;
      }
    }
    return false;
  }

  /** Counts per sub-queue, as the scheduler_pending_pods gauge reports them. */
  pendingCounts(): Record<QueueName, number> {
    let gated = 0;
    for (const p of this.unschedulable.values()) if (p.gatingPlugin) gated++;
    return { active: this.activeQ.size, backoff: this.backoffQ.size, unschedulable: this.unschedulable.size - gated, gated };
  }

  /** Where a pod is (for tests and debugging). */
  whereIs(key: string): QueueName | 'inFlight' | undefined {
    if (this.activeQ.has(key)) return 'active';
    if (this.backoffQ.has(key)) return 'backoff';
    const u = this.unschedulable.get(key);
    if (u) return u.gatingPlugin ? 'gated' : 'unschedulable';
    if (this.inFlight.has(key)) return 'inFlight';
    return undefined;
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.activeQ.get(key) ?? this.backoffQ.get(key) ?? this.unschedulable.get(key) ?? this.inFlight.get(key);
  }

  close(): void {
    this.closed = true;
    this.wake();
  }
}

/** Whether an update changed more than bookkeeping (upstream isPodUpdated ignores resourceVersion, generation and status). */
export function podSpecChanged(a: Pod, b: Pod): boolean {
  const strip = (p: Pod) => JSON.stringify({ labels: p.metadata.labels, annotations: p.metadata.annotations, spec: p.spec });
  return strip(a) !== strip(b);
}
