// The apiserver's CRD controllers in one loop (upstream: apiextensions-
// apiserver's naming controller, establishing controller, finalizer
// controller and the CRD handler's serving info). Serving follows the
// stored CRDs synchronously through a watch-cache observer, so discovery
// and the REST paths change in the same turn the cache applies a CRD;
// status and cleanup are written by a key queue (names enqueued, sync
// re-reads the cache, idempotent, retried with backoff).

import { canonicalJson, isNotFound, servedVersions, storageVersionOf, versionResource, type CustomResourceDefinition, type KubeObject, type ResourceInfo } from '@kubelab/api';
import { APISERVER } from '../authentication/user.js';
import type { WatchCache } from '../cache/watch-cache.js';
import type { RequestContext, ResourceStore } from '../registry/interface.js';
import { nowTime } from '../registry/meta.js';
import type { ApiRegistry } from '../registry/registry.js';
import { CLEANUP_FINALIZER, CRD_GROUP, CRD_PREFIX, CRD_RESOURCE, desiredStatus, setCondition } from './crd.js';
import { customStrategy } from './strategy.js';

const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };
const MAX_BACKOFF_MS = 30_000;

export interface CrdControllerOptions {
  /** Called when a sync fails (it is retried). */
  onError?: (name: string, err: unknown) => void;
  /** First retry delay (doubles per failure up to 30 s; default 250 ms). */
  retryMs?: number;
}

export class CrdController {
  /** What each CRD serves now, by CRD name: the group/version/resource keys. */
  private readonly serving = new Map<string, ResourceInfo[]>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private stopped = false;
  private unobserve: (() => void) | undefined;

  constructor(
    private readonly registry: ApiRegistry,
    private readonly cache: WatchCache,
    private readonly opts: CrdControllerOptions = {},
  ) {}

  /** Starts following CRDs; call before the cache starts so the initial load is seen. */
  start(): void {
    this.unobserve = this.cache.observe(CRD_PREFIX, (cur, prev) => {
      const crd = cur?.obj as CustomResourceDefinition | undefined;
      const name = (cur ?? prev)!.name;
      this.serve(name, crd);
      this.enqueue(name);
    });
    for (const e of this.cache.list(CRD_PREFIX)) {
      this.serve(e.name, e.obj as CustomResourceDefinition);
      this.enqueue(e.name);
    }
  }

  stop(): void {
    this.stopped = true;
    this.unobserve?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Serves exactly the versions an established CRD serves (upstream: the CRD handler's serving info, rebuilt per change). */
  private serve(name: string, crd: CustomResourceDefinition | undefined): void {
    for (const info of this.serving.get(name) ?? []) this.registry.stopServingCustom(info.group, info.version, info.resource);
    this.serving.delete(name);
    if (!crd) return;
    const infos: ResourceInfo[] = [];
    for (const v of servedVersions(crd)) {
      const info = versionResource(crd, v);
      try {
        this.registry.serveCustom(info, customStrategy(v, { terminating: crd.metadata.deletionTimestamp !== undefined }));
        infos.push(info);
      } catch (err) {
        this.opts.onError?.(name, err);
      }
    }
    if (infos.length) this.serving.set(name, infos);
  }

  private enqueue(name: string): void {
    if (this.stopped) return;
    this.dirty.add(name);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      await this.cache.synced;
      while (!this.stopped && this.dirty.size > 0) {
        const name = this.dirty.values().next().value as string;
        this.dirty.delete(name);
        try {
          await this.sync(name);
          this.failures.delete(name);
        } catch (err) {
          this.opts.onError?.(name, err);
          this.retry(name);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Requeues a name after an exponential backoff (upstream: the rate-limited work queue). */
  private retry(name: string): void {
    const n = (this.failures.get(name) ?? 0) + 1;
    this.failures.set(name, n);
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        this.enqueue(name);
      },
      Math.min(MAX_BACKOFF_MS, (this.opts.retryMs ?? 250) * 2 ** (n - 1)),
    );
    this.timers.add(t);
  }

  private crds(): ResourceStore {
    return this.registry.mustStore(CRD_GROUP, CRD_RESOURCE);
  }

  /** One CRD to its wanted state: names and conditions, or, once deleted, its objects gone and the finalizer removed. */
  async sync(name: string): Promise<void> {
    await this.cache.waitConsistent();
    const crd = this.cache.get(`${CRD_PREFIX}/${name}`)?.obj as CustomResourceDefinition | undefined;
    if (!crd?.spec) return;
    if (crd.metadata.deletionTimestamp) return this.finalize(crd);
    const others = this.cache.list(CRD_PREFIX).map((e) => e.obj as CustomResourceDefinition);
    const status = desiredStatus(crd, others, nowTime());
    if (canonicalJson(status) === canonicalJson(crd.status ?? {})) return;
    await this.writeStatus(crd, status);
  }

  private async writeStatus(crd: CustomResourceDefinition, status: CustomResourceDefinition['status']): Promise<void> {
    const next = { ...structuredClone(crd), status } as KubeObject;
    await this.crds().update(undefined, crd.metadata.name!, next, ctx, 'status');
  }

  /** The finalizer: every object of the CRD deleted, then the CRD released (upstream: the CRD finalizer controller). */
  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    if (!(crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) return;
    const progressing = structuredClone(crd.status ?? {});
    setCondition(progressing, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }, nowTime());
    if (canonicalJson(progressing) !== canonicalJson(crd.status ?? {})) {
      await this.writeStatus(crd, progressing);
      return; // the status write enqueues the CRD again
    }
    const storage = storageVersionOf(crd);
    if (storage) {
      const info = versionResource(crd, storage);
      const prefix = `/registry/${info.group}/${info.resource}`;
      const entries = this.cache.list(prefix);
      if (entries.length > 0) {
        let store = this.registry.store(info.group, info.version, info.resource);
        if (!store) {
          // Never established, yet objects exist (an earlier CRD of the name): served for the cleanup, until the CRD goes.
          store = this.registry.serveCustom(info, customStrategy(storage, { terminating: true }));
          this.serving.set(crd.metadata.name!, [...(this.serving.get(crd.metadata.name!) ?? []), info]);
        }
        for (const e of entries) {
          try {
            await store.delete(e.namespace || undefined, e.name, {}, ctx);
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        }
        await this.cache.waitConsistent();
        const left = this.cache.list(prefix).length;
        // Objects held by their own finalizers: retried until they go (upstream requeues the CRD the same way).
        if (left > 0) throw new Error(`${left} ${info.resource} are still being deleted`);
      }
    }
    const next = structuredClone(crd) as KubeObject;
    next.metadata.finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    await this.crds().update(undefined, crd.metadata.name!, next, ctx);
  }
}
