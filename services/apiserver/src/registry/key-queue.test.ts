import { describe, expect, it } from 'vitest';
import { KeyQueue } from './key-queue.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyQueue', () => {
  it('runs writers of one key one after another, in arrival order, past failures', async () => {
    const q = new KeyQueue();
    const log: string[] = [];
    let running = 0;
    const writer = (name: string, fail = false) =>
      q.run('a', async () => {
        running++;
        expect(running).toBe(1);
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([writer('1'), writer('2', true), writer('3')]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['1', '2', '3']);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    await tick();
    expect(q.size).toBe(0);
  });

  it('does not hold one key behind another', async () => {
    const q = new KeyQueue();
    let release!: () => void;
    const blocked = q.run('a', () => new Promise<void>((r) => (release = r)));
    expect(await q.run('b', async () => 'b')).toBe('b');
    release();
    await blocked;
  });
});
