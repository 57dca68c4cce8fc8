// client-go's SharedIndexInformer: one reflector and one cache per resource,
// shared by every handler. Handlers hear adds, updates (including periodic
// resyncs with the same object) and deletes (tombstones after a relist).

import type { KubeObject } from '@kubelab/api';
import { realClock, type Clock, type Timer } from '../util/clock.js';
import { defaultLogger, type ClientLogger } from '../util/logger.js';
import { DeletedFinalStateUnknown } from './keys.js';
import { Lister } from './lister.js';
import { Reflector, type ListWatch, type ReflectorOptions, type ReflectorStore } from './reflector.js';
import { Indexer, NAMESPACE_INDEX, namespaceIndexFunc, type Indexers } from './store.js';

export interface ResourceEventHandler<T> {
  /** isInInitialList: the object came with the first list, not a later event. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called on resync and relist with old and new possibly identical. */
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface HandlerRegistration {
  remove(): void;
  /** True once this handler has been told about the initial list. */
  hasSynced(): boolean;
}

export interface SharedInformerOptions<T> {
  /** Default resync for handlers (0 = none), as the factory's defaultResync. */
  resyncPeriodMs?: number;
  indexers?: Indexers<T>;
  clock?: Clock;
  logger?: ClientLogger;
  name?: string;
  reflector?: Omit<ReflectorOptions, 'clock' | 'logger' | 'name'>;
}

interface Listener<T> {
  handler: ResourceEventHandler<T>;
  resyncMs: number;
  timer: Timer | undefined;
  synced: boolean;
}

export class SharedIndexInformer<T extends KubeObject> {
  private readonly indexer: Indexer<T>;
  private readonly listeners = new Set<Listener<T>>();
  private readonly reflector: Reflector<T>;
  private readonly clock: Clock;
  private readonly log: ClientLogger;
  private readonly defaultResyncMs: number;
  private synced = false;
  private syncedWaiters: Array<() => void> = [];
  private abort: AbortController | undefined;
  private done: Promise<void> | undefined;
  readonly name: string;

  constructor(lw: ListWatch<T>, opts: SharedInformerOptions<T> = {}) {
    this.clock = opts.clock ?? realClock;
    this.log = opts.logger ?? defaultLogger;
    this.name = opts.name ?? 'informer';
    this.defaultResyncMs = opts.resyncPeriodMs ?? 0;
    this.indexer = new Indexer<T>({
      indexers: { [NAMESPACE_INDEX]: namespaceIndexFunc as (o: T) => string[], ...(opts.indexers ?? {}) },
    });
    const store: ReflectorStore<T> = {
      replace: (items) => this.onReplace(items),
      add: (obj) => this.onUpsert(obj),
      update: (obj) => this.onUpsert(obj),
      delete: (obj) => this.onDelete(obj),
    };
    this.reflector = new Reflector<T>(lw, store, { ...opts.reflector, clock: this.clock, logger: this.log, name: this.name });
  }

  /** Registers a handler; if the cache is filled already it hears adds for what is there. */
  addEventHandler(handler: ResourceEventHandler<T>, resyncPeriodMs?: number): HandlerRegistration {
    const l: Listener<T> = { handler, resyncMs: resyncPeriodMs ?? this.defaultResyncMs, timer: undefined, synced: false };
    this.listeners.add(l);
    if (this.synced) {
      for (const obj of this.indexer.list()) this.call(l, 'onAdd', () => handler.onAdd?.(obj, true));
      l.synced = true;
      this.scheduleResync(l);
    }
    return {
      remove: () => {
        l.timer?.stop();
        this.listeners.delete(l);
      },
      hasSynced: () => l.synced,
    };
  }

  /** Adds indexes to the cache (allowed before or after start). */
  addIndexers(indexers: Indexers<T>): void {
    this.indexer.addIndexers(indexers);
  }

  getIndexer(): Indexer<T> {
    return this.indexer;
  }

