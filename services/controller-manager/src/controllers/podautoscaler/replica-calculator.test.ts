import { describe, expect, it } from 'vitest';
import { rawResourceReplicas, resourceReplicas, usageRatio, utilizationRatio, type PodSample } from './replica-calculator.js';

const pod = (name: string, request = 1000, over: Partial<PodSample> = {}): PodSample => ({ name, ready: true, ignored: false, request, ...over });
const m = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('resourceReplicas (upstream GetResourceReplicas, cpu at 50%)', () => {
  it.each([
    // name, current, pods, metrics, want replicas, want utilization
    ['busy: 3 pods at 80% of a 50% target → 5', 3, [pod('a'), pod('b'), pod('c')], { a: 800, b: 800, c: 800 }, 5, 80],
    ['one pod at 100% → 2', 1, [pod('a')], { a: 1000 }, 2, 100],
    ['within the tolerance (54%) → unchanged', 4, [pod('a'), pod('b'), pod('c'), pod('d')], { a: 540, b: 540, c: 540, d: 540 }, 4, 54],
    ['idle: 3 pods at 10% → 1', 3, [pod('a'), pod('b'), pod('c')], { a: 100, b: 100, c: 100 }, 1, 10],
    ['a pod being deleted is left out', 2, [pod('a'), pod('b', 1000, { ignored: true })], { a: 1000, b: 0 }, 2, 100],
    // scale-up with an unready pod: it counts as idle, (1000+0)/2000 = 50% → within tolerance, unchanged
    ['scale-up with an unready pod counted idle → unchanged', 2, [pod('a'), pod('b', 1000, { ready: false })], { a: 1000, b: 900 }, 2, 100],
    // scale-down with a pod lacking metrics: it counts at its request, (100+1000)/2000 = 55% → no change
    ['scale-down with a pod without metrics counted at its request → unchanged', 2, [pod('a'), pod('b')], { a: 100 }, 2, 10],
    // scale-up with a pod without metrics: idle, (1800+0)/2000 = 90% → ceil(1.8*2) = 4
    ['scale-up with a pod without metrics counted idle → 4', 2, [pod('a'), pod('b')], { a: 1800 }, 4, 180],
  ])('%s', (_name, current, pods, metrics, replicas, utilization) => {
    const r = resourceReplicas({ currentReplicas: current, targetUtilization: 50, resource: 'cpu', pods, metrics: m(metrics) });
    expect(r.replicas).toBe(replicas);
    expect(r.utilization).toBe(utilization);
  });

  it.each([
    ['no pods', [], {}, 'no pods returned by selector while calculating replica count'],
    ['a container without a request', [pod('a', 0, { request: undefined, missingRequestContainer: 'app' })], { a: 1 }, 'missing request for cpu in container app of Pod a'],
    ['no metrics at all', [pod('a')], {}, 'did not receive metrics for targeted pods (pods might be unready)'],
  ])('fails with upstream text: %s', (_n, pods, metrics, text) => {
    expect(() => resourceReplicas({ currentReplicas: 1, targetUtilization: 50, resource: 'cpu', pods, metrics: m(metrics) })).toThrow(text);
  });

  it('utilization is floored percent of the requests of measured pods', () => {
    expect(utilizationRatio(m({ a: 333, b: 1 }), m({ a: 1000 }), 50)).toEqual({ ratio: 33 / 50, utilization: 33, rawAverage: 333 });
  });
});

describe('rawResourceReplicas (upstream GetRawResourceReplicas, an averageValue target of 200m)', () => {
  it.each([
    // name, current, pods, metrics, want replicas, want average
    ['2 pods at 500m → 5', 2, [pod('a'), pod('b')], { a: 500, b: 500 }, 5, 500],
    ['requests play no part', 1, [pod('a', 0, { request: undefined })], { a: 400 }, 2, 400],
    ['within the tolerance (210m) → unchanged', 3, [pod('a'), pod('b'), pod('c')], { a: 210, b: 210, c: 210 }, 3, 210],
    ['idle: 4 pods at 20m → 1', 4, [pod('a'), pod('b'), pod('c'), pod('d')], { a: 20, b: 20, c: 20, d: 20 }, 1, 20],
    // scale-down with a pod lacking metrics: it counts at the target, (100+200)/2 = 150m → ceil(0.75*2) = 2, unchanged
    ['scale-down with a pod without metrics counted at the target → unchanged', 2, [pod('a'), pod('b')], { a: 100 }, 2, 100],
    // scale-up with an unready pod: idle, (600+0)/2 = 300m → ceil(1.5*2) = 3
    ['scale-up with an unready pod counted idle → 3', 2, [pod('a'), pod('b', 1000, { ready: false })], { a: 600, b: 600 }, 3, 600],
  ])('%s', (_name, current, pods, metrics, replicas, average) => {
    expect(rawResourceReplicas({ currentReplicas: current, targetAverage: 200, pods, metrics: m(metrics) })).toEqual({ replicas, average });
  });

  it('fails with upstream text without metrics', () => {
    expect(() => rawResourceReplicas({ currentReplicas: 1, targetAverage: 200, pods: [pod('a')], metrics: m({}) })).toThrow('did not receive metrics for targeted pods (pods might be unready)');
  });

  it('the average is floored milli-units', () => {
    expect(usageRatio(m({ a: 333, b: 0 }), 100)).toEqual({ ratio: 1.66, average: 166 });
  });
});
