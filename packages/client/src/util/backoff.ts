// Exponential backoff with jitter (wait.Backoff / the reflector's backoff
// manager): delays grow by factor up to cap and reset after a quiet period.

import type { Clock } from './clock.js';

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor?: number;
  /** Adds up to jitter*delay at random (upstream jitter 1.0 for reflectors). */
  jitter?: number;
  /** Back to initial when the last failure is older than this. */
  resetAfterMs?: number;
  random?: () => number;
}

export class Backoff {
  private current: number;
  private lastFailure = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly opts: BackoffOptions,
    private readonly clock: Clock,
  ) {
    this.current = opts.initialMs;
  }

  /** The next delay in ms, growing each call. */
  next(): number {
    const now = this.clock.now();
    if (this.opts.resetAfterMs !== undefined && now - this.lastFailure > this.opts.resetAfterMs) {
      this.current = this.opts.initialMs;
    }
    this.lastFailure = now;
    const base = this.current;
    this.current = Math.min(this.opts.maxMs, this.current * (this.opts.factor ?? 2));
    const jitter = this.opts.jitter ? base * this.opts.jitter * (this.opts.random ?? Math.random)() : 0;
    return Math.min(this.opts.maxMs, base + jitter);
  }

  reset(): void {
    this.current = this.opts.initialMs;
    this.lastFailure = Number.NEGATIVE_INFINITY;
  }
}
