import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import {
  evictionMessage,
  makeSignalObservations,
  nodeConditions,
  nodeConditionsLastObservedAt,
  nodeConditionsObservedSince,
  rankMemoryPressure,
  rankPIDPressure,
  thresholdsFirstObservedAt,
  thresholdsMet,
  thresholdsMetGracePeriod,
  thresholdToReclaim,
  type PodStats,
  type Summary,
} from './helpers.js';
import { DEFAULT_EVICTION_HARD, parseThresholdConfig } from './thresholds.js';

const Mi = 1024 * 1024;
const Gi = 1024 * Mi;

const pod = (name: string, extra: { memoryRequest?: string; priority?: number } = {}): Pod => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: {
    ...(extra.priority !== undefined ? { priority: extra.priority } : {}),
    containers: [{ name: 'app', image: 'busybox', ...(extra.memoryRequest ? { resources: { requests: { memory: extra.memoryRequest } } } : {}) }],
  },
});
const stats = (name: string, workingSetBytes: number, processes = 1): PodStats => ({
  uid: `uid-${name}`,
  containers: [{ name: 'app', workingSetBytes, rootfsUsedBytes: 0, inodesUsed: 0 }],
  processes,
});
const statsFunc = (list: PodStats[]) => (p: Pod) => list.find((s) => s.uid === p.metadata.uid);

const summary = (workingSetBytes: number, fsAvail = 50 * Gi): Summary => ({
  memory: { capacityBytes: Gi, workingSetBytes },
  nodeFs: { capacityBytes: 100 * Gi, availableBytes: fsAvail, inodes: 1000, inodesFree: 900 },
  imageFs: { capacityBytes: 100 * Gi, availableBytes: fsAvail, inodes: 1000, inodesFree: 900 },
  pods: [],
});

describe('threshold flags', () => {
  it('parses the upstream default hard thresholds', () => {
    const t = parseThresholdConfig({ hard: DEFAULT_EVICTION_HARD });
    expect(t.map((x) => [x.signal, x.value.quantity?.toString() ?? x.value.percentage, x.gracePeriodMs])).toEqual([
      ['imagefs.available', Math.fround(Math.fround(15) / 100), 0],
      ['memory.available', '100Mi', 0],
      ['nodefs.available', Math.fround(Math.fround(10) / 100), 0],
      ['nodefs.inodesFree', Math.fround(Math.fround(5) / 100), 0],
    ]);
  });

  it('needs a grace period for each soft threshold and rejects what upstream rejects', () => {
    expect(() => parseThresholdConfig({ hard: '', soft: 'memory.available<1Gi' })).toThrow('grace period must be specified for the soft eviction threshold memory.available');
    expect(() => parseThresholdConfig({ hard: 'memory.avail<1Gi' })).toThrow('unsupported eviction signal memory.avail');
    expect(() => parseThresholdConfig({ hard: 'memory.available<0' })).toThrow('eviction threshold memory.available must be positive: 0');
    expect(() => parseThresholdConfig({ hard: 'nodefs.available<150%' })).toThrow('eviction percentage threshold nodefs.available must be <= 100%: 150%');
    expect(() => parseThresholdConfig({ hard: 'memory.available' })).toThrow('malformed pair, expect string<string');
    // 0% and 100% are ignored.
    expect(parseThresholdConfig({ hard: 'nodefs.available<0%' })).toEqual([]);
    const soft = parseThresholdConfig({ hard: '', soft: 'memory.available<300Mi', softGracePeriod: 'memory.available=1m30s', minimumReclaim: 'memory.available=50Mi' });
    expect(soft).toHaveLength(1);
    expect(soft[0]).toMatchObject({ signal: 'memory.available', gracePeriodMs: 90_000 });
    expect(soft[0]!.minReclaim?.quantity?.toString()).toBe('50Mi');
  });
});

