// The FIFO work queue of client-go's util/workqueue: an item is queued at most
// once (dirty set), and an item being processed is never handed to a second
// worker (processing set): re-adds while processing are parked until done().

import { realClock, type Clock, type Timer } from '../util/clock.js';
import { noopMetricsProvider, type WorkqueueMetricsProvider } from './metrics.js';

export interface QueueConfig {
  /** Names the queue in metrics (`name` label); metrics are off without it. */
  name?: string;
  metricsProvider?: WorkqueueMetricsProvider;
  clock?: Clock;
}

/** How often unfinished-work gauges are refreshed (upstream: 500 ms). */
const UNFINISHED_WORK_UPDATE_PERIOD_MS = 500;

export class Queue<T> {
  protected readonly clock: Clock;
  private items: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private waiters: Array<(item: T | undefined) => void> = [];
  private shuttingDown = false;
  private drain = false;
  private drained: Array<() => void> = [];
  private readonly m;
  private readonly addTimes = new Map<T, number>();
  private readonly processingStart = new Map<T, number>();
  private unfinishedTimer: Timer | undefined;

  constructor(config: QueueConfig = {}) {
    this.clock = config.clock ?? realClock;
    const p = config.name ? (config.metricsProvider ?? noopMetricsProvider) : noopMetricsProvider;
    const name = config.name ?? '';
    this.m = {
      depth: p.newDepthMetric(name),
      adds: p.newAddsMetric(name),
      latency: p.newLatencyMetric(name),
      workDuration: p.newWorkDurationMetric(name),
      unfinished: p.newUnfinishedWorkSecondsMetric(name),
      longest: p.newLongestRunningProcessorSecondsMetric(name),
      retries: p.newRetriesMetric(name),
    };
    if (config.name && config.metricsProvider) this.scheduleUnfinishedWork();
  }

  /** Marks item as needing processing (no-op if already queued or shutting down). */
  add(item: T): void {
    if (this.shuttingDown) return;
    if (this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return; // re-queued by done()
    this.push(item);
  }

  private push(item: T): void {
    this.m.adds.inc();
    this.m.depth.inc();
    if (!this.addTimes.has(item)) this.addTimes.set(item, this.clock.now());
    const w = this.waiters.shift();
    if (w) {
      this.m.depth.dec();
      this.take(item);
      w(item);
      return;
    }
    this.items.push(item);
  }

  /** Items waiting to be processed. */
  len(): number {
    return this.items.length - this.head;
  }

  /**
   * The next item, waiting until one is available; undefined once the queue
   * is shut down and empty. The caller must call done(item) afterwards.
   */
  get(): Promise<T | undefined> {
    const item = this.tryGet();
    if (item !== undefined) return Promise.resolve(item);
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The next item without waiting (one step, for loops and tests). */
  tryGet(): T | undefined {
    if (this.len() === 0) return undefined;
    const item = this.items[this.head] as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.m.depth.dec();
    this.take(item);
    return item;
  }

  private take(item: T): void {
    const now = this.clock.now();
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.m.latency.observe((now - added) / 1000);
      this.addTimes.delete(item);
    }
    this.processingStart.set(item, now);
    this.processing.add(item);
    this.dirty.delete(item);
  }

  /** Marks item as processed; if it was re-added meanwhile, it is queued again. */
  done(item: T): void {
    const started = this.processingStart.get(item);
    if (started !== undefined) {
      this.m.workDuration.observe((this.clock.now() - started) / 1000);
      this.processingStart.delete(item);
    }
    this.processing.delete(item);
    if (this.dirty.has(item)) this.push(item);
    else if (this.processing.size === 0) this.resolveDrained();
  }

  /** Stops accepting items; get() returns undefined once the queue is empty. */
  shutDown(): void {
    this.beginShutDown(false);
    this.resolveDrained();
  }

  /**
   * As shutDown, but resolves only once every item handed out has been
   * marked done (upstream ShutDownWithDrain).
   */
  async shutDownWithDrain(): Promise<void> {
    this.beginShutDown(true);
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** True while a drain waits for items in flight. */
  isDraining(): boolean {
    return this.drain && this.processing.size > 0;
  }

  /** Both shutdowns: no more items, timers stopped, every waiting get() answered undefined. */
  private beginShutDown(drain: boolean): void {
    this.shuttingDown = true;
    this.drain = drain;
    this.stopInternal();
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(undefined);
  }

  protected stopInternal(): void {
    this.unfinishedTimer?.stop();
    this.unfinishedTimer = undefined;
  }

  private resolveDrained(): void {
    if (this.processing.size > 0) return;
    const ds = this.drained;
    this.drained = [];
    for (const d of ds) d();
  }

  /** Refreshes unfinished_work_seconds and longest_running_processor_seconds. */
  updateUnfinishedWork(): void {
    const now = this.clock.now();
    let total = 0;
    let oldest = 0;
    for (const start of this.processingStart.values()) {
      const d = (now - start) / 1000;
      total += d;
      if (d > oldest) oldest = d;
    }
    this.m.unfinished.set(total);
    this.m.longest.set(oldest);
  }

  private scheduleUnfinishedWork(): void {
    this.unfinishedTimer = this.clock.setTimeout(() => {
      this.updateUnfinishedWork();
      if (!this.shuttingDown) this.scheduleUnfinishedWork();
    }, UNFINISHED_WORK_UPDATE_PERIOD_MS);
  }

  protected countRetry(): void {
    this.m.retries.inc();
  }
}
