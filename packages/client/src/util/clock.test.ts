import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_DELAY_MS, realClock } from './clock.js';

describe('realClock.setTimeout', () => {
  afterEach(() => vi.useRealTimers());

  it('fires a short timer once, and stop() before it cancels it', async () => {
    const fired: string[] = [];
    realClock.setTimeout(() => fired.push('a'), 5);
    const b = realClock.setTimeout(() => fired.push('b'), 5);
    expect(b.stop()).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['a']);
    expect(b.stop()).toBe(false);
  });

  it("waits out a delay beyond Node's 2^31-1 ms limit instead of firing at once", async () => {
    let fired = 0;
    const t = realClock.setTimeout(() => fired++, 300 * 24 * 3600_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toBe(0);
    expect(t.stop()).toBe(true);
  });

  it('fires a long timer after its whole delay, in steps of the longest one', () => {
    vi.useFakeTimers();
    let fired = 0;
    realClock.setTimeout(() => fired++, 2 * MAX_TIMER_DELAY_MS + 1000);
    vi.advanceTimersByTime(2 * MAX_TIMER_DELAY_MS);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(fired).toBe(1);
  });
});
