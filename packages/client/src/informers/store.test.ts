import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { Lister } from './lister.js';
import { Indexer, NAMESPACE_INDEX, NODE_NAME_INDEX, namespaceIndexFunc, nodeNameIndexFunc } from './store.js';

const pod = (ns: string, name: string, node?: string, labels?: Record<string, string>): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: ns, name, ...(labels ? { labels } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(node ? { nodeName: node } : {}) },
});

function podIndexer() {
  return new Indexer<Pod>({ indexers: { [NAMESPACE_INDEX]: namespaceIndexFunc, [NODE_NAME_INDEX]: nodeNameIndexFunc } });
}

describe('Indexer', () => {
  it('keys objects by namespace/name and finds them by namespace and node', () => {
    const ix = podIndexer();
    ix.add(pod('default', 'a', 'node-1'));
    ix.add(pod('default', 'b', 'node-2'));
    ix.add(pod('kube-system', 'c', 'node-1'));
    ix.add(pod('default', 'pending'));
    expect(ix.listKeys().sort()).toEqual(['default/a', 'default/b', 'default/pending', 'kube-system/c']);
    expect(
      ix
        .byIndex(NODE_NAME_INDEX, 'node-1')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(
      ix
        .byIndex(NAMESPACE_INDEX, 'default')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'b', 'pending']);
    expect(ix.listIndexFuncValues(NODE_NAME_INDEX).sort()).toEqual(['node-1', 'node-2']);
  });

  it('moves an object between index values on update and drops it on delete', () => {
    const ix = podIndexer();
    ix.add(pod('default', 'a'));
    expect(ix.byIndex(NODE_NAME_INDEX, 'node-1')).toEqual([]);
    ix.update(pod('default', 'a', 'node-1'));
    expect(ix.indexKeys(NODE_NAME_INDEX, 'node-1')).toEqual(['default/a']);
    ix.update(pod('default', 'a', 'node-2'));
    expect(ix.indexKeys(NODE_NAME_INDEX, 'node-1')).toEqual([]);
    expect(ix.listIndexFuncValues(NODE_NAME_INDEX)).toEqual(['node-2']);
    ix.delete(pod('default', 'a'));
    expect(ix.size).toBe(0);
    expect(ix.listIndexFuncValues(NODE_NAME_INDEX)).toEqual([]);
  });

  it('supports custom indexers added after objects exist, and index() by object', () => {
    const ix = podIndexer();
    ix.add(pod('default', 'a', 'n', { app: 'web' }));
    ix.add(pod('default', 'b', 'n', { app: 'db' }));
    ix.add(pod('other', 'c', 'n', { app: 'web' }));
    ix.addIndexers({ byApp: (p) => (p.metadata.labels?.app ? [p.metadata.labels.app] : []) });
    expect(
      ix
        .index('byApp', pod('x', 'y', undefined, { app: 'web' }))
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(() => ix.addIndexers({ byApp: () => [] })).toThrow('indexer conflict: byApp');
    expect(() => ix.byIndex('nope', 'x')).toThrow('Index with name nope does not exist');
  });

  it('replace() swaps the whole content and its indexes', () => {
    const ix = podIndexer();
    ix.add(pod('default', 'old', 'node-1'));
    ix.replace([pod('default', 'new', 'node-2')]);
    expect(ix.listKeys()).toEqual(['default/new']);
    expect(ix.byIndex(NODE_NAME_INDEX, 'node-1')).toEqual([]);
  });

  it('freezes cached objects so a caller cannot mutate the cache', () => {
    const ix = podIndexer();
    ix.add(pod('default', 'a', 'node-1', { app: 'web' }));
    const cached = ix.getByKey('default/a') as Pod;
    expect(() => {
      (cached.metadata.labels as Record<string, string>).app = 'changed';
    }).toThrow(TypeError);
    expect(ix.getByKey('default/a')?.metadata.labels?.app).toBe('web');
  });
});

describe('Lister', () => {
  it('lists by namespace and label selector and gets by name', () => {
    const ix = podIndexer();
    ix.add(pod('default', 'a', 'n', { app: 'web', tier: 'fe' }));
    ix.add(pod('default', 'b', 'n', { app: 'db' }));
    ix.add(pod('prod', 'c', 'n', { app: 'web' }));
    const lister = new Lister(ix);
    expect(
      lister
        .list({ app: 'web' })
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(
      lister
        .namespace('default')
        .list({ app: 'web' })
        .map((p) => p.metadata.name),
    ).toEqual(['a']);
    expect(
      lister
        .namespace('default')
        .list((l) => l.app !== 'web')
        .map((p) => p.metadata.name),
    ).toEqual(['b']);
    expect(lister.namespace('prod').get('c')?.metadata.name).toBe('c');
    expect(lister.namespace('prod').get('a')).toBeUndefined();
    expect(lister.byIndex(NODE_NAME_INDEX, 'n')).toHaveLength(3);
  });
});
