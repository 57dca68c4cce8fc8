// client-go's workqueue rate limiters: how long an item waits before it is
// retried. The default controller limiter is the max of a per-item
// exponential backoff and an overall token bucket.

import { realClock, type Clock } from '../util/clock.js';

export interface RateLimiter<T> {
  /** Milliseconds item must wait before its next try. */
  when(item: T): number;
  /** Forgets item's history (after a success). */
  forget(item: T): void;
  /** Failures recorded for item. */
  numRequeues(item: T): number;
}

/** base * 2^failures, capped at max (ItemExponentialFailureRateLimiter). */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return !Number.isFinite(backoff) || backoff > this.maxDelayMs ? this.maxDelayMs : backoff;
  }
  forget(item: T): void {
    this.failures.delete(item);
  }
  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** Fast delay for the first maxFastAttempts, slow after (ItemFastSlowRateLimiter). */
export class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(
    readonly fastDelayMs: number,
    readonly slowDelayMs: number,
    readonly maxFastAttempts: number,
  ) {}
  when(item: T): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.maxFastAttempts ? this.fastDelayMs : this.slowDelayMs;
  }
  forget(item: T): void {
    this.failures.delete(item);
  }
  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * One token bucket for all items (BucketRateLimiter over rate.Limiter): each
 * call reserves a token; the wait is how long until that token exists.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;
  constructor(
    private rate: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Tokens per second. */
  get qps(): number {
    return this.rate;
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }

  when(_item: T): number {
    this.refill();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.rate) * 1000;
  }

  /** Takes a token only if one is available now (flowcontrol's TryAccept); qps 0 accepts nothing. */
  tryTake(): boolean {
    if (this.rate <= 0) return false;
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until tryTake can succeed (Infinity at qps 0). */
  msUntilToken(): number {
    if (this.rate <= 0) return Number.POSITIVE_INFINITY;
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.rate) * 1000);
  }

  /**
   * Changes the rate, keeping the tokens earned so far (the node lifecycle
   * controller's SwapLimiter when a zone's health changes; 0 stops evictions).
   */
  setQps(qps: number): void {
    this.refill();
    this.rate = qps;
  }

  forget(_item: T): void {}
  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest wait of several limiters (MaxOfRateLimiter). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];
  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }
  when(item: T): number {
    let ret = 0;
    for (const l of this.limiters) ret = Math.max(ret, l.when(item));
    return ret;
  }
  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }
  numRequeues(item: T): number {
    let ret = 0;
    for (const l of this.limiters) ret = Math.max(ret, l.numRequeues(item));
    return ret;
  }
}

/** DefaultControllerRateLimiter: 5 ms doubling to 1000 s per item, and 10 qps / burst 100 overall. */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1000_000), new BucketRateLimiter<T>(10, 100, clock));
}
