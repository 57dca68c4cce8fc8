// One watch over the cache: a bounded queue filled by the cache's dispatcher
// and drained by the transport (upstream's cacheWatcher with its input
// channel). A watcher that falls behind is closed with an error instead of
// blocking every other watcher.

import type { WatchTrigger } from './triggers.js';
import type { KubeObject, Status, WatchEvent } from '@kubelab/api';
import type { Watch } from '../registry/interface.js';

export class CacheWatcher implements Watch {
  private queue: WatchEvent[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  /** The newest revision delivered to this watcher (events or bookmarks). */
  lastRev: number;
  readonly events: AsyncIterable<WatchEvent>;
  private resolveDone!: () => void;
  /** Resolves when the watch ends (stopped, timed out, or closed for falling behind). */
  readonly done = new Promise<void>((r) => (this.resolveDone = r));
  /** apiVersion/kind for BOOKMARK objects. */
  typeMeta: { apiVersion: string; kind: string } = { apiVersion: 'v1', kind: '' };
  /** The trigger value its field selector pins (only events whose old or new object has it reach this watcher). */
  trigger: WatchTrigger | undefined;
  /** When the watch times out (ms, the cache's clock); undefined: never. */
  deadline: number | undefined;
  /** When its next periodic BOOKMARK is due (bookmarks.ts); undefined: none any more (or it takes none). */
  nextBookmarkAt: number | undefined;

  constructor(
    readonly prefix: string,
    readonly namespace: string | undefined,
    readonly predicate: ((o: KubeObject) => boolean) | undefined,
    readonly bookmarks: boolean,
    private capacity: number,
    startRev: number,
    private readonly onEnd: (w: CacheWatcher) => void,
  ) {
    this.lastRev = startRev;
    this.events = { [Symbol.asyncIterator]: () => this.iterate() };
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get pending(): number {
    return this.queue.length - this.head;
  }

  /** Initial events are not bounded by the live buffer (upstream: initEvents). */
  preload(events: WatchEvent[]): void {
    for (const e of events) this.queue.push(e);
    this.capacity += events.length;
  }

  /** Ends the watch at `deadline` (ms, the cache's clock; `now` is that clock's present). */
  setDeadline(deadline: number, now: number): void {
    this.deadline = deadline;
    this.timer = setTimeout(() => this.end(), Math.max(0, deadline - now));
    this.timer.unref?.();
  }

  /** Queues an event; false (and the watcher ends with `overflow`) when full. */
  deliver(ev: WatchEvent, rev: number, overflow: () => Status): boolean {
    if (this.ended) return true;
    if (this.pending >= this.capacity) {
      // Upstream terminates a watcher whose buffer is full; what it had queued is dropped with it (the client relists).
      this.end(overflow(), true);
      return false;
    }
    this.queue.push(ev);
    this.lastRev = rev;
    this.notify();
    return true;
  }

  /** Ends the watch; with a Status, an ERROR event is the last thing the client reads (`drop`: the only one). */
  end(err?: Status, drop = false): void {
    if (this.ended) return;
    if (drop) {
      this.queue = [];
      this.head = 0;
    }
    if (err) this.queue.push({ type: 'ERROR', object: err as unknown as KubeObject });
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.onEnd(this);
    this.resolveDone();
    this.notify();
  }

  stop(): void {
    this.end();
  }

  private wakeScheduled = false;

  /** Wakes the reader once per I/O turn, so events arriving together are read together. */
  private notify(): void {
    if (!this.wake || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      const w = this.wake;
      this.wake = undefined;
      w?.();
    });
  }

  async nextBatch(): Promise<WatchEvent[]> {
    await this.waitForEvents();
    return this.drain();
  }

  private async *iterate(): AsyncGenerator<WatchEvent> {
    try {
      for (;;) {
        if (this.head < this.queue.length) {
          const ev = this.queue[this.head]!;
          this.queue[this.head++] = undefined as unknown as WatchEvent;
          if (this.head > 1024 && this.head * 2 > this.queue.length) {
            this.queue = this.queue.slice(this.head);
            this.head = 0;
          }
          yield ev;
          continue;
        }
        if (this.ended) return;
        await new Promise<void>((r) => (this.wake = r));
      }
    } finally {
      this.end();
    }
  }

  /** Takes every queued event at once (for transports that write in batches). */
  drain(): WatchEvent[] {
    const out = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    return out;
  }

  /** Resolves when an event is queued or the watch ends. */
  waitForEvents(): Promise<void> {
    if (this.pending > 0 || this.ended) return Promise.resolve();
    return new Promise<void>((r) => (this.wake = r));
  }
}
