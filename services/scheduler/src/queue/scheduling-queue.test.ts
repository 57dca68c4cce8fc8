import { describe, expect, it } from 'vitest';
import { Events, nodeUpdateActions, nodeUpdateEvent } from '../framework/events.js';
import { defaultProfile } from '../framework/profile.js';
import { Framework } from '../framework/runtime.js';
import { SchedulerCache } from '../cache/cache.js';
import { newInTreeRegistry } from '../plugins/registry.js';
import { makeNode, makePod } from '../testing/builders.js';
import { SchedulingQueue } from './scheduling-queue.js';

function newQueue() {
  let t = 1_000_000;
  const fwk = new Framework(newInTreeRegistry(), defaultProfile(), new SchedulerCache());
  const q = new SchedulingQueue({
    now: () => t,
    less: (a, b) => fwk.queueSort.less(a, b),
    preEnqueue: (p) => fwk.runPreEnqueuePlugins(p),
    eventsByPlugin: fwk.eventsToRegister(),
  });
  return { q, advance: (ms: number) => (t += ms) };
}

/** Pops a pod and fails it as rejected by `plugins` (empty = an error). */
function failCycle(q: SchedulingQueue, plugins: string[]) {
  const p = q.tryPop()!;
  p.unschedulablePlugins = new Set(plugins);
  q.addUnschedulableIfNotPresent(p, q.currentSchedulingCycle);
  return p;
}

describe('SchedulingQueue', () => {
  it('pops by priority, then by arrival', () => {
    const { q, advance } = newQueue();
    q.add(makePod('low', { priority: 0 }));
    advance(1);
    q.add(makePod('high', { priority: 100 }));
    advance(1);
    q.add(makePod('low2', { priority: 0 }));
    expect([q.tryPop(), q.tryPop(), q.tryPop()].map((p) => p!.pod.metadata.name)).toEqual(['high', 'low', 'low2']);
  });

  it('backs off 1 s, doubling per attempt up to 10 s', () => {
    const { q } = newQueue();
    expect([1, 2, 3, 4, 5, 6].map((n) => q.backoffDuration(n))).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('an errored pod waits out its backoff in backoffQ', () => {
    const { q, advance } = newQueue();
    q.add(makePod('p'));
    failCycle(q, []);
    expect(q.whereIs('default/p')).toBe('backoff');
    advance(999);
    expect(q.flushBackoffQCompleted()).toBe(0);
    advance(1);
    expect(q.flushBackoffQCompleted()).toBe(1);
    expect(q.whereIs('default/p')).toBe('active');
    // second failure: 2 s
    failCycle(q, []);
    advance(1999);
    expect(q.flushBackoffQCompleted()).toBe(0);
    advance(1);
    expect(q.flushBackoffQCompleted()).toBe(1);
  });

  it('a rejected pod is parked until an event its rejecting plugin registered', () => {
    const { q, advance } = newQueue();
    q.add(makePod('p', { cpu: '1' }));
    failCycle(q, ['NodeResourcesFit']);
    expect(q.whereIs('default/p')).toBe('unschedulable');
    // A label change does not concern NodeResourcesFit.
    const old = makeNode('n');
    const relabelled = makeNode('n', { labels: { x: 'y' } });
    expect(q.moveAllToActiveOrBackoffQueue(nodeUpdateEvent(nodeUpdateActions(old, relabelled))!)).toBe(0);
    expect(q.whereIs('default/p')).toBe('unschedulable');
    // An assigned pod going away frees resources: move, to backoffQ while still backing off.
    expect(q.moveAllToActiveOrBackoffQueue(Events.AssignedPodDelete)).toBe(1);
    expect(q.whereIs('default/p')).toBe('backoff');
    advance(1000);
    q.flushBackoffQCompleted();
    expect(q.whereIs('default/p')).toBe('active');
  });

  it('node label changes move pods rejected by NodeAffinity straight to activeQ once backoff is over', () => {
    const { q, advance } = newQueue();
    q.add(makePod('p', { nodeSelector: { disk: 'ssd' } }));
    failCycle(q, ['NodeAffinity']);
    advance(5000);
    expect(q.moveAllToActiveOrBackoffQueue(nodeUpdateEvent(nodeUpdateActions(makeNode('n'), makeNode('n', { labels: { disk: 'ssd' } })))!)).toBe(1);
    expect(q.whereIs('default/p')).toBe('active');
  });

  it('an event during the pod’s cycle sends it to backoffQ instead of parking it', () => {
    const { q } = newQueue();
    q.add(makePod('p'));
    const p = q.tryPop()!;
    const cycle = q.currentSchedulingCycle;
    q.moveAllToActiveOrBackoffQueue(Events.NodeAdd);
    p.unschedulablePlugins = new Set(['TaintToleration']);
    q.addUnschedulableIfNotPresent(p, cycle);
    expect(q.whereIs('default/p')).toBe('backoff');
  });

  it('flushes pods parked longer than 5 minutes', () => {
    const { q, advance } = newQueue();
    q.add(makePod('p'));
    failCycle(q, ['NodeAffinity']);
    advance(5 * 60_000);
    expect(q.flushUnschedulablePodsLeftover()).toBe(0);
    advance(1);
    expect(q.flushUnschedulablePodsLeftover()).toBe(1);
    expect(q.whereIs('default/p')).toBe('active');
  });

  it('keeps pods with scheduling gates out of activeQ until the gates are gone', () => {
    const { q } = newQueue();
    const gated = makePod('g');
    gated.spec!.schedulingGates = [{ name: 'example.com/wait' }];
    q.add(gated);
    expect(q.whereIs('default/g')).toBe('gated');
    expect(q.pendingCounts()).toEqual({ active: 0, backoff: 0, unschedulable: 0, gated: 1 });
    expect(q.moveAllToActiveOrBackoffQueue(Events.NodeAdd)).toBe(0);
    const ungated = makePod('g');
    q.update(gated, ungated);
    expect(q.whereIs('default/g')).toBe('active');
  });

  it('a spec update of a parked pod retries it', () => {
    const { q, advance } = newQueue();
    const p = makePod('p', { nodeSelector: { disk: 'ssd' } });
    q.add(p);
    failCycle(q, ['NodeAffinity']);
    advance(2000);
    q.update(p, makePod('p'));
    expect(q.whereIs('default/p')).toBe('active');
  });

  it('pop waits for a pod and returns undefined once closed', async () => {
    const { q } = newQueue();
    const waiting = q.pop();
    q.add(makePod('p'));
    expect((await waiting)?.pod.metadata.name).toBe('p');
    const closed = q.pop();
    q.close();
    expect(await closed).toBeUndefined();
  });

  it('delete removes a pod from every sub-queue', () => {
    const { q } = newQueue();
    const p = makePod('p');
    q.add(p);
    q.delete(p);
    expect(q.whereIs('default/p')).toBeUndefined();
    expect(q.tryPop()).toBeUndefined();
  });
});
