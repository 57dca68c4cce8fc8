import { describe, expect, it } from 'vitest';
import { resourcesFromList } from './discovery.js';

describe('resourcesFromList', () => {
  it("turns metrics-server's APIResourceList into discovery's resources", () => {
    const list = {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'metrics.k8s.io/v1beta1',
      resources: [
        { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
        { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
      ],
    };
    expect(resourcesFromList('metrics.k8s.io', 'v1beta1', list)).toEqual([
      {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        resource: 'nodes',
        singular: 'nodemetrics',
        kind: 'NodeMetrics',
        listKind: 'NodeMetricsList',
        namespaced: false,
        shortNames: [],
        categories: [],
        verbs: ['get', 'list'],
        subresources: [],
      },
      {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        resource: 'pods',
        singular: 'podmetrics',
        kind: 'PodMetrics',
        listKind: 'PodMetricsList',
        namespaced: true,
        shortNames: [],
        categories: [],
        verbs: ['get', 'list'],
        subresources: [],
      },
    ]);
  });
  it('keeps subresources with their resource and refuses what is not a list', () => {
    const list = {
      kind: 'APIResourceList',
      resources: [
        { name: 'widgets', kind: 'Widget', namespaced: true, verbs: ['get'] },
        { name: 'widgets/status', kind: 'Widget', verbs: ['get'] },
      ],
    };
    expect(resourcesFromList('x.io', 'v1', list)?.[0]?.subresources).toEqual(['status']);
    expect(resourcesFromList('x.io', 'v1', { kind: 'Status' })).toBeUndefined();
    expect(resourcesFromList('x.io', 'v1', null)).toBeUndefined();
  });
});
