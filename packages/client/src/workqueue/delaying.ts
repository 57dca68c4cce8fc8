// client-go's DelayingQueue: addAfter holds an item until its time comes,
// keeping only the earliest deadline per item, behind one timer.

import type { Timer } from '../util/clock.js';
import { Queue, type QueueConfig } from './queue.js';

export class DelayingQueue<T> extends Queue<T> {
  private readonly waiting = new Map<T, number>();
  private timer: Timer | undefined;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(config: QueueConfig = {}) {
    super(config);
  }

  /** Adds item after ms (immediately when ms <= 0). */
  addAfter(item: T, ms: number): void {
    if (this.isShuttingDown()) return;
    this.countRetry();
    if (ms <= 0) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + ms;
    const prev = this.waiting.get(item);
    if (prev !== undefined && prev <= readyAt) return;
    this.waiting.set(item, readyAt);
    this.arm();
  }

  /** Items waiting for their delay to pass. */
  waitingLen(): number {
    return this.waiting.size;
  }

  private arm(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const at of this.waiting.values()) if (at < next) next = at;
    if (next === this.timerAt && this.timer) return;
    this.timer?.stop();
    this.timer = undefined;
    this.timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = this.clock.setTimeout(() => this.release(), next - this.clock.now());
  }

  private release(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    const ready = [...this.waiting].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]);
    for (const [item] of ready) {
      this.waiting.delete(item);
      this.add(item);
    }
    this.arm();
  }

  protected override stopInternal(): void {
    super.stopInternal();
    this.timer?.stop();
    this.timer = undefined;
    this.waiting.clear();
  }
}