  lister(): Lister<T> {
    return new Lister<T>(this.indexer);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list is in the cache. */
  whenSynced(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncedWaiters.push(resolve));
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  /** List/watch counters of the underlying reflector. */
  get reflectorStats(): Readonly<Reflector<T>['stats']> {
    return this.reflector.stats;
  }

  isRunning(): boolean {
    return this.abort !== undefined && !this.abort.signal.aborted;
  }

  /** Starts list+watch in the background (idempotent). */
  run(): void {
    if (this.abort) return;
    this.abort = new AbortController();
    this.done = this.reflector.run(this.abort.signal).catch((err) => {
      this.log.error('informer stopped unexpectedly', { informer: this.name, err });
    });
  }

  /** Stops the watch and resync timers; resolves when the reflector has exited. */
  async stop(): Promise<void> {
    this.abort?.abort();
    for (const l of this.listeners) {
      l.timer?.stop();
      l.timer = undefined;
    }
    await this.done;
  }

  // --- store side (the reflector writes here) ---

  private onReplace(items: T[]): void {
    const initial = !this.synced;
    const seen = new Set<string>();
    for (const obj of items) {
      const key = this.indexer.keyFunc(obj);
      seen.add(key);
      const old = this.indexer.getByKey(key);
      this.indexer.update(obj);
      const cur = this.indexer.getByKey(key) as T;
      if (old) this.notify((h) => h.onUpdate?.(old, cur));
      else this.notify((h) => h.onAdd?.(cur, initial));
    }
    for (const key of this.indexer.listKeys()) {
      if (seen.has(key)) continue;
      const old = this.indexer.getByKey(key) as T;
      this.indexer.deleteByKey(key);
      this.notify((h) => h.onDelete?.(new DeletedFinalStateUnknown(key, old)));
    }
    if (initial) this.markSynced();
  }

  private onUpsert(obj: T): void {
    const old = this.indexer.get(obj);
    // the same revision twice (a resumed watch replaying) is not a change
    if (old && old.metadata.resourceVersion && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    this.indexer.update(obj);
    const cur = this.indexer.get(obj) as T;
    if (old) this.notify((h) => h.onUpdate?.(old, cur));
    else this.notify((h) => h.onAdd?.(cur, false));
  }

  private onDelete(obj: T): void {
    const old = this.indexer.get(obj);
    if (!old) return; // already gone: never announce a delete twice
    this.indexer.delete(obj);
    this.notify((h) => h.onDelete?.(obj));
  }

  private markSynced(): void {
    this.synced = true;
    for (const l of this.listeners) {
      l.synced = true;
      this.scheduleResync(l);
    }
    const ws = this.syncedWaiters;
    this.syncedWaiters = [];
    for (const w of ws) w();
  }

  // --- handlers ---

  private notify(fn: (h: ResourceEventHandler<T>) => void): void {
    for (const l of this.listeners) this.call(l, 'handler', () => fn(l.handler));
  }

  private call(l: Listener<T>, what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      // a handler bug must not stop the informer or other handlers
      this.log.error('event handler threw', { informer: this.name, handler: what, err });
    }
    void l;
  }

  private scheduleResync(l: Listener<T>): void {
    if (l.resyncMs <= 0 || l.timer || !this.isRunning()) return;
    l.timer = this.clock.setTimeout(() => {
      l.timer = undefined;
      if (!this.listeners.has(l) || !this.isRunning()) return;
      for (const obj of this.indexer.list()) this.call(l, 'onUpdate', () => l.handler.onUpdate?.(obj, obj));
      this.scheduleResync(l);
    }, l.resyncMs);
  }
}

/**
 * Waits until every informer has synced (cache.WaitForCacheSync); false if
 * signal aborts first.
 */
export async function waitForCacheSync(signal: AbortSignal | undefined, ...informers: Array<{ whenSynced(): Promise<void> }>): Promise<boolean> {
  const all = Promise.all(informers.map((i) => i.whenSynced())).then(() => true);
  if (!signal) return all;
  if (signal.aborted) return false;
  return Promise.race([all, new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true }))]);
}