describe('signals and thresholds', () => {
  const hard = parseThresholdConfig({ hard: DEFAULT_EVICTION_HARD });

  it('memory.available is capacity minus working set; 100Mi is met below it', () => {
    const obs = makeSignalObservations(summary(Gi - 42 * Mi));
    expect(obs['memory.available']).toEqual({ available: 42 * Mi, capacity: Gi });
    expect(thresholdsMet(hard, obs, false).map((t) => t.signal)).toEqual(['memory.available']);
    expect(thresholdsMet(hard, makeSignalObservations(summary(Gi - 100 * Mi)), false)).toEqual([]);
  });

  it('percentages apply to capacity: nodefs below 10% and imagefs below 15% are disk pressure', () => {
    const met = thresholdsMet(hard, makeSignalObservations(summary(0, 9 * Gi)), false);
    expect(met.map((t) => t.signal).sort()).toEqual(['imagefs.available', 'nodefs.available']);
    expect(nodeConditions(met)).toEqual(['DiskPressure']);
  });

  it('with min-reclaim a met threshold holds until available exceeds value + reclaim', () => {
    const [t] = parseThresholdConfig({ hard: 'memory.available<100Mi', minimumReclaim: 'memory.available=50Mi' });
    const obs = makeSignalObservations(summary(Gi - 120 * Mi));
    expect(thresholdsMet([t!], obs, false)).toEqual([]);
    expect(thresholdsMet([t!], obs, true)).toEqual([t]);
  });

  it('a soft threshold drives eviction only after its grace period', () => {
    const soft = parseThresholdConfig({ hard: '', soft: 'memory.available<300Mi', softGracePeriod: 'memory.available=30s' });
    const first = thresholdsFirstObservedAt(soft, new Map(), 1000);
    expect(thresholdsMetGracePeriod(first, 1000 + 29_999)).toEqual([]);
    const again = thresholdsFirstObservedAt(soft, first, 20_000);
    expect(thresholdsMetGracePeriod(again, 31_000)).toEqual(soft);
  });

  it('a pressure condition holds for the transition period after the signal recovers', () => {
    const seen = nodeConditionsLastObservedAt(['MemoryPressure'], new Map(), 0);
    const later = nodeConditionsLastObservedAt([], seen, 10_000);
    expect(nodeConditionsObservedSince(later, 300_000, 10_000)).toEqual(['MemoryPressure']);
    expect(nodeConditionsObservedSince(later, 300_000, 300_000)).toEqual([]);
  });

  it('memory is reclaimed before disk', () => {
    const both = thresholdsMet(hard, makeSignalObservations(summary(Gi - 10 * Mi, Gi)), false);
    expect(thresholdToReclaim(both)).toMatchObject({ resource: 'memory', threshold: { signal: 'memory.available' } });
  });
});

describe('ranking', () => {
  it('memory: usage above requests first, then lower priority, then larger usage above requests', () => {
    const pods = [pod('within', { memoryRequest: '500Mi' }), pod('hog-high', { priority: 1000 }), pod('hog-low'), pod('small-low')];
    const s = statsFunc([stats('within', 400 * Mi), stats('hog-high', 300 * Mi), stats('hog-low', 200 * Mi), stats('small-low', 10 * Mi)]);
    expect(rankMemoryPressure(pods, s).map((p) => p.metadata.name)).toEqual(['hog-low', 'small-low', 'hog-high', 'within']);
  });

  it('pods without stats rank first', () => {
    const s = statsFunc([stats('a', 500 * Mi)]);
    expect(rankMemoryPressure([pod('a'), pod('b')], s).map((p) => p.metadata.name)).toEqual(['b', 'a']);
  });

  it('pids: lower priority, then more processes', () => {
    const s = statsFunc([stats('a', 0, 1), stats('b', 0, 5), stats('c', 0, 9)]);
    expect(rankPIDPressure([pod('a'), pod('b'), pod('c', { priority: 10 })], s).map((p) => p.metadata.name)).toEqual(['b', 'a', 'c']);
  });
});

describe('eviction message', () => {
  it('names the resource, the threshold, what is available and the containers over their request', () => {
    const hard = parseThresholdConfig({ hard: 'memory.available<100Mi' });
    const obs = makeSignalObservations(summary(Gi - 42 * Mi));
    const p = pod('hog', { memoryRequest: '64Mi' });
    const msg = evictionMessage('memory', p, statsFunc([stats('hog', 180 * Mi)]), hard, obs);
    expect(msg).toBe('The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi. Container app was using 180Mi, request is 64Mi, has larger consumption of memory. ');
    const noReq = evictionMessage('memory', pod('x'), statsFunc([stats('x', 180 * Mi + 1)]), hard, obs);
    expect(noReq).toBe('The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi. Container app was using 188743681, request is 0, has larger consumption of memory. ');
  });

  it('a percentage threshold prints as a quantity of capacity', () => {
    const hard = parseThresholdConfig({ hard: 'nodefs.available<10%' });
    const obs = makeSignalObservations(summary(0, 5 * Gi));
    expect(evictionMessage('ephemeral-storage', pod('x'), () => undefined, hard, obs)).toBe(
      `The node was low on resource: ephemeral-storage. Threshold quantity: ${Math.trunc(100 * Gi * Math.fround(Math.fround(10) / 100))}, available: 5Gi. `,
    );
  });
});
