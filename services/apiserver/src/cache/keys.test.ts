import { describe, expect, it } from 'vitest';
import { parseKey } from './keys.js';

type Want = { resource: string; group: string; prefix: string; namespace: string; name: string } | undefined;

describe('parseKey', () => {
  // The storage key back to its parts (etcd3 store layout): a key that does not fit its resource's scope is no key of it.
  it.each<[string, Want]>([
    ['/registry/pods/default/web', { resource: 'pods', group: '', prefix: '/registry/pods', namespace: 'default', name: 'web' }],
    ['/registry/nodes/node-1', { resource: 'nodes', group: '', prefix: '/registry/nodes', namespace: '', name: 'node-1' }],
    ['/registry/apps/deployments/default/web', { resource: 'deployments', group: 'apps', prefix: '/registry/apps/deployments', namespace: 'default', name: 'web' }],
    ['/registry/pods/default', undefined],
    ['/registry/pods', undefined],
    ['/registry/pods/', undefined],
    ['/registry/nodes/', { resource: 'nodes', group: '', prefix: '/registry/nodes', namespace: '', name: '' }],
    ['/registry/pods/a/b/c', undefined],
    ['/registry/nodes/a/b', undefined],
    ['/registry/example.com/widgets/ns/w1', { resource: 'widgets', group: 'example.com', prefix: '/registry/example.com/widgets', namespace: 'ns', name: 'w1' }],
    ['/registry/example.com/gadgets/g1', { resource: 'gadgets', group: 'example.com', prefix: '/registry/example.com/gadgets', namespace: '', name: 'g1' }],
    ['/registry/example.com/widgets', undefined],
    ['/registry/unknown/x', undefined],
    ['/other/pods/default/web', undefined],
    ['registry/pods/default/web', undefined],
    ['/registry/masterleases/10.0.0.1', undefined],
    ['/registry/pods/default/a%2Fb', { resource: 'pods', group: '', prefix: '/registry/pods', namespace: 'default', name: 'a%2Fb' }],
    ['/registry/storage.k8s.io/storageclasses/standard', { resource: 'storageclasses', group: 'storage.k8s.io', prefix: '/registry/storage.k8s.io/storageclasses', namespace: '', name: 'standard' }],
    ['/registry/events/default/e1', { resource: 'events', group: '', prefix: '/registry/events', namespace: 'default', name: 'e1' }],
    [
      '/registry/coordination.k8s.io/leases/kube-node-lease/node-1',
      { resource: 'leases', group: 'coordination.k8s.io', prefix: '/registry/coordination.k8s.io/leases', namespace: 'kube-node-lease', name: 'node-1' },
    ],
    [
      '/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com',
      { resource: 'customresourcedefinitions', group: 'apiextensions.k8s.io', prefix: '/registry/apiextensions.k8s.io/customresourcedefinitions', namespace: '', name: 'widgets.example.com' },
    ],
    ['/registry/example.com/widgets/ns/w1/extra', undefined],
  ])('%s', (key, want) => {
    const p = parseKey(key);
    expect(p && { resource: p.info.resource, group: p.info.group, prefix: p.prefix, namespace: p.namespace, name: p.name }).toEqual(want);
  });
});
