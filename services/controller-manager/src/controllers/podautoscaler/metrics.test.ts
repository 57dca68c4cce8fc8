import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { goDurationMs, podMetricsFromList, type PodMetricsItem } from './metrics.js';
import { podSamples } from './samples.js';

const item = (name: string, containers: Record<string, string | undefined>): PodMetricsItem => ({
  metadata: { name, namespace: 'default' },
  timestamp: '2026-01-01T00:00:00Z',
  window: '15.02s',
  containers: Object.entries(containers).map(([c, cpu]) => ({ name: c, usage: cpu === undefined ? { memory: '1Mi' } : ({ cpu, memory: '1Mi' } as Record<string, string>) })),
});

describe('metrics.k8s.io pod metrics as the HPA reads them', () => {
  it.each([
    ['10s', 10_000],
    ['1m0s', 60_000],
    ['15.02s', 15_020],
    ['500ms', 500],
  ])('window %s is %d ms', (text, ms) => expect(goDurationMs(text)).toBe(ms));

  it('sums containers, or reads one; a pod missing the resource in a container is left out', () => {
    const items = [item('a', { web: '250m', sidecar: '50000000n' }), item('b', { web: '1', sidecar: undefined })];
    expect([...podMetricsFromList(items, 'cpu')].map(([k, v]) => [k, v.value])).toEqual([['a', 300]]);
    expect([...podMetricsFromList(items, 'cpu', 'web')].map(([k, v]) => [k, v.value])).toEqual([
      ['a', 250],
      ['b', 1000],
    ]);
  });

  it('an empty list is upstream\'s "no metrics returned"', () => {
    expect(() => podMetricsFromList([], 'cpu')).toThrow('no metrics returned from resource metrics API');
  });
});

describe('pods grouped for the replica calculation (groupPods)', () => {
  const NOW = Date.parse('2026-01-01T00:10:00Z');
  const pod = (name: string, o: { phase?: string; started?: string; ready?: 'True' | 'False'; readySince?: string; deleting?: boolean }): Pod => ({
    metadata: { name, namespace: 'default', ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:09:00Z' } : {}) },
    spec: { containers: [{ name: 'web', image: 'busybox', resources: { requests: { cpu: '200m' } } }] },
    status: {
      phase: (o.phase ?? 'Running') as 'Running',
      ...(o.started ? { startTime: o.started } : {}),
      ...(o.ready ? { conditions: [{ type: 'Ready', status: o.ready, lastTransitionTime: o.readySince ?? o.started }] } : {}),
    },
  });
  const metric = { value: 100, timestamp: NOW - 1000, windowMs: 15_000 };
  it.each<[string, Pod, { ready: boolean; ignored: boolean }]>([
    ['ready long ago', pod('a', { started: '2026-01-01T00:00:00Z', ready: 'True' }), { ready: true, ignored: false }],
    ['pending', pod('a', { phase: 'Pending' }), { ready: false, ignored: false }],
    ['being deleted', pod('a', { started: '2026-01-01T00:00:00Z', ready: 'True', deleting: true }), { ready: true, ignored: true }],
    ['no Ready condition', pod('a', { started: '2026-01-01T00:00:00Z' }), { ready: false, ignored: false }],
    ['started 1 min ago, ready, measured since', pod('a', { started: '2026-01-01T00:09:00Z', ready: 'True', readySince: '2026-01-01T00:09:10Z' }), { ready: true, ignored: false }],
    ['started 1 min ago, ready 5 s ago: not a full window yet', pod('a', { started: '2026-01-01T00:09:00Z', ready: 'True', readySince: '2026-01-01T00:09:55Z' }), { ready: false, ignored: false }],
  ])('%s', (_n, p, want) => {
    expect(podSamples([p], new Map([['a', metric]]), 'cpu', NOW)[0]).toMatchObject({ name: 'a', request: 200, ...want });
  });
});
