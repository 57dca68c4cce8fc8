import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../util/fake-clock.js';
import { prometheusWorkqueueMetrics } from './metrics.js';
import { Queue } from './queue.js';
import { DelayingQueue } from './delaying.js';
import { newRateLimitingQueue } from './rate-limiting.js';
import { BucketRateLimiter } from './rate-limiters.js';

describe('Queue', () => {
  it('hands out items in FIFO order and dedups an item while it is queued', () => {
    const q = new Queue<string>();
    q.add('default/a');
    q.add('default/b');
    q.add('default/a');
    expect(q.len()).toBe(2);
    expect(q.tryGet()).toBe('default/a');
    expect(q.tryGet()).toBe('default/b');
    expect(q.tryGet()).toBeUndefined();
  });

  it('never hands an item being processed to a second worker; a re-add waits for done()', () => {
    const q = new Queue<string>();
    q.add('k');
    expect(q.tryGet()).toBe('k');
    q.add('k'); // changed while a worker holds it
    q.add('k');
    expect(q.len()).toBe(0);
    expect(q.tryGet()).toBeUndefined();
    q.done('k');
    expect(q.len()).toBe(1);
    expect(q.tryGet()).toBe('k');
    q.done('k');
    expect(q.len()).toBe(0);
  });

  it('wakes a waiting get() on add and resolves undefined after shutDown', async () => {
    const q = new Queue<string>();
    const first = q.get();
    q.add('x');
    expect(await first).toBe('x');
    const second = q.get();
    q.shutDown();
    expect(await second).toBeUndefined();
    q.add('y');
    expect(q.len()).toBe(0);
    expect(await q.get()).toBeUndefined();
  });

  it('shutDownWithDrain waits until every item in flight is done', async () => {
    const q = new Queue<string>();
    q.add('a');
    q.tryGet();
    let drained = false;
    const p = q.shutDownWithDrain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    expect(q.isDraining()).toBe(true);
    q.done('a');
    await p;
    expect(drained).toBe(true);
  });

  it('reports the upstream workqueue_* metrics for a named queue', async () => {
    const clock = new FakeClock();
    const registry = new Registry();
    const q = new Queue<string>({ name: 'deployment', metricsProvider: prometheusWorkqueueMetrics(registry), clock });
    q.add('a');
    q.add('b');
    await clock.advance(2000);
    q.tryGet();
    await clock.advance(3000);
    q.updateUnfinishedWork();
    const text = await registry.metrics();
    expect(text).toContain('workqueue_depth{name="deployment"} 1');
    expect(text).toContain('workqueue_adds_total{name="deployment"} 2');
    expect(text).toContain('workqueue_queue_duration_seconds_sum{name="deployment"} 2');
    expect(text).toContain('workqueue_unfinished_work_seconds{name="deployment"} 3');
    expect(text).toContain('workqueue_longest_running_processor_seconds{name="deployment"} 3');
    q.done('a');
    const after = await registry.metrics();
    expect(after).toContain('workqueue_work_duration_seconds_count{name="deployment"} 1');
    expect(after).toContain('workqueue_work_duration_seconds_sum{name="deployment"} 3');
    q.shutDown();
  });
});

describe('DelayingQueue', () => {
  it('adds an item only when its delay has passed, keeping the earliest deadline', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('a', 1000);
    q.addAfter('b', 500);
    q.addAfter('a', 200); // earlier wins
    q.addAfter('b', 5000); // later is ignored
    await clock.advance(199);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.tryGet()).toBe('a');
    await clock.advance(299);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.tryGet()).toBe('b');
    expect(q.waitingLen()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('adds immediately for a non-positive delay and drops waiting items on shutdown', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('now', 0);
    expect(q.tryGet()).toBe('now');
    q.addAfter('later', 100);
    q.shutDown();
    await clock.advance(1000);
    expect(q.len()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('RateLimitingQueue', () => {
  it('backs off per item from 5 ms doubling, and forget resets it', async () => {
    const clock = new FakeClock();
    const q = newRateLimitingQueue<string>({ clock });
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) delays.push(q.rateLimiter.when('x'));
    expect(delays).toEqual([5, 10, 20, 40, 80]);
    expect(q.numRequeues('x')).toBe(5);
    q.forget('x');
    expect(q.numRequeues('x')).toBe(0);
    q.addRateLimited('x');
    await clock.advance(4);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.tryGet()).toBe('x');
    q.shutDown();
  });

  it('caps the per-item backoff at 1000 s', () => {
    const q = newRateLimitingQueue<string>({ clock: new FakeClock() });
    let last = 0;
    for (let i = 0; i < 40; i++) last = q.rateLimiter.when('y');
    expect(last).toBe(1000_000);
  });

  it('limits all items together to 10 qps after a burst of 100', () => {
    const q = newRateLimitingQueue<string>({ clock: new FakeClock() });
    // distinct items: no per-item backoff beyond 5 ms, only the bucket
    const waits = Array.from({ length: 103 }, (_, i) => q.rateLimiter.when(`item-${i}`));
    expect(waits.slice(0, 100).every((w) => w === 5)).toBe(true);
    expect(waits.slice(100)).toEqual([100, 200, 300]);
  });

  it('counts retries in workqueue_retries_total', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const q = newRateLimitingQueue<string>({ name: 'nodes', metricsProvider: prometheusWorkqueueMetrics(registry), clock });
    q.addRateLimited('n1');
    q.addRateLimited('n1');
    expect(await registry.metrics()).toContain('workqueue_retries_total{name="nodes"} 2');
    q.shutDown();
  });
});

describe('BucketRateLimiter', () => {
  it('tryTake spends the burst, then one token per 1/qps seconds', async () => {
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    const b = new BucketRateLimiter<string>(0.1, 1, clock);
    expect(b.tryTake()).toBe(true);
    expect(b.tryTake()).toBe(false);
    expect(b.msUntilToken()).toBe(10_000);
    await clock.advance(9_999);
    expect(b.tryTake()).toBe(false);
    await clock.advance(1);
    expect(b.tryTake()).toBe(true);
  });

  it('setQps keeps the tokens earned so far; qps 0 takes nothing and never will', async () => {
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    const b = new BucketRateLimiter<string>(1, 2, clock);
    expect(b.tryTake()).toBe(true);
    await clock.advance(500);
    b.setQps(0);
    expect(b.qps).toBe(0);
    expect(b.tryTake()).toBe(false);
    expect(b.msUntilToken()).toBe(Number.POSITIVE_INFINITY);
    b.setQps(2);
    expect(b.tryTake()).toBe(true); // 1.5 tokens were kept
    expect(b.tryTake()).toBe(false);
    expect(b.msUntilToken()).toBe(250);
  });
});
