// The watch cache (upstream: storage/cacher): ONE watch on the whole KV
// bucket feeds an in-memory copy of every object plus a bounded window of
// recent events. Lists and gets are served from it at a revision; watches
// replay from the window and then follow; a revision older than the window
// is 410 Expired; idle watchers get BOOKMARKs so they can resume cheaply.

import { apiVersionOf, badRequest, deepFreeze, expired, timeout, type KubeObject, type ResourceInfo, type Status, type WatchEvent } from '@kubelab/api';
import type { Tracing } from '@kubelab/tracing';
import type { KvStorage, LastMessage } from '../storage/kv.js';
import { consumeKvEntry } from '../tracing/consume.js';
import { decodeStored, withRevision, type WireJson } from '../storage/codec.js';
import type { ResourceTransformers } from '../storage/encryption/load.js';
import { isEncrypted } from '../storage/encryption/transformer.js';
import { attachRaw } from './raw.js';
import { parseKey } from './keys.js';
import { CacheWatcher } from './watcher.js';
import { BOOKMARK_FREQUENCY_MS, nextBookmarkTime } from './bookmarks.js';
import { triggerFieldOf, type WatchTrigger } from './triggers.js';

export interface CacheEntry {
  key: string;
  rev: number;
  info: ResourceInfo;
  namespace: string;
  name: string;
  obj: KubeObject;
  wire: WireJson;
  /** Read with other than the writing provider or key: an update rewrites it even unchanged (upstream: objState.stale). */
  stale: boolean;
}

export interface CacheEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  rev: number;
  key: string;
  prefix: string;
  namespace: string;
  cur?: CacheEntry;
  prev?: CacheEntry;
  /** The previous object with the event's revision (DELETED as upstream sends it), built on demand. */
  gone?: KubeObject;
}

/** A synchronous observer of one resource's changes: the entry after (undefined: deleted) and before (undefined: added). */
export type CacheObserver = (cur: CacheEntry | undefined, prev: CacheEntry | undefined) => void;

export interface WatchCacheOptions {
  /** Events kept for resuming watches (upstream's watch cache capacity). */
  windowSize?: number;
  /** Per-watcher buffer; a watcher this far behind is closed (410) so it relists. */
  watcherBuffer?: number;
  /** How often the bookmark timer looks for watchers due a BOOKMARK (upstream: about every second). */
  bookmarkIntervalMs?: number;
  /** How long a watcher that asked for bookmarks waits between two (upstream's defaultBookmarkFrequency, 1 min; bookmarks.ts). */
  bookmarkFrequencyMs?: number;
  /** The clock watch deadlines and bookmarks are timed by (tests step it). */
  now?: () => number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
  /** Tracing on: an entry written under a sampled request and handed on to watches is processed in a CONSUMER span (tracing/consume.ts). Off: not even looked at. */
  tracing?: Tracing;
  /** --encryption-provider-config: values of the resources it names are decrypted once, here, as they enter the cache. */
  transformers?: ResourceTransformers;
  /**
   * How often the store's newest revision is compared with the cache's (etcd's
   * watch progress notification): a watch that delivered nothing for two checks
   * while the store moved on is stalled (a NATS cluster's consumer lost with its
   * server) and is re-established. Unset: no check.
   */
  progressCheckMs?: number;
  /** Key prefixes outside the API whose keys the cache keeps (rawEntries): the master leases. */
  rawPrefixes?: readonly string[];
}

/** A watch's progress between two checks (pure, for tests): stalled after `limit` checks without an event while the store is ahead. */
export function progressCheck(prev: { rev: number; stalls: number }, rev: number, storeRev: number, limit = 2): { rev: number; stalls: number; stalled: boolean } {
  const stalls = storeRev > rev && rev === prev.rev ? prev.stalls + 1 : 0;
  return { rev, stalls: stalls >= limit ? 0 : stalls, stalled: stalls >= limit };
}

export interface CacheWatchRequest {
  info: ResourceInfo;
  prefix: string;
  namespace?: string;
  predicate?: (o: KubeObject) => boolean;
  /** The trigger value the field selector pins (triggers.ts): events reach the watch only when the old or new object has it. */
  trigger?: WatchTrigger;
  /** "" / "0" / undefined: ADDED for the current state first; else resume after it. */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  /**
   * When the request's timeout ends (ms, this cache's clock: `clock()`), fixed when the request arrived
   * (upstream: the request context's deadline). A watch subscribed later keeps it, so its last bookmark
   * still comes 2 s before the end; default: timeoutSeconds from subscribing.
   */
  deadline?: number;
  /**
   * true: ADDED for the current state, then (with bookmarks) a BOOKMARK
   * annotated `k8s.io/initial-events-end` (upstream's watch-list); false: no
   * initial events even from "" / "0"; undefined: the legacy rule above.
   */
  sendInitialEvents?: boolean;
}

