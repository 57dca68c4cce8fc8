// The informer's local cache as client-go's thread-safe store + indexer:
// objects by key, plus named indexes from index values to keys. Objects are
// frozen on the way in because a cached object must never be mutated.

import { deepFreeze, metaNamespaceKey, type KubeObject } from '@kubelab/api';

export type IndexFunc<T> = (obj: T) => string[];
export type Indexers<T> = Record<string, IndexFunc<T>>;

/** cache.NamespaceIndex */
export const NAMESPACE_INDEX = 'namespace';
/** The index the kubelet and scheduler use to find a node's pods. */
export const NODE_NAME_INDEX = 'spec.nodeName';

export const namespaceIndexFunc: IndexFunc<KubeObject> = (obj) => [obj.metadata.namespace ?? ''];

export const nodeNameIndexFunc: IndexFunc<KubeObject> = (obj) => {
  const node = (obj as { spec?: { nodeName?: string } }).spec?.nodeName;
  return node ? [node] : [];
};

export interface IndexerOptions<T> {
  keyFunc?: (obj: T) => string;
  indexers?: Indexers<T>;
  /** Deep-freeze stored objects (default true) so accidental mutation throws. */
  freeze?: boolean;
}

export class Indexer<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers: Map<string, IndexFunc<T>> = new Map();
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  readonly keyFunc: (obj: T) => string;
  private readonly freeze: boolean;

  constructor(opts: IndexerOptions<T> = {}) {
    this.keyFunc = opts.keyFunc ?? metaNamespaceKey;
    this.freeze = opts.freeze ?? true;
    this.addIndexers(opts.indexers ?? {});
  }

  /** Adds indexes; existing items are indexed at once. Refuses duplicate names. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
      this.indexers.set(name, fn);
      this.indices.set(name, new Map());
      for (const [key, obj] of this.items) this.indexOne(name, fn, key, obj);
    }
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  add(obj: T): void {
    this.update(obj);
  }

  update(obj: T): void {
    const key = this.keyFunc(obj);
    const stored = this.freeze ? deepFreeze(obj) : obj;
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, stored);
    for (const [name, fn] of this.indexers) this.indexOne(name, fn, key, stored);
  }

  delete(obj: T): void {
    this.deleteByKey(this.keyFunc(obj));
  }

  deleteByKey(key: string): void {
    const old = this.items.get(key);
    if (!old) return;
    this.unindex(key, old);
    this.items.delete(key);
  }

  get(obj: T): T | undefined {
    return this.items.get(this.keyFunc(obj));
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  /** Replaces the whole content (after a list). */
  replace(objs: T[]): void {
    this.items.clear();
    for (const m of this.indices.values()) m.clear();
    for (const o of objs) this.update(o);
  }

  /** Objects that share any of obj's values in the named index. */
  index(indexName: string, obj: T): T[] {
    const fn = this.requireIndex(indexName);
    const keys = new Set<string>();
    for (const v of fn(obj)) for (const k of this.indices.get(indexName)?.get(v) ?? []) keys.add(k);
    return [...keys].map((k) => this.items.get(k) as T);
  }

  /** Objects whose named index includes value. */
  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.items.get(k) as T);
  }

  indexKeys(indexName: string, value: string): string[] {
    this.requireIndex(indexName);
    return [...(this.indices.get(indexName)?.get(value) ?? [])];
  }

  /** Every value present in the named index. */
  listIndexFuncValues(indexName: string): string[] {
    this.requireIndex(indexName);
    return [...(this.indices.get(indexName)?.keys() ?? [])];
  }

  private requireIndex(name: string): IndexFunc<T> {
    const fn = this.indexers.get(name);
    if (!fn) throw new Error(`Index with name ${name} does not exist`);
    return fn;
  }

  private indexOne(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    const idx = this.indices.get(name) as Map<string, Set<string>>;
    for (const v of new Set(fn(obj))) {
      let set = idx.get(v);
      if (!set) idx.set(v, (set = new Set()));
      set.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const idx = this.indices.get(name) as Map<string, Set<string>>;
      for (const v of fn(obj)) {
        const set = idx.get(v);
        if (!set) continue;
        set.delete(key);
        if (set.size === 0) idx.delete(v);
      }
    }
  }
}
