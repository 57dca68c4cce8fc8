// Listers read the informer cache (client-go's generated listers): list by
// selector, get by name, and lookups through indexes. Results are the cached
// objects themselves: read them, copy before changing.

import type { KubeObject } from '@kubelab/api';
import { NAMESPACE_INDEX, type Indexer } from './store.js';

/** A label selector as a predicate over labels, or matchLabels equality. */
export type LabelMatcher = Record<string, string> | ((labels: Record<string, string>) => boolean);

export function labelsMatch(matcher: LabelMatcher | undefined, labels: Record<string, string> | undefined): boolean {
  if (!matcher) return true;
  const l = labels ?? {};
  if (typeof matcher === 'function') return matcher(l);
  return Object.entries(matcher).every(([k, v]) => l[k] === v);
}

export interface NamespaceLister<T> {
  list(selector?: LabelMatcher): T[];
  /** The cached object, or undefined when it is not (or no longer) there. */
  get(name: string): T | undefined;
}

export class Lister<T extends KubeObject> {
  constructor(private readonly indexer: Indexer<T>) {}

  /** Every cached object matching the selector, across namespaces. */
  list(selector?: LabelMatcher): T[] {
    return this.indexer.list().filter((o) => labelsMatch(selector, o.metadata.labels));
  }

  /** A cluster-scoped object by name. */
  get(name: string): T | undefined {
    return this.indexer.getByKey(name);
  }

  namespace(namespace: string): NamespaceLister<T> {
    return {
      list: (selector) => {
        const objs = this.indexer.hasIndexer(NAMESPACE_INDEX) ? this.indexer.byIndex(NAMESPACE_INDEX, namespace) : this.indexer.list().filter((o) => (o.metadata.namespace ?? '') === namespace);
        return objs.filter((o) => labelsMatch(selector, o.metadata.labels));
      },
      get: (name) => this.indexer.getByKey(`${namespace}/${name}`),
    };
  }

  byIndex(indexName: string, value: string): T[] {
    return this.indexer.byIndex(indexName, value);
  }
}
