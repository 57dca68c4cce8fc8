// The kubelet's ConfigMap and Secret managers with upstream's default change
// detection strategy, Watch (pkg/kubelet/util/manager: cache_based_manager.go
// and watch_based_manager.go). Each object a registered pod refers to is
// followed by a reflector of its own (a list and a watch with the field
// selector metadata.name=<name> in its namespace), and a read is a lookup in
// that cache: a pod's volume set-ups and env reads are no requests to the
// apiserver, on a kubelet's every resync as at a thousand nodes' start.

import type { KubeObject, Pod } from '@kubelab/api';
import { Reflector, type Clock, type ClientLogger, type ListWatch, type ReflectorStore } from '@kubelab/client';

/** How long a read waits for a new reflector's first list (upstream Get: wait.PollImmediate(10ms, time.Second, hasSynced)). */
export const CACHE_SYNC_TIMEOUT_MS = 1_000;
/** Idle reflectors are stopped no sooner than this (upstream minIdleTime). */
export const MIN_IDLE_TIME_MS = 60_000;
/** How often idle reflectors are looked for (upstream startRecycleIdleWatch, every minute). */
export const RECYCLE_IDLE_PERIOD_MS = 60_000;

/**
 * An object referenced by an env var only is read at container start; its
 * reflector stops after five resync periods without a read (upstream
 * NewWatchBasedManager: maxIdleTime = resyncInterval * 5, at least a minute).
 */
export function maxIdleTimeMs(syncFrequencyMs: number): number {
  return Math.max(MIN_IDLE_TIME_MS, 5 * syncFrequencyMs);
}

/** One watched object: the pods that refer to it, and what its reflector last saw. */
interface CacheItem<T> {
  namespace: string;
  name: string;
  /** UIDs of the registered pods that refer to the object. */
  refs: Set<string>;
  object: T | undefined;
  /** The reflector's first list has been stored (upstream cacheStore.initialized). */
  synced: boolean;
  /** Reads waiting for the first list. */
  waiters: Set<() => void>;
  lastAccess: number;
  /** Running reflector; absent once stopped (idle, immutable, or no longer referenced). */
  abort: AbortController | undefined;
  /** The object is immutable: no reflector is needed any more (upstream objectCacheItem.immutable). */
  immutable: boolean;
}

export interface ObjectCacheOptions<T extends KubeObject> {
  /** Upstream's groupResource for the manager's texts: `configmap` or `secret`. */
  resource: 'configmap' | 'secret';
  /** The list and watch of one object (the field selector metadata.name=<name> in its namespace). */
  listWatch: (namespace: string, name: string) => ListWatch<T>;
  clock: Clock;
  maxIdleTimeMs: number;
  syncTimeoutMs?: number;
  logger?: ClientLogger;
}

/** A cache of single objects, each fed by its own reflector while pods refer to it (upstream objectCache). */
export class ObjectCache<T extends KubeObject & { immutable?: boolean }> {
  private readonly items = new Map<string, CacheItem<T>>();

  constructor(private readonly o: ObjectCacheOptions<T>) {}

  /** Pod `uid` refers to the object; the first reference starts its reflector (upstream AddReference). */
  addReference(namespace: string, name: string, uid: string): void {
    const key = `${namespace}/${name}`;
    let item = this.items.get(key);
    if (!item) {
      item = { namespace, name, refs: new Set(), object: undefined, synced: false, waiters: new Set(), lastAccess: this.o.clock.now(), abort: undefined, immutable: false };
      this.items.set(key, item);
      this.startReflector(item);
    }
    item.refs.add(uid);
  }

  /** Pod `uid` no longer refers to the object; the last reference stops its reflector and forgets it. */
  deleteReference(namespace: string, name: string, uid: string): void {
    const key = `${namespace}/${name}`;
    const item = this.items.get(key);
    if (!item || !item.refs.delete(uid) || item.refs.size > 0) return;
    this.stopReflector(item);
    this.items.delete(key);
  }

  /**
   * The object as last seen, undefined when it does not exist. Throws when no
   * pod refers to it or its reflector has not listed within the sync timeout,
   * with upstream's texts.
   */
  async get(namespace: string, name: string): Promise<T | undefined> {
    const item = this.items.get(`${namespace}/${name}`);
    if (!item) throw new Error(`object "${namespace}"/"${name}" not registered`);
    // Recorded whether or not the read succeeds, so an idle check cannot stop a reflector being waited on.
    item.lastAccess = this.o.clock.now();
    if (!item.abort && !item.immutable) this.startReflector(item);
    if (!item.synced && !(await this.waitSynced(item))) throw new Error(`failed to sync ${this.o.resource} cache: timed out waiting for the condition`);
    const obj = item.object;
    // An immutable object cannot change: its watch is closed (upstream: "Stopped watching for changes - object is immutable").
    if (obj?.immutable === true && !item.immutable) {
      item.immutable = true;
      this.stopReflector(item);
    }
    return obj;
  }

