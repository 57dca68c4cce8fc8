// The node lifecycle controller's per-zone tainting queue (upstream
// pkg/controller/nodelifecycle/scheduler RateLimitedTimedQueue): a set of
// node names, each queued once until it is explicitly removed, worked off
// under a token bucket whose rate follows the zone's state.
//
// - add() queues a node unless it is already in the set (queued, or already
//   processed and not removed since: a tainted node is not queued again).
// - remove() takes it out of the set, so it may be added again (the node is
//   Ready again, or its taint went away).
// - work() takes a token per node; a node whose action fails goes back into
//   the queue after the wait the action asked for.
// - swapLimiter() changes the rate: 0 never accepts; a positive rate gets a
//   new bucket (burst 1), drained when the old one had no token left, so a
//   zone that just tainted a node does not taint another at once.

import type { Clock } from '@kubelab/client';

/** Burst of every zone's limiter (EvictionRateLimiterBurst). */
export const EVICTION_BURST = 1;

/** A token bucket (flowcontrol's tokenBucketRateLimiter), full when created; qps 0 accepts nothing. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    readonly qps: number,
    private readonly clock: Clock,
    readonly burst = EVICTION_BURST,
  ) {
    this.tokens = qps > 0 ? burst : 0;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    if (this.qps > 0) this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }

  /** TryAccept: takes a token when one is there. */
  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

interface Item {
  value: string;
  processAt: number;
  seq: number;
}

/** What an action says: done, or try this node again after `retryMs`. */
export type TryResult = { done: true } | { done: false; retryMs: number };

export class RateLimitedTimedQueue {
  private readonly set = new Set<string>();
  private queue: Item[] = [];
  private seq = 0;
  private limiter: TokenBucket;

  constructor(
    qps: number,
    private readonly clock: Clock,
  ) {
    this.limiter = new TokenBucket(qps, clock);
  }

  get qps(): number {
    return this.limiter.qps;
  }

  /** Nodes waiting in the queue (not those processed and kept in the set). */
  queued(): string[] {
    return this.queue.map((i) => i.value);
  }

  /** Whether the node is in the set (queued, or processed and not removed). */
  has(value: string): boolean {
    return this.set.has(value);
  }

  /** Queues the node unless it is in the set; true when it was added. */
  add(value: string): boolean {
    if (this.set.has(value)) return false;
    this.set.add(value);
    this.queue.push({ value, processAt: this.clock.now(), seq: this.seq++ });
    this.sort();
    return true;
  }

  /** Takes the node out of the queue and the set; true when it was in the set. */
  remove(value: string): boolean {
    if (!this.set.delete(value)) return false;
    this.queue = this.queue.filter((i) => i.value !== value);
    return true;
  }

  clear(): void {
    this.set.clear();
    this.queue = [];
  }

  /** SwapLimiter: a new rate, only when it differs. */
  swapLimiter(qps: number): void {
    if (this.limiter.qps === qps) return;
    const next = new TokenBucket(Math.max(0, qps), this.clock);
    // Waiting on the old limiter: drain the new one (burst 1), as upstream.
    if (qps > 0 && !this.limiter.tryAccept()) next.tryAccept();
    this.limiter = next;
  }

  /**
   * Try: works the queue head first while the limiter gives tokens and the
   * head is due. A finished node leaves the queue but stays in the set.
   */
  async work(action: (value: string) => Promise<TryResult>): Promise<void> {
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      if (!this.limiter.tryAccept()) return;
      const now = this.clock.now();
      if (now < head.processAt) return;
      const r = await action(head.value);
      const at = this.queue.findIndex((i) => i.value === head!.value);
      if (at < 0) continue; // removed while the action ran
      if (r.done) this.queue.splice(at, 1);
      else {
        this.queue[at] = { ...this.queue[at]!, processAt: now + r.retryMs + 1 };
        this.sort();
      }
    }
  }

  private sort(): void {
    this.queue.sort((a, b) => a.processAt - b.processAt || a.seq - b.seq);
  }
}
