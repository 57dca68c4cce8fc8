// client-go's RateLimitingQueue: a delaying queue whose retries wait as long
// as the rate limiter says (per-item backoff, overall bucket).

import { DelayingQueue } from './delaying.js';
import type { QueueConfig } from './queue.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.js';

export interface RateLimitingQueueConfig<T> extends QueueConfig {
  rateLimiter?: RateLimiter<T>;
}

export class RateLimitingQueue<T> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(config: RateLimitingQueueConfig<T> = {}) {
    super(config);
    this.rateLimiter = config.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
  }

  /** Adds item once the rate limiter allows (retry after a failure). */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Stops tracking item's failures (call after a successful sync). */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** Times item has been requeued through addRateLimited since its last forget. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}

export function newRateLimitingQueue<T = string>(config: RateLimitingQueueConfig<T> = {}): RateLimitingQueue<T> {
  return new RateLimitingQueue<T>(config);
}
