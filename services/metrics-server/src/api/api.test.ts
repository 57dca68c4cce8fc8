import { describe, expect, it } from 'vitest';
import { StatusError, type Node, type Pod } from '@kubelab/api';
import type { UserInfo } from '@kubelab/component-base';
import { MetricsStorage } from '../storage/storage.js';
import type { MetricsPoint } from '../scrape/decode.js';
import { usageList } from './convert.js';
import { answer, type MetricsApiDeps } from './handler.js';
import { attributesOf, parseMetricsPath } from './request.js';

describe('usageList (quantities as upstream serializes them)', () => {
  it.each([
    [
      { cpu: 139_906_619, memory: 1_228_800 },
      { cpu: '139906619n', memory: '1200Ki' },
    ],
    [
      { cpu: 150_000_000, memory: 1_048_576 },
      { cpu: '150m', memory: '1Mi' },
    ],
    [
      { cpu: 2e9, memory: 1000 },
      { cpu: '2', memory: '1k' },
    ],
    [
      { cpu: 997_340_426, memory: 1_228_801 },
      { cpu: '997340426n', memory: '1228801' },
    ],
    [
      { cpu: 0, memory: 0 },
      { cpu: '0', memory: '0' },
    ],
  ])('%j', (u, want) => {
    expect(usageList(u)).toEqual(want);
  });
});

describe('parseMetricsPath and its authorization attributes', () => {
  const u: UserInfo = { name: 'jane', groups: [] };
  it.each([
    ['/apis/metrics.k8s.io/v1beta1', { kind: 'resourceList' }],
    ['/apis/metrics.k8s.io', { kind: 'group' }],
    ['/apis/metrics.k8s.io/v1beta1/nodes', { kind: 'nodes' }],
    ['/apis/metrics.k8s.io/v1beta1/nodes/node-1', { kind: 'nodes', name: 'node-1' }],
    ['/apis/metrics.k8s.io/v1beta1/pods', { kind: 'pods' }],
    ['/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', { kind: 'pods', namespace: 'default' }],
    ['/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web', { kind: 'pods', namespace: 'default', name: 'web' }],
    ['/apis/metrics.k8s.io/v1/nodes', { kind: 'other' }],
    ['/api/v1/pods', { kind: 'other' }],
  ])('%s', (path, want) => {
    expect(parseMetricsPath(path)).toEqual(want);
  });
  it('names the resource, verb and namespace a SubjectAccessReview asks about', () => {
    const a = attributesOf(u, 'GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', parseMetricsPath('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods'));
    expect(a).toMatchObject({ verb: 'list', resourceRequest: true, apiGroup: 'metrics.k8s.io', resource: 'pods', namespace: 'default', name: '' });
    expect(attributesOf(u, 'GET', '/apis/metrics.k8s.io/v1beta1/nodes/n', { kind: 'nodes', name: 'n' })).toMatchObject({ verb: 'get', resource: 'nodes', name: 'n' });
    expect(attributesOf(u, 'GET', '/readyz', { kind: 'other' })).toMatchObject({ verb: 'get', resourceRequest: false, path: '/readyz' });
  });
});

describe('answer (the nodes and pods storages)', () => {
  const pt = (timestamp: number, cpuSeconds: number, memory: number): MetricsPoint => ({ timestamp, cumulativeCpuUsed: cpuSeconds * 1e9, memoryUsage: memory, startTime: 0 });
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  const storage = new MetricsStorage();
  const pods = (containers: Record<string, MetricsPoint>) => new Map([['default/busy', { ref: { namespace: 'default', name: 'busy' }, containers: new Map(Object.entries(containers)) }]]);
  storage.store(new Map([['node-1', { node: pt(t0, 100, 1), pods: pods({ app: pt(t0, 10, 1) }) }]]));
  storage.store(new Map([['node-1', { node: pt(t0 + 15_040, 103.008, 536_870_912), pods: pods({ app: pt(t0 + 15_040, 25, 52_428_800) }) }]]));
  const node: Node = { metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } } };
  const busy: Pod = { metadata: { name: 'busy', namespace: 'default', labels: { app: 'busy' } }, spec: { containers: [{ name: 'app', image: 'busybox' }] } };
  const quiet: Pod = { metadata: { name: 'quiet', namespace: 'default', labels: { app: 'quiet' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  const deps: MetricsApiDeps = {
    storage,
    nodes: () => [node, { metadata: { name: 'node-2' } }],
    pods: (ns) => [busy, quiet].filter((p) => !ns || p.metadata.namespace === ns),
    now: () => t0 + 20_000,
  };
  const q = (s = '') => new URLSearchParams(s);

  it('lists NodeMetrics of the nodes with usage', () => {
    expect(answer({ kind: 'nodes' }, 'GET', q(), deps).body).toEqual({
      kind: 'NodeMetricsList',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {},
      items: [
        {
          kind: 'NodeMetrics',
          apiVersion: 'metrics.k8s.io/v1beta1',
          metadata: { name: 'node-1', creationTimestamp: '2025-01-01T00:00:20Z', labels: { 'kubernetes.io/hostname': 'node-1' } },
          timestamp: '2025-01-01T00:00:15Z',
          window: '15.04s',
          usage: { cpu: '200m', memory: '512Mi' },
        },
      ],
    });
  });
  it('gets PodMetrics by name, filters lists by label selector, and answers NotFound as upstream', () => {
    const got = answer({ kind: 'pods', namespace: 'default', name: 'busy' }, 'GET', q(), deps).body as { containers: unknown };
    expect(got.containers).toEqual([{ name: 'app', usage: { cpu: '997340426n', memory: '50Mi' } }]);
    expect((answer({ kind: 'pods', namespace: 'default' }, 'GET', q('labelSelector=app%3Dquiet'), deps).body as { items: unknown[] }).items).toEqual([]);
    expect((answer({ kind: 'pods' }, 'GET', q('labelSelector=app%3Dbusy'), deps).body as { items: unknown[] }).items).toHaveLength(1);
    const err = (() => {
      try {
        answer({ kind: 'pods', namespace: 'default', name: 'quiet' }, 'GET', q(), deps);
      } catch (e) {
        return e as StatusError;
      }
    })();
    expect(err?.status).toMatchObject({ code: 404, reason: 'NotFound', message: 'podmetrics.metrics.k8s.io "default/quiet" not found' });
    expect(() => answer({ kind: 'nodes', name: 'node-2' }, 'GET', q(), deps)).toThrow('nodemetrics.metrics.k8s.io "node-2" not found');
    expect(() => answer({ kind: 'nodes' }, 'GET', q('labelSelector=a%20b'), deps)).toThrow(StatusError);
  });
});
