// flowcontrol.NewTokenBucketRateLimiter's TryAccept: qps tokens per second up
// to burst; qps 0 accepts nothing (upstream's fake "always false" limiter).

import type { Clock } from '@kubelab/client';

export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    public qps: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }

  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until a token will be there (Infinity at qps 0). */
  msUntilToken(): number {
    if (this.qps <= 0) return Number.POSITIVE_INFINITY;
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.qps) * 1000);
  }

  /** Changes the rate, keeping the tokens (SwapLimiter). */
  setQps(qps: number): void {
    this.refill();
    this.qps = qps;
  }
}