  /** Stops the reflectors of objects not read for maxIdleTime; the next read starts them again (upstream startRecycleIdleWatch). */
  recycleIdle(): void {
    const now = this.o.clock.now();
    for (const item of this.items.values()) {
      // A reflector still on its first list is left alone: on a loaded apiserver that work would be lost.
      if (item.abort && item.synced && now - item.lastAccess > this.o.maxIdleTimeMs) this.stopReflector(item);
    }
  }

  /** Objects followed, and how many of them have a running reflector (for tests and metrics). */
  stats(): { objects: number; watching: number } {
    let watching = 0;
    for (const item of this.items.values()) if (item.abort) watching++;
    return { objects: this.items.size, watching };
  }

  /** Stops every reflector (the kubelet's stop). */
  stop(): void {
    for (const item of this.items.values()) this.stopReflector(item);
    this.items.clear();
  }

  private startReflector(item: CacheItem<T>): void {
    const abort = new AbortController();
    item.abort = abort;
    const reflector = new Reflector(this.o.listWatch(item.namespace, item.name), this.storeOf(item, abort.signal), {
      name: `object-"${item.namespace}"/"${item.name}"`,
      clock: this.o.clock,
      ...(this.o.logger ? { logger: this.o.logger } : {}),
    });
    void reflector.run(abort.signal);
  }

  private stopReflector(item: CacheItem<T>): void {
    item.abort?.abort();
    item.abort = undefined;
    // A stopped cache of a mutable object is stale: the next read waits for a new list.
    if (!item.immutable) item.synced = false;
  }

  /** The reflector's store: the one object of that name (writes of a stopped reflector are dropped). */
  private storeOf(item: CacheItem<T>, signal: AbortSignal): ReflectorStore<T> {
    const set = (obj: T | undefined) => {
      if (!signal.aborted) item.object = obj;
    };
    return {
      replace: (items) => {
        if (signal.aborted) return;
        item.object = items.find((o) => o.metadata.name === item.name);
        item.synced = true;
        for (const wake of item.waiters) wake();
        item.waiters.clear();
      },
      add: set,
      update: set,
      delete: () => set(undefined),
    };
  }

  private waitSynced(item: CacheItem<T>): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        timer.stop();
        resolve(true);
      };
      const timer = this.o.clock.setTimeout(() => {
        item.waiters.delete(wake);
        resolve(item.synced);
      }, this.o.syncTimeoutMs ?? CACHE_SYNC_TIMEOUT_MS);
      item.waiters.add(wake);
    });
  }
}

/**
 * Which objects of a kind each registered pod refers to (upstream
 * cacheBasedManager): registering a pod adds its references and drops those
 * its previous version had and this one has not; unregistering drops them all.
 */
export class ObjectManager<T extends KubeObject & { immutable?: boolean }> {
  /** Registered pods by UID: their namespace and the names they refer to. */
  private readonly registered = new Map<string, { namespace: string; names: Set<string> }>();

  constructor(
    readonly cache: ObjectCache<T>,
    private readonly referenced: (pod: Pod) => Set<string>,
  ) {}

  registerPod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const namespace = pod.metadata.namespace ?? '';
    const names = this.referenced(pod);
    const prev = this.registered.get(uid);
    for (const name of names) this.cache.addReference(namespace, name, uid);
    // A pod's UID keeps its namespace: only the names its new version dropped let go.
    for (const name of prev?.names ?? []) if (!names.has(name)) this.cache.deleteReference(namespace, name, uid);
    this.registered.set(uid, { namespace, names });
  }

  unregisterPod(uid: string): void {
    const prev = this.registered.get(uid);
    if (!prev) return;
    for (const name of prev.names) this.cache.deleteReference(prev.namespace, name, uid);
    this.registered.delete(uid);
  }

  /** UIDs of the registered pods (housekeeping drops those no longer wanted). */
  registeredPods(): string[] {
    return [...this.registered.keys()];
  }

  get(namespace: string, name: string): Promise<T | undefined> {
    return this.cache.get(namespace, name);
  }
}
