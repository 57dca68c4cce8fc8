// Per-key exponential back-off (upstream client-go util/flowcontrol.Backoff),
// used for CrashLoopBackOff and image pull back-off: the first failure waits
// `initial`, each further one doubles up to `max`; an event more than 2 × max
// after the last update starts over (so a container that ran 10 min before it
// failed again is back at 10 s).

import type { Clock } from '@kubelab/client';

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly initial: number,
    readonly max: number,
    private readonly clock: Clock,
  ) {}

  /** Current delay for key (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /**
   * Records a failure at eventTime: first → initial, then doubled, capped at
   * max. The update is stamped now, as upstream: for a crash loop that is the
   * restart, so the next exit measures how long the new instance ran.
   */
  next(key: string, eventTime: number): void {
    const e = this.entries.get(key);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) {
      this.entries.set(key, { backoff: this.initial, lastUpdate: this.clock.now() });
      return;
    }
    e.backoff = Math.min(e.backoff * 2, this.max);
    e.lastUpdate = this.clock.now();
  }

  /** Whether `now` is still inside the back-off window that began at eventTime (upstream IsInBackOffSince). */
  isInBackOffSince(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) return false;
    return this.clock.now() - eventTime < e.backoff;
  }

  /** Whether eventTime is inside the window that began at the last recorded failure (upstream IsInBackOffSinceUpdate). */
  isInBackOffSinceUpdate(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoff;
  }

  /** When the window that began at eventTime ends (for scheduling a retry). */
  retryAt(key: string, eventTime: number): number {
    return eventTime + this.get(key);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Drops entries idle for more than 2 × max (upstream GC). */
  gc(): void {
    const now = this.clock.now();
    for (const [k, e] of this.entries) if (this.hasExpired(now, e.lastUpdate)) this.entries.delete(k);
  }

  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.max * 2;
  }
}