/** The annotation of the bookmark that ends a watch-list's initial events (upstream: metav1.InitialEventsAnnotationKey). */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

interface Waiter {
  rev: number;
  resolve: () => void;
}

/** An object this apiserver stored, waiting for the KV watch to deliver its revision. */
interface OwnWrite {
  key: string;
  wire: WireJson;
  obj: KubeObject;
  /** Length of the stored value: the watch entry must match it. */
  size: number;
}

/** A key outside the API that the cache keeps for a reader (rawEntries). */
export interface RawEntry {
  key: string;
  value: Uint8Array;
  rev: number;
}

/** Own writes kept at most (their events normally arrive within milliseconds). */
const MAX_OWN_WRITES = 4096;
/** Delete markers remembered for creates over a deleted key (lastKnown); beyond this the oldest are forgotten. */
const MAX_TOMBSTONES = 10_000;

/** A prefix's watchers indexed by their trigger value (only prefixes with a pinned watcher have one). */
interface TriggerIndex {
  /** Watchers that pin nothing: every event is looked at for them. */
  free: Set<CacheWatcher>;
  byValue: Map<string, Set<CacheWatcher>>;
  valueOf(o: KubeObject): string;
}

const NONE: ReadonlySet<CacheWatcher> = new Set();

/** Parses a resourceVersion parameter (upstream: "Invalid value ... for resourceVersion"). */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version "${rv}"`);
  return Number(rv);
}

export class WatchCache {
  /** Newest revision applied to the cache. */
  rev = 0;
  /** Oldest revision a watch can resume from. */
  private floor = 0;
  private syncTarget = -1;
  private syncedFlag = false;
  private resolveSynced!: () => void;
  readonly synced: Promise<void>;
  /** Newest revision this apiserver wrote: consistent reads wait for it (read-your-writes). */
  private lastWritten = 0;
  /** Objects this apiserver wrote, by revision, until their watch event arrives (then no decode is needed). */
  private readonly ownWrites = new Map<number, OwnWrite>();
  /** Per key, the newest revision this apiserver wrote that the cache has not applied yet (read-your-writes for one key). */
  private readonly pendingByKey = new Map<string, number>();
  private pendingSweepAt = MAX_OWN_WRITES;

  private readonly byPrefix = new Map<string, Map<string, CacheEntry>>();
  /** The revision of each deleted key's delete marker, the oldest first (bounded: MAX_TOMBSTONES). */
  private readonly tombstones = new Map<string, number>();
  private readonly sortedKeys = new Map<string, string[]>();
  /**
   * Keys by trigger value, for prefixes whose resource has a trigger field
   * (pods by spec.nodeName): a kubelet's list of its own pods reads its few
   * keys, not every pod (upstream: the watch cache's indexers, the pod
   * registry's spec.nodeName index).
   */
  private readonly byTrigger = new Map<string, { valueOf(o: KubeObject): string; keys: Map<string, Set<string>> } | null>();
  private window: CacheEvent[] = [];
  private windowStart = 0;
  private waiters: Waiter[] = [];
  private readonly watchers = new Map<string, Set<CacheWatcher>>();
  /** Watchers of prefixes where some watcher pins a trigger value (upstream: the cacher's indexed watchers). */
  private readonly triggered = new Map<string, TriggerIndex>();
  private readonly observers = new Map<string, Set<CacheObserver>>();
  /** Keys outside the API (the master leases), by prefix: their latest value and revision. */
  private readonly raw = new Map<string, Map<string, RawEntry>>();
  private watcherCount = 0;
  private stopped = false;
  private iter: { stop(): void } | undefined;
  private bookmarkTimer: NodeJS.Timeout | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private progress = { rev: -1, stalls: 0 };
  /** Consecutive progress checks that found the cache ahead of the stream leader. */
  private aheadChecks = 0;
  private checkingProgress = false;
  private readonly windowSize: number;
  private readonly watcherBuffer: number;
  private readonly bookmarkFrequencyMs: number;
  private readonly now: () => number;
  /** This cache's clock (ms): what `deadline` of a watch request counts in. */
  readonly clock = (): number => this.now();
  private readonly log: NonNullable<WatchCacheOptions['log']>;
  private readonly tracing: Tracing | undefined;
  private readonly transformers: ResourceTransformers | undefined;
  /** Whether the single KV watch is currently established. */
  watching = false;
  /** Events handed to watchers (for metrics). */
  dispatched = 0;

  constructor(
    private readonly storage: KvStorage,
    opts: WatchCacheOptions = {},
  ) {
    this.windowSize = opts.windowSize ?? 10_000;
    this.watcherBuffer = opts.watcherBuffer ?? 1_000;
    this.bookmarkFrequencyMs = opts.bookmarkFrequencyMs ?? BOOKMARK_FREQUENCY_MS;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => undefined);
    this.tracing = opts.tracing?.enabled ? opts.tracing : undefined;
    this.transformers = opts.transformers?.size ? opts.transformers : undefined;
    for (const prefix of opts.rawPrefixes ?? []) this.raw.set(prefix, new Map());
    this.synced = new Promise((r) => (this.resolveSynced = r));
    const interval = opts.bookmarkIntervalMs ?? 1_000;
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), interval);
    this.bookmarkTimer.unref?.();
    if (opts.progressCheckMs) {
      this.progressTimer = setInterval(() => void this.checkProgress(), opts.progressCheckMs);
      this.progressTimer.unref?.();
    }
  }

  /** One progress check (progressCheckMs): a stalled watch is stopped, and run() establishes it again from the cache's revision. */
  private async checkProgress(): Promise<void> {
    if (!this.watching || this.stopped || this.checkingProgress) return;
    this.checkingProgress = true;
    try {
      // This apiserver's own acknowledged writes prove the store moved on even when the store's info request fails
      // (JetStream answers it only with a meta leader, elected after the stream's own after a majority restart).
      // The cache's revision from before the question: events arriving meanwhile may be newer than the answer.
      const rev = this.rev;
      const leaderRev = await this.storage.lastRevision().catch(() => 0);
      const storeRev = Math.max(this.lastWritten, leaderRev);
      // Ahead of the stream leader for two checks: the replica this watch reads numbers messages differently (nats-server
      // before 2.11 after a restart; docs/architecture.md). Nothing here can renumber it: said once, as an error.
      this.aheadChecks = leaderRev > 0 && rev > leaderRev ? this.aheadChecks + 1 : 0;
      if (this.aheadChecks === 2) {
        this.log('error', "storage replicas disagree: this watch's replica is ahead of the stream leader's last revision", { rev, leaderRev });
      }
      const next = progressCheck(this.progress, this.rev, storeRev);
      this.progress = { rev: next.rev, stalls: next.stalls };
      if (next.stalled && this.watching && !this.stopped) {
        this.log('warn', 'storage watch stalled; re-establishing', { rev: this.rev, storeRev });
        this.iter?.stop();
      }
    } finally {
      this.checkingProgress = false;
    }
  }

  get isSynced(): boolean {
    return this.syncedFlag;
  }

  /** Starts the feed; `synced` resolves once the current state is loaded. */
  start(): void {
    void this.run();
  }

  private async run(): Promise<void> {
    let delay = 100;
    while (!this.stopped) {
      try {
        if (this.syncTarget < 0) {
          this.syncTarget = await this.storage.lastRevision();
          if (this.syncTarget === 0) this.markSynced(0);
        }
        const it = await this.storage.watch(this.rev);
        this.iter = it;
        this.watching = true;
        delay = 100;
        const tracing = this.tracing;
        for await (const e of it) {
          if (tracing && this.handsOn(e.key)) consumeKvEntry(tracing, this.storage.bucket, e, () => this.ingest(e.key, e.operation, e.value, e.revision));
          else {
            // Only a delete or purge marker has an empty value: the operation
            // header (a decode of the entry's headers) is read for those alone.
            const value = e.value;
            this.ingest(e.key, value.length === 0 ? e.operation : 'PUT', value, e.revision);
          }
          if (this.stopped) break;
        }
        this.watching = false;
        if (!this.stopped) this.log('warn', 'storage watch ended; re-establishing', { rev: this.rev });
      } catch (err) {
        this.watching = false;
        if (this.stopped) break;
        this.log('warn', 'storage watch failed; retrying', { rev: this.rev, err: (err as Error).message });
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 2_000);
      }
    }
  }

  /**
   * Whether applying an entry under `key` hands it on: to a watch or an
   * in-process observer of its resource. Only then is its processing a
   * CONSUMER span (the write reaching the watches); an entry nobody watches
   * (most Events) is kept in the cache without one.
   */
  private handsOn(key: string): boolean {
    const prefix = parseKey(key)?.prefix;
    return prefix !== undefined && ((this.watchers.get(prefix)?.size ?? 0) > 0 || (this.observers.get(prefix)?.size ?? 0) > 0);
  }

  private markSynced(rev: number): void {
    if (this.syncedFlag) return;
    this.syncedFlag = true;
    this.floor = rev;
    this.resolveSynced();
  }

  /** Applies one KV entry (exported for tests: a step function). */
  ingest(key: string, op: 'PUT' | 'DEL' | 'PURGE', value: Uint8Array, rev: number): void {
    // Exactly once: a feed re-established after a reconnect may repeat entries.
    if (rev <= this.rev) return;
    this.rev = rev;
    try {
      this.apply(key, op, value, rev);
    } catch (err) {
      this.log('error', 'undecodable stored object skipped', { key, rev, err: (err as Error).message });
    }
    if (!this.syncedFlag && rev >= this.syncTarget && this.syncTarget >= 0) this.markSynced(rev);
    if (this.waiters.length > 0) this.wakeWaiters();
  }

  private apply(key: string, op: 'PUT' | 'DEL' | 'PURGE', value: Uint8Array, rev: number): void {
    if (this.pendingByKey.size > 0 && (this.pendingByKey.get(key) ?? Infinity) <= rev) this.pendingByKey.delete(key);
    const parts = parseKey(key);
    if (!parts) return this.applyRaw(key, op, value, rev);
    let m = this.byPrefix.get(parts.prefix);
    if (!m) this.byPrefix.set(parts.prefix, (m = new Map()));
    const prev = m.get(key);
    let ev: CacheEvent;
    if (op === 'PUT') {
      if (this.tombstones.size > 0) this.tombstones.delete(key);
      const d: Decoded = this.takeOwnWrite(key, value.length, rev) ?? this.decodeValue(parts.info, key, value, rev);
      const { obj, wire } = d;
      const stale = d.stale === true;
      const cur: CacheEntry = { key, rev, info: parts.info, namespace: parts.namespace, name: parts.name, obj, wire, stale };
      m.set(key, cur);
      if (!prev) this.addSortedKey(parts.prefix, key);
      this.reindex(parts.prefix, parts.info, key, prev?.obj, obj);
      ev = { type: prev ? 'MODIFIED' : 'ADDED', rev, key, prefix: parts.prefix, namespace: parts.namespace, cur };
      if (prev) ev.prev = prev;
    } else {
      this.tombstones.delete(key);
      this.tombstones.set(key, rev);
      if (this.tombstones.size > MAX_TOMBSTONES) this.tombstones.delete(this.tombstones.keys().next().value!);
      if (!prev) return;
      m.delete(key);
      this.removeSortedKey(parts.prefix, key);
      this.reindex(parts.prefix, parts.info, key, prev.obj, undefined);
      ev = { type: 'DELETED', rev, key, prefix: parts.prefix, namespace: parts.namespace, prev };
    }
    const observers = this.observers.get(parts.prefix);
    if (observers) for (const fn of observers) this.callObserver(fn, ev.cur, ev.prev, key);
    if (!this.syncedFlag) return;
    this.remember(ev);
    this.dispatch(ev);
  }

  /**
   * Calls fn with every change of one resource as the cache applies it, in
   * order and before any watcher sees it, from the initial load on: an
   * in-process index (the RBAC authorizer's bindings by subject) stays exactly
   * as fresh as the cache without a watch of its own. Seed it from list() in
   * the same turn. Returns the unsubscribe.
   */
  observe(prefix: string, fn: CacheObserver): () => void {
    let set = this.observers.get(prefix);
    if (!set) this.observers.set(prefix, (set = new Set()));
    set.add(fn);
    return () => void this.observers.get(prefix)?.delete(fn);
  }

  private callObserver(fn: CacheObserver, cur: CacheEntry | undefined, prev: CacheEntry | undefined, key: string): void {
    try {
      fn(cur, prev);
    } catch (err) {
      this.log('error', 'cache observer failed', { key, err: (err as Error).message });
    }
  }

  private remember(ev: CacheEvent): void {
    this.window.push(ev);
    if (this.window.length - this.windowStart > this.windowSize) {
      this.floor = this.window[this.windowStart]!.rev;
      this.window[this.windowStart++] = undefined as unknown as CacheEvent;
      if (this.windowStart > 4096 && this.windowStart * 2 > this.window.length) {
        this.window = this.window.slice(this.windowStart);
        this.windowStart = 0;
      }
    }
  }

  /** Upstream cacheWatcher's conversion: selector transitions become ADDED/DELETED. */
  private convert(w: CacheWatcher, ev: CacheEvent): WatchEvent | undefined {
    if (w.namespace && w.namespace !== ev.namespace) return undefined;
    const p = w.predicate;
    const curOk = ev.cur !== undefined && (!p || p(ev.cur.obj));
    const prevOk = ev.prev !== undefined && (!p || p(ev.prev.obj));
    if (curOk) return { type: prevOk ? 'MODIFIED' : 'ADDED', object: ev.cur!.obj };
    if (prevOk) return { type: 'DELETED', object: goneObject(ev) };
    return undefined;
  }

  private dispatch(ev: CacheEvent): void {
    const set = this.watchers.get(ev.prefix);
    if (!set || set.size === 0) return;
    const idx = this.triggered.get(ev.prefix);
    if (!idx) {
      for (const w of set) this.send(w, ev);
      return;
    }
    // Indexed: the unpinned watchers, then those pinned to the new or the old object's value.
    for (const w of idx.free) this.send(w, ev);
    const now = ev.cur ? idx.valueOf(ev.cur.obj) : undefined;
    const before = ev.prev ? idx.valueOf(ev.prev.obj) : undefined;
    if (now !== undefined) for (const w of idx.byValue.get(now) ?? NONE) this.send(w, ev);
    if (before !== undefined && before !== now) for (const w of idx.byValue.get(before) ?? NONE) this.send(w, ev);
  }

  private send(w: CacheWatcher, ev: CacheEvent): void {
    const out = this.convert(w, ev);
    if (!out) return;
    this.dispatched++;
    w.deliver(out, ev.rev, () => overflowStatus(ev.prefix, this.watcherBuffer));
  }

  /** The bookmark timer's tick: a BOOKMARK at the cache's revision to each watcher due one that has heard nothing newer. */
  sendBookmarks(): void {
    if (!this.syncedFlag) return;
    const now = this.now();
    for (const set of this.watchers.values()) {
      for (const w of set) {
        if (w.nextBookmarkAt === undefined || w.nextBookmarkAt > now) continue;
        w.nextBookmarkAt = nextBookmarkTime(now, this.bookmarkFrequencyMs, w.deadline);
        if (w.lastRev >= this.rev || w.pending > 0) continue;
        const obj = { ...w.typeMeta, metadata: { resourceVersion: String(this.rev) } };
        w.deliver({ type: 'BOOKMARK', object: obj as KubeObject }, this.rev, () => overflowStatus(w.prefix, this.watcherBuffer));
      }
    }
  }

  /** Records a revision this apiserver wrote at `key` so later consistent reads see it. */
  observeWrite(rev: number, key: string): void {
    if (rev > this.lastWritten) this.lastWritten = rev;
    if (rev <= this.rev || this.stopped) return;
    // Entries leave as their events are applied; a sweep catches ones the feed skipped. Amortized:
    // while the feed is behind, every entry is live, so the next sweep waits for twice as many.
    if (this.pendingByKey.size >= this.pendingSweepAt) {
      for (const [k, r] of this.pendingByKey) if (r <= this.rev) this.pendingByKey.delete(k);
      this.pendingSweepAt = Math.max(MAX_OWN_WRITES, 2 * this.pendingByKey.size);
    }
    this.pendingByKey.set(key, rev);
  }

  /** Waits until the cache shows this apiserver's latest write of `key` (none pending: at once). */
  /** Whether this apiserver wrote `key` at a revision the cache has not applied yet. */
  hasOwnWriteInFlight(key: string): boolean {
    const rev = this.pendingByKey.get(key);
    return rev !== undefined && rev > this.rev;
  }

  waitForOwnWrite(key: string): Promise<void> {
    return this.hasOwnWriteInFlight(key) ? this.waitForRev(this.pendingByKey.get(key)!) : Promise.resolve();
  }

  /**
   * Takes the object this apiserver just stored at `rev` (frozen: from now on
   * it is shared by every reader), so the KV watch event of that revision
   * needs no decode. Upstream's cacher decodes every etcd event; here the
   * writer and the cache share one process, so the written object is reused.
   */
  adoptWrite(key: string, rev: number, obj: KubeObject, wire: WireJson, size: number): void {
    this.observeWrite(rev, key);
    attachRaw(obj, wire);
    deepFreeze(obj);
    if (rev <= this.rev || this.stopped) return; // the watch delivered (and decoded) it first
    if (this.ownWrites.size >= MAX_OWN_WRITES) this.dropStaleOwnWrites();
    this.ownWrites.set(rev, { key, obj, size, wire });
  }

  /** The adopted object for a watch entry, if this apiserver wrote exactly that entry. */
  private takeOwnWrite(key: string, size: number, rev: number): OwnWrite | undefined {
    if (this.ownWrites.size === 0) return undefined;
    const own = this.ownWrites.get(rev);
    if (!own) return undefined;
    this.ownWrites.delete(rev);
    return own.key === key && own.size === size ? own : undefined;
  }

  /** Forgets adopted writes the feed went past without delivering (e.g. skipped as already applied). */
  private dropStaleOwnWrites(): void {
    for (const rev of this.ownWrites.keys()) if (rev <= this.rev) this.ownWrites.delete(rev);
    // Still full: the feed is far behind; the oldest go (their events decode instead).
    for (const rev of this.ownWrites.keys()) {
      if (this.ownWrites.size < MAX_OWN_WRITES) break;
      this.ownWrites.delete(rev);
    }
  }

  /** Keeps a key outside the API when a reader asked for its prefix (rawEntries). */
  private applyRaw(key: string, op: 'PUT' | 'DEL' | 'PURGE', value: Uint8Array, rev: number): void {
    for (const [prefix, m] of this.raw) {
      if (!key.startsWith(prefix)) continue;
      if (op === 'PUT') m.set(key, { key, value: Uint8Array.from(value), rev });
      else m.delete(key);
    }
  }

  /** The keys under a rawPrefixes prefix, sorted (upstream reads such keys straight from etcd, as the lease endpoint reconciler its masterleases). */
  rawEntries(prefix: string): RawEntry[] {
    const m = this.raw.get(prefix);
    if (!m) throw new Error(`the watch cache does not keep keys under ${prefix} (rawPrefixes)`);
    return [...m.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Waits until the cache has applied `rev` (upstream: waitUntilFreshAndBlock). */
  waitForRev(rev: number, timeoutMs = 3_000): Promise<void> {
    if (this.rev >= rev) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w: Waiter = { rev, resolve: () => undefined };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(timeout(`Too large resource version: ${rev}, current: ${this.rev}`));
      }, timeoutMs);
      w.resolve = () => {
        clearTimeout(t);
        resolve();
      };
      this.waiters.push(w);
    });
  }

  /** Waits until every write this apiserver acknowledged is applied; undefined when none is pending (no promise then). */
  ownWritesApplied(): Promise<void> | undefined {
    return this.lastWritten > this.rev ? this.waitForRev(this.lastWritten, 30_000) : undefined;
  }

  /** A consistent read: every write this apiserver acknowledged is visible (a Timeout after `timeoutMs`). */
  async waitConsistent(timeoutMs?: number): Promise<void> {
    if (!this.syncedFlag) await this.synced;
    await this.waitForRev(this.lastWritten, timeoutMs);
  }

  /** waitConsistent, but false instead of the Timeout when the cache does not catch up in time (the caller reads the storage then). */
  caughtUp(timeoutMs?: number): Promise<boolean> {
    return this.waitConsistent(timeoutMs).then(
      () => true,
      () => false,
    );
  }

  /** A value read from the storage past the cache, decoded as its watch event would be; not cached. */
  decodeStored(key: string, value: Uint8Array, rev: number): KubeObject {
    const parts = parseKey(key);
    return (parts ? this.decodeValue(parts.info, key, value, rev) : decodeEntry(value, rev)).obj;
  }

  /** A stored value as an object: through the resource's transformer (encrypted resources only: the rest decode the bytes as they are, no copy). */
  private decodeValue(info: ResourceInfo, key: string, value: Uint8Array, rev: number): Decoded {
    const t = this.transformers?.forResource(info);
    if (!t) return decodeEntry(value, rev);
    const plain = t.fromStorage(value, key);
    const d = decodeEntry(plain.data, rev);
    return plain.stale ? { ...d, stale: true } : d;
  }

  private wakeWaiters(): void {
    const ready = this.waiters.filter((w) => w.rev <= this.rev);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.rev > this.rev);
    for (const w of ready) w.resolve();
  }

  get(key: string): CacheEntry | undefined {
    const parts = parseKey(key);
    return parts ? this.byPrefix.get(parts.prefix)?.get(key) : undefined;
  }

  /** The key's newest message as far as the cache knows: its object, or its delete marker while remembered (for a create). */
  lastKnown(key: string): LastMessage | undefined {
    const e = this.get(key);
    if (e) return { revision: e.rev, live: true };
    // Written by this apiserver, not applied yet: it may be live (the storage asks the leader before a create).
    if (this.hasOwnWriteInFlight(key)) return { revision: this.pendingByKey.get(key)!, live: true };
    const t = this.tombstones.get(key);
    return t === undefined ? undefined : { revision: t, live: false };
  }

  /** A new key goes into the prefix's sorted keys where it belongs (a re-sort per create cost a list of 30,000 pods ~10 ms). */
  private addSortedKey(prefix: string, key: string): void {
    const keys = this.sortedKeys.get(prefix);
    if (keys) keys.splice(lowerBound(keys, key), 0, key);
  }

  private removeSortedKey(prefix: string, key: string): void {
    const keys = this.sortedKeys.get(prefix);
    if (!keys) return;
    const i = lowerBound(keys, key);
    if (keys[i] === key) keys.splice(i, 1);
  }

  /** Moves a key between its old and new object's trigger values. */
  private reindex(prefix: string, info: ResourceInfo, key: string, prev: KubeObject | undefined, cur: KubeObject | undefined): void {
    let index = this.byTrigger.get(prefix);
    if (index === undefined) {
      const field = triggerFieldOf(info);
      this.byTrigger.set(prefix, (index = field ? { valueOf: field.valueOf, keys: new Map() } : null));
    }
    if (!index) return;
    const was = prev ? index.valueOf(prev) : undefined;
    const now = cur ? index.valueOf(cur) : undefined;
    if (was === now) return;
    if (was !== undefined) {
      const set = index.keys.get(was);
      set?.delete(key);
      if (set?.size === 0) index.keys.delete(was);
    }
    if (now !== undefined) {
      let set = index.keys.get(now);
      if (!set) index.keys.set(now, (set = new Set()));
      set.add(key);
    }
  }

  /**
   * The entries of a prefix (in a namespace) whose trigger field has `value`,
   * sorted by key as list() is; undefined when the prefix has no trigger
   * field (the caller lists them all).
   */
  listByTrigger(prefix: string, value: string, namespace?: string): CacheEntry[] | undefined {
    const index = this.byTrigger.get(prefix);
    if (!index) return undefined;
    // An index exists once the prefix had an object: so does its map.
    const m = this.byPrefix.get(prefix)!;
    const keys = [...(index.keys.get(value) ?? [])].sort();
    const nsPrefix = namespace ? `${prefix}/${namespace}/` : undefined;
    const out: CacheEntry[] = [];
    for (const k of keys) if (!nsPrefix || k.startsWith(nsPrefix)) out.push(m.get(k)!);
    return out;
  }

  /** Entries of one resource in key order (etcd's range order), optionally one namespace. */
  list(prefix: string, namespace?: string): CacheEntry[] {
    const m = this.byPrefix.get(prefix);
    if (!m) return [];
    let keys = this.sortedKeys.get(prefix);
    if (!keys) {
      keys = [...m.keys()].sort();
      this.sortedKeys.set(prefix, keys);
    }
    const out: CacheEntry[] = [];
    if (namespace) {
      const nsPrefix = `${prefix}/${namespace}/`;
      let i = lowerBound(keys, nsPrefix);
      for (; i < keys.length && keys[i]!.startsWith(nsPrefix); i++) out.push(m.get(keys[i]!)!);
    } else for (const k of keys) out.push(m.get(k)!);
    return out;
  }

  /** Oldest revision the event window still reaches back to: states at or after it can be rebuilt. */
  get oldestRev(): number {
    return this.floor;
  }

  /**
   * Entries of one resource as they were at `rev` (upstream: a list at an
   * exact revision, or the cacher's snapshot for a continue token), rebuilt
   * from the current state by undoing the window's newer events; undefined
   * once the window no longer reaches back to `rev`.
   */
  listAt(prefix: string, rev: number, namespace?: string): CacheEntry[] | undefined {
    if (rev >= this.rev) return this.list(prefix, namespace);
    if (rev < this.floor) return undefined;
    // Newest first: what a key is left with is its state just before the oldest newer event.
    let undone: Map<string, CacheEntry | undefined> | undefined;
    for (let i = this.window.length - 1, first = this.firstAfter(rev); i >= first; i--) {
      const ev = this.window[i]!;
      if (ev.prefix !== prefix || (namespace && ev.namespace !== namespace)) continue;
      (undone ??= new Map()).set(ev.key, ev.prev);
    }
    const cur = this.list(prefix, namespace);
    if (!undone) return cur;
    const out = cur.filter((e) => !undone.has(e.key));
    for (const e of undone.values()) if (e) out.push(e);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  count(prefix: string): number {
    return this.byPrefix.get(prefix)?.size ?? 0;
  }

  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [p, m] of this.byPrefix) out.set(p, m.size);
    return out;
  }

  get watcherTotal(): number {
    return this.watcherCount;
  }

  /** Starts a watch; a too-old revision yields one ERROR (410) event, as upstream's cacher does. */
  watch(req: CacheWatchRequest): CacheWatcher {
    const rv = parseResourceVersion(req.resourceVersion);
    const w = new CacheWatcher(req.prefix, req.namespace || undefined, req.predicate, req.allowWatchBookmarks === true, this.watcherBuffer, Math.max(rv, 0), (x) => this.removeWatcher(x));
    w.typeMeta = { apiVersion: apiVersionOf(req.info), kind: req.info.kind };
    w.trigger = req.trigger;
    if (rv > 0 && rv < this.floor) {
      w.preload([]);
      this.addWatcher(w);
      w.end(expired(`too old resource version: ${rv} (${this.floor})`).status);
      return w;
    }
    const initial: WatchEvent[] = [];
    if (req.sendInitialEvents === false && rv === 0) {
      w.lastRev = this.rev; // from now on, nothing before
    } else if (rv === 0 || req.sendInitialEvents === true) {
      for (const e of this.list(req.prefix, req.namespace)) {
        if (!req.predicate || req.predicate(e.obj)) initial.push({ type: 'ADDED', object: e.obj });
      }
      w.lastRev = this.rev;
      // The watch-list's end of initial events: the state's revision, annotated (only to watchers that take bookmarks).
      if (req.sendInitialEvents === true && w.bookmarks) {
        const metadata = { resourceVersion: String(this.rev), annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } };
        initial.push({ type: 'BOOKMARK', object: { ...w.typeMeta, metadata } as KubeObject });
      }
    } else {
      for (let i = this.firstAfter(rv); i < this.window.length; i++) {
        const ev = this.window[i]!;
        if (ev.prefix !== req.prefix) continue;
        const out = this.convert(w, ev);
        if (out) initial.push(out);
      }
      w.lastRev = Math.max(rv, this.rev);
    }
    w.preload(initial);
    this.addWatcher(w);
    const now = this.now();
    const deadline = req.deadline ?? (req.timeoutSeconds && req.timeoutSeconds > 0 ? now + req.timeoutSeconds * 1000 : undefined);
    if (deadline !== undefined) w.setDeadline(deadline, now);
    if (w.bookmarks) w.nextBookmarkAt = nextBookmarkTime(now, this.bookmarkFrequencyMs, w.deadline);
    return w;
  }

  private firstAfter(rv: number): number {
    let lo = this.windowStart;
    let hi = this.window.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.window[mid]!.rev <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private addWatcher(w: CacheWatcher): void {
    let set = this.watchers.get(w.prefix);
    if (!set) this.watchers.set(w.prefix, (set = new Set()));
    set.add(w);
    this.watcherCount++;
    let idx = this.triggered.get(w.prefix);
    if (!w.trigger) {
      idx?.free.add(w);
      return;
    }
    if (!idx) {
      // The first pinned watcher of this prefix: every watcher so far is unpinned.
      idx = { free: new Set([...set].filter((x) => x !== w)), byValue: new Map(), valueOf: w.trigger.valueOf };
      this.triggered.set(w.prefix, idx);
    }
    let pinned = idx.byValue.get(w.trigger.value);
    if (!pinned) idx.byValue.set(w.trigger.value, (pinned = new Set()));
    pinned.add(w);
  }

  private removeWatcher(w: CacheWatcher): void {
    if (!this.watchers.get(w.prefix)?.delete(w)) return;
    this.watcherCount--;
    const idx = this.triggered.get(w.prefix);
    if (!idx) return;
    if (!w.trigger) idx.free.delete(w);
    else {
      const pinned = idx.byValue.get(w.trigger.value);
      pinned?.delete(w);
      if (pinned?.size === 0) idx.byValue.delete(w.trigger.value);
      if (idx.byValue.size === 0) this.triggered.delete(w.prefix);
    }
  }

  stop(): void {
    this.stopped = true;
    this.ownWrites.clear();
    this.pendingByKey.clear();
    if (this.bookmarkTimer) clearInterval(this.bookmarkTimer);
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.iter?.stop();
    for (const set of this.watchers.values()) for (const w of [...set]) w.end();
  }
}

/** A decoded stored value; `stale`: read with other than the writing provider or key (CacheEntry.stale). */
type Decoded = { obj: KubeObject; wire: WireJson; stale?: boolean };

/** A stored value from another writer (or one not adopted): decoded, frozen, its JSON kept. */
function decodeEntry(value: Uint8Array, rev: number): { obj: KubeObject; wire: WireJson } {
  let d: ReturnType<typeof decodeStored>;
  try {
    d = decodeStored(value, rev);
  } catch (err) {
    // A resource the encryption config does not name reads with the identity transformer (upstream's text).
    if (isEncrypted(value)) throw new Error('identity transformer tried to read encrypted data', { cause: err });
    throw err;
  }
  attachRaw(d.obj, d.wire);
  deepFreeze(d.obj);
  return d;
}

function lowerBound(keys: string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The previous object stamped with the deletion revision (what DELETED carries). */
function goneObject(ev: CacheEvent): KubeObject {
  if (ev.gone) return ev.gone;
  const prev = ev.prev!;
  const rv = String(ev.rev);
  const obj = Object.freeze({ ...prev.obj, metadata: Object.freeze({ ...prev.obj.metadata, resourceVersion: rv }) }) as KubeObject;
  attachRaw(obj, withRevision(prev.wire, rv));
  ev.gone = obj;
  return obj;
}

function overflowStatus(prefix: string, buffer: number): Status {
  return expired(`watch of ${prefix} closed: the client fell more than ${buffer} events behind; relist and watch again`).status;
}
