// Lines in the order the calls started. A record is published when its call
// ends, so a slow call's record (StopContainer waiting out a grace period)
// arrives after the records of calls that started later. The viewer holds
// each record for a short window after its start time and lets records out
// oldest start first: every call shorter than the window is printed in start
// order; a longer one is printed when it arrives, after the window has let
// later starts out (its line still carries its start time and duration).

export const DEFAULT_HOLD_MS = 250;

interface Held<T> {
  at: number;
  seq: number;
  item: T;
}

export class StartOrder<T> {
  private held: Held<T>[] = [];
  private seq = 0;
  /** The start time of the last record let out: a record older than it is late. */
  private released = -Infinity;

  constructor(
    private readonly holdMs: number,
    private readonly emit: (item: T, late: boolean) => void,
  ) {}

  /** A record whose call started at `at` (ms since the epoch); ties keep arrival order. */
  push(at: number, item: T): void {
    const h: Held<T> = { at: Number.isFinite(at) ? at : 0, seq: this.seq++, item };
    // Records arrive nearly in order: insert from the end.
    let i = this.held.length;
    while (i > 0 && this.held[i - 1]!.at > h.at) i--;
    this.held.splice(i, 0, h);
  }

  /** Lets out, oldest start first, every record that started at or before `now - holdMs`. */
  release(now: number): void {
    const until = now - this.holdMs;
    let n = 0;
    while (n < this.held.length && this.held[n]!.at <= until) n++;
    if (n > 0) this.out(this.held.splice(0, n));
  }

  /** Lets everything out (the viewer stops). */
  drain(): void {
    this.out(this.held.splice(0));
  }

  get size(): number {
    return this.held.length;
  }

  private out(items: Held<T>[]): void {
    for (const h of items) {
      const late = h.at < this.released;
      if (!late) this.released = h.at;
      this.emit(h.item, late);
    }
  }
}
