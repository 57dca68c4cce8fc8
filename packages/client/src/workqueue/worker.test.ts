import { describe, expect, it } from 'vitest';
import { FakeClock } from '../util/fake-clock.js';
import { newRateLimitingQueue } from './rate-limiting.js';
import { processNextWorkItem, runWorkers } from './worker.js';

describe('processNextWorkItem', () => {
  it('forgets on success, requeues with backoff on error, and always marks done', async () => {
    const clock = new FakeClock();
    const q = newRateLimitingQueue<string>({ clock });
    const errors: string[] = [];
    let fail = 2;
    const sync = async (key: string) => {
      if (fail-- > 0) throw new Error(`sync ${key} failed`);
    };
    const onError = (key: string, err: unknown, n: number) => errors.push(`${key}: ${(err as Error).message} (requeues ${n})`);
    q.add('default/web');
    expect(await processNextWorkItem(q, sync, onError)).toBe(true);
    expect(q.len()).toBe(0); // waiting 5 ms
    await clock.advance(5);
    expect(await processNextWorkItem(q, sync, onError)).toBe(true);
    await clock.advance(10);
    expect(await processNextWorkItem(q, sync, onError)).toBe(true);
    expect(errors).toEqual(['default/web: sync default/web failed (requeues 1)', 'default/web: sync default/web failed (requeues 2)']);
    expect(q.numRequeues('default/web')).toBe(0);
    q.shutDown();
    expect(await processNextWorkItem(q, sync)).toBe(false);
  });

  it('runWorkers never syncs one key on two workers at once', async () => {
    const q = newRateLimitingQueue<string>({ clock: new FakeClock() });
    const active = new Set<string>();
    const overlaps: string[] = [];
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const sync = async (key: string) => {
      if (active.has(key)) overlaps.push(key);
      active.add(key);
      order.push(key);
      if (order.length === 1) await gate; // hold the first "a" while it is re-added
      active.delete(key);
    };
    const done = runWorkers(q, 3, sync);
    q.add('a');
    await Promise.resolve();
    q.add('a');
    q.add('b');
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a', 'b']);
    release();
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a', 'b', 'a']);
    q.shutDown();
    await done;
    expect(overlaps).toEqual([]);
  });
});
