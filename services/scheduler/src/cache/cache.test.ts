import { describe, expect, it } from 'vitest';
import { boundPod, makeNode, makePod } from '../testing/builders.js';
import { SchedulerCache } from './cache.js';

const assumed = (name: string, node: string, cpu = '1') => makePod(name, { cpu, nodeName: node });

describe('SchedulerCache', () => {
  it('counts assumed pods on their node until the watch confirms them', () => {
    const c = new SchedulerCache();
    c.addNode(makeNode('n1', { cpu: '2' }));
    c.assumePod(assumed('a', 'n1'));
    c.assumePod(assumed('b', 'n1'));
    expect(c.get('n1')!.requested.milliCPU).toBe(2000);
    expect(c.dump()).toEqual({ n1: { pods: ['default/a', 'default/b'], assumed: ['default/a', 'default/b'] } });
    c.finishBinding(assumed('a', 'n1'));
    c.addPod(boundPod('a', 'n1', { cpu: '1' }));
    expect(c.isAssumedPod(assumed('a', 'n1'))).toBe(false);
    expect(c.dump()).toEqual({ n1: { pods: ['default/a', 'default/b'], assumed: ['default/b'] } });
    expect(c.get('n1')!.requested.milliCPU).toBe(2000);
  });

  it('forgets an assumed pod whose binding failed', () => {
    const c = new SchedulerCache();
    c.addNode(makeNode('n1'));
    c.assumePod(assumed('a', 'n1'));
    c.forgetPod(assumed('a', 'n1'));
    expect(c.get('n1')!.pods).toHaveLength(0);
    expect(c.get('n1')!.requested.milliCPU).toBe(0);
    expect(() => c.assumePod(assumed('a', 'n1'))).not.toThrow();
  });

  it('refuses to assume a pod twice', () => {
    const c = new SchedulerCache();
    c.addNode(makeNode('n1'));
    c.assumePod(assumed('a', 'n1'));
    expect(() => c.assumePod(assumed('a', 'n1'))).toThrow("pod default/a is in the cache, so can't be assumed");
  });

  it('moves a pod the watch shows bound to another node', () => {
    const c = new SchedulerCache();
    c.addNode(makeNode('n1'));
    c.addNode(makeNode('n2'));
    c.assumePod(assumed('a', 'n1'));
    c.addPod(boundPod('a', 'n2', { cpu: '1' }));
    expect(c.get('n1')!.requested.milliCPU).toBe(0);
    expect(c.get('n2')!.requested.milliCPU).toBe(1000);
  });

  it('expires assumed pods after the TTL once binding finished', () => {
    let t = 0;
    const c = new SchedulerCache({ now: () => t, assumedPodTTLMs: 30_000 });
    c.addNode(makeNode('n1'));
    c.assumePod(assumed('a', 'n1'));
    t = 60_000;
    expect(c.cleanupExpiredAssumedPods()).toEqual([]);
    c.finishBinding(assumed('a', 'n1'));
    t += 29_999;
    expect(c.cleanupExpiredAssumedPods()).toEqual([]);
    t += 1;
    expect(c.cleanupExpiredAssumedPods()).toEqual(['default/a']);
    expect(c.get('n1')!.pods).toHaveLength(0);
  });

  it('keeps pods of a deleted node out of the node list', () => {
    const c = new SchedulerCache();
    const n1 = makeNode('n1');
    c.addNode(n1);
    c.addNode(makeNode('n2'));
    c.addPod(boundPod('a', 'n1'));
    c.removeNode(n1);
    expect(c.list().map((n) => n.name)).toEqual(['n2']);
    expect(c.get('n1')).toBeUndefined();
    c.removePod(boundPod('a', 'n1'));
    expect(c.dump()).toEqual({ n2: { pods: [], assumed: [] } });
  });

  it('accepts pods before their node and updates a pod in place', () => {
    const c = new SchedulerCache();
    c.addPod(boundPod('a', 'n1', { cpu: '1' }));
    c.addNode(makeNode('n1'));
    expect(c.get('n1')!.requested.milliCPU).toBe(1000);
    c.updatePod(boundPod('a', 'n1', { cpu: '1' }), boundPod('a', 'n1', { cpu: '2' }));
    expect(c.get('n1')!.requested.milliCPU).toBe(2000);
  });
});
