// Per-key exponential back-off (upstream client-go util/flowcontrol.Backoff),
// used for CrashLoopBackOff and image pull back-off: the first failure waits
// `initial`, each further one doubles up to `max`; an entry whose last
// failure is older than 2 × max starts over (so 5 min max → reset after 10 min).

import type { Clock } from './clock.js';

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

  /** Records a failure at eventTime: first → initial, then doubled, capped at max. */
  next(key: string, eventTime: number): void {
    const e = this.entries.get(key);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) {
      this.entries.set(key, { backoff: this.initial, lastUpdate: eventTime });
      return;
    }
    e.backoff = Math.min(e.backoff * 2, this.max);
    e.lastUpdate = eventTime;
  }

  /** Whether `now` is still inside the back-off window that began at eventTime. */
  isInBackOffSince(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    if (this.hasExpired(this.clock.now(), e.lastUpdate)) return false;
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
