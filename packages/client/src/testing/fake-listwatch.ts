// An in-memory ListWatch for reflector and informer tests: a revisioned
// object set with an event history, so tests can drop connections, compact
// history (410 on resume) and check what the reflector asked for.

import { expired, metaNamespaceKey, type KubeList, type KubeObject, type WatchEvent } from '@kubelab/api';
import * as grpc from '@grpc/grpc-js';
import type { ListOptionsLW, ListWatch, WatchOptionsLW } from '../informers/reflector.js';
import { toStatusError } from '../transport/errors.js';
import { Channel } from '../util/channel.js';

interface Rec<T> {
  rv: number;
  ev: WatchEvent<T>;
}

export class FakeListWatch<T extends KubeObject> implements ListWatch<T> {
  private rv = 0;
  private readonly objects = new Map<string, T>();
  private history: Rec<T>[] = [];
  /** Events at or below this revision are gone (watch from older → 410). */
  private compactedAt = 0;
  private readonly active = new Set<Channel<WatchEvent<T>>>();
  private listFailures: unknown[] = [];
  readonly listCalls: ListOptionsLW[] = [];
  readonly watchCalls: WatchOptionsLW[] = [];

  /** Current revision. */
  get revision(): string {
    return String(this.rv);
  }

  /** Open watch streams. */
  get watchers(): number {
    return this.active.size;
  }

  add(obj: T): T {
    return this.emit('ADDED', obj);
  }

  modify(obj: T): T {
    return this.emit('MODIFIED', obj);
  }

  delete(obj: T): T {
    return this.emit('DELETED', obj);
  }

  /** Sends a BOOKMARK carrying the current revision to open watches. */
  bookmark(): void {
    const ev = { type: 'BOOKMARK', object: { metadata: { resourceVersion: String(this.rv) } } } as WatchEvent<T>;
    for (const w of this.active) w.push(ev);
  }

  /** Ends every open watch with an UNAVAILABLE error (connection lost). */
  dropWatches(): void {
    const err = Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), {
      code: grpc.status.UNAVAILABLE,
      details: 'Connection dropped',
      metadata: new grpc.Metadata(),
    });
    for (const w of [...this.active]) w.fail(toStatusError(err));
    this.active.clear();
  }

  /** Ends every open watch cleanly (server-side timeout). */
  closeWatches(): void {
    for (const w of [...this.active]) w.end();
    this.active.clear();
  }

  /** Sends an ERROR event with a 410 Expired Status to open watches. */
  expireWatches(): void {
    const status = expired(`too old resource version: 1 (${this.rv})`).status;
    for (const w of [...this.active]) {
      w.push({ type: 'ERROR', object: status as unknown as T });
      w.end();
    }
    this.active.clear();
  }

  /** Forgets history up to the current revision (etcd compaction). */
  compact(): void {
    this.compactedAt = this.rv;
    this.history = [];
  }

  /** The current objects (not recorded as a list call). */
  snapshot(): T[] {
    return [...this.objects.values()].map((o) => structuredClone(o));
  }

  /** Makes the next list calls fail with these errors, in order. */
  failNextLists(...errs: unknown[]): void {
    this.listFailures.push(...errs);
  }

  async list(opts: ListOptionsLW): Promise<KubeList<T>> {
    this.listCalls.push(opts);
    const failure = this.listFailures.shift();
    if (failure) throw failure;
    return {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: String(this.rv) },
      items: [...this.objects.values()].map((o) => structuredClone(o)),
    };
  }

  watch(opts: WatchOptionsLW): Channel<WatchEvent<T>> {
    this.watchCalls.push(opts);
    const ch: Channel<WatchEvent<T>> = new Channel(() => this.active.delete(ch));
    const from = Number(opts.resourceVersion || '0');
    if (from < this.compactedAt) {
      ch.fail(expired(`too old resource version: ${from} (${this.compactedAt + 1})`));
      return ch;
    }
    for (const r of this.history) if (r.rv > from) ch.push(structuredClone(r.ev));
    this.active.add(ch);
    return ch;
  }

  private emit(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): T {
    this.rv++;
    const o = structuredClone(obj);
    o.metadata.resourceVersion = String(this.rv);
    const key = metaNamespaceKey(o);
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, o);
    const ev: WatchEvent<T> = { type, object: o };
    this.history.push({ rv: this.rv, ev });
    for (const w of this.active) w.push(structuredClone(ev));
    return structuredClone(o);
  }
}
