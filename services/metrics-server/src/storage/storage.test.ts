import { describe, expect, it } from 'vitest';
import type { MetricsPoint, NodeBatch } from '../scrape/decode.js';
import { MetricsStorage, usageBetween } from './storage.js';

const pt = (timestamp: number, cpuSeconds: number, memory: number, startTime = 0): MetricsPoint => ({ timestamp, cumulativeCpuUsed: cpuSeconds * 1e9, memoryUsage: memory, startTime });
const batch = (node: MetricsPoint, containers: Record<string, MetricsPoint> = {}): NodeBatch => ({
  node,
  pods: new Map([['default/busy', { ref: { namespace: 'default', name: 'busy' }, containers: new Map(Object.entries(containers)) }]]),
});

describe('usageBetween (upstream resourceUsage)', () => {
  it.each([
    ['one core for 15 s', pt(0, 10, 1), pt(15_000, 25, 2), { cpu: 1e9, memory: 2, timestamp: 15_000, windowMs: 15_000 }],
    ['a quarter core', pt(1000, 0, 5), pt(11_000, 2.5, 6), { cpu: 250_000_000, memory: 6, timestamp: 11_000, windowMs: 10_000 }],
    ['idle', pt(0, 3, 7), pt(15_000, 3, 7), { cpu: 0, memory: 7, timestamp: 15_000, windowMs: 15_000 }],
    ['counter went down (restart)', pt(0, 10, 1), pt(15_000, 1, 1), undefined],
    ['not newer', pt(15_000, 1, 1), pt(15_000, 2, 1), undefined],
  ])('%s', (_n, prev, last, want) => {
    expect(usageBetween({ prev, last })).toEqual(want);
  });
  it('needs two points', () => {
    expect(usageBetween({ last: pt(1, 1, 1) })).toBeUndefined();
  });
});

describe('MetricsStorage', () => {
  it('has usage from the second scrape on, pods once every container has it', () => {
    const s = new MetricsStorage();
    s.store(new Map([['node-1', batch(pt(0, 100, 1000), { app: pt(0, 10, 10) })]]));
    expect(s.ready()).toBe(false);
    expect(s.nodeUsage('node-1')).toBeUndefined();
    expect(s.podUsage('default', 'busy')).toBeUndefined();
    s.store(new Map([['node-1', batch(pt(15_000, 115, 2000), { app: pt(15_000, 17.5, 20), side: pt(15_000, 1, 5) })]]));
    expect(s.ready()).toBe(true);
    expect(s.nodeUsage('node-1')).toEqual({ cpu: 1e9, memory: 2000, timestamp: 15_000, windowMs: 15_000 });
    // "side" appeared in this scrape: the pod waits for its second point.
    expect(s.podUsage('default', 'busy')).toBeUndefined();
    s.store(new Map([['node-1', batch(pt(30_000, 130, 2000), { app: pt(30_000, 25, 20), side: pt(30_000, 1, 5) })]]));
    expect(s.podUsage('default', 'busy')).toEqual({
      ref: { namespace: 'default', name: 'busy' },
      containers: [
        { name: 'app', usage: { cpu: 500_000_000, memory: 20, timestamp: 30_000, windowMs: 15_000 } },
        { name: 'side', usage: { cpu: 0, memory: 5, timestamp: 30_000, windowMs: 15_000 } },
      ],
    });
  });
  it('forgets what the last round did not return, and starts a restarted container over', () => {
    const s = new MetricsStorage();
    s.store(new Map([['node-1', batch(pt(0, 1, 1), { app: pt(0, 1, 1, 100) })]]));
    s.store(new Map([['node-1', batch(pt(15_000, 2, 1), { app: pt(15_000, 2, 1, 200) })]]));
    expect(s.podUsage('default', 'busy')).toBeUndefined();
    s.store(new Map());
    expect(s.nodeUsage('node-1')).toBeUndefined();
    expect(s.ready()).toBe(false);
  });
});
