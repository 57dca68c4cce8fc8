// Batching watches share one timer per interval (server.ts sharedTick).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedTick } from './server.js';

describe('sharedTick', () => {
  afterEach(() => vi.useRealTimers());

  it('wakes every waiter of a tick together with one timer, and arms none while nobody waits', async () => {
    vi.useFakeTimers();
    const tick = sharedTick(10);
    const woken: string[] = [];
    void tick().then(() => woken.push('a'));
    await vi.advanceTimersByTimeAsync(4);
    void tick().then(() => woken.push('b'));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(6);
    expect(woken).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
    void tick().then(() => woken.push('c'));
    await vi.advanceTimersByTimeAsync(9);
    expect(woken).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(1);
    expect(woken).toEqual(['a', 'b', 'c']);
  });
});
