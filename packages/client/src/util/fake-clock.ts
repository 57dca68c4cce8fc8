// A clock tests move by hand (k8s.io/utils/clock/testing.FakeClock): timers
// fire in deadline order while stepping, with microtasks flushed between
// them so async loops observe each tick.

import { sleepOn, type Clock, type Timer } from './clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  live: boolean;
}

export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start: number | string = '2026-01-01T00:00:00Z') {
    this.t = typeof start === 'string' ? Date.parse(start) : start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const p: Pending = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, live: true };
    this.pending.push(p);
    return {
      stop: () => {
        const was = p.live;
        p.live = false;
        this.pending = this.pending.filter((x) => x !== p);
        return was;
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** Timers not yet fired. */
  pendingTimers(): number {
    return this.pending.length;
  }

  /** Whether something waits on this clock (upstream HasWaiters). */
  hasWaiters(): boolean {
    return this.pending.length > 0;
  }

  /** Sets the time without firing anything earlier than... everything due fires. */
  async setTime(ms: number): Promise<void> {
    await this.advance(ms - this.t);
  }

  /**
   * Moves time forward by ms, firing each due timer at its own deadline and
   * letting promise chains run after each one.
   */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await flushPromises();
    for (;;) {
      const next = this.nextDue(end);
      if (!next) break;
      this.t = Math.max(this.t, next.at);
      next.live = false;
      this.pending = this.pending.filter((x) => x !== next);
      next.fn();
      await flushPromises();
    }
    this.t = end;
    await flushPromises();
  }

  private nextDue(end: number): Pending | undefined {
    let best: Pending | undefined;
    for (const p of this.pending) {
      if (p.at > end) continue;
      if (!best || p.at < best.at || (p.at === best.at && p.seq < best.seq)) best = p;
    }
    return best;
  }
}

/** Lets pending promise callbacks (and I/O-free async chains) run to quiescence. */
export async function flushPromises(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}
