import { describe, expect, it } from 'vitest';
import { LoopLag, overloadedAfter } from './loop-lag.js';

describe('overloadedAfter (hysteresis of the worker loop lag)', () => {
  it.each([
    { name: 'an on-time tick keeps a quiet loop quiet', was: false, lateMs: 3, want: false },
    { name: 'a tick 250 ms late makes it overloaded', was: false, lateMs: 250, want: true },
    { name: 'in between, a quiet loop stays quiet', was: false, lateMs: 120, want: false },
    { name: 'in between, an overloaded loop stays overloaded', was: true, lateMs: 120, want: true },
    { name: 'a tick within 50 ms ends the overload', was: true, lateMs: 50, want: false },
  ])('$name', ({ was, lateMs, want }) => expect(overloadedAfter(was, lateMs)).toBe(want));
});

describe('LoopLag', () => {
  const tick = () => new Promise((r) => setTimeout(r, 130));

  it('reads a loop blocked past the high limit as overloaded until a tick comes on time, and calls onTick at each sample', async () => {
    let ticks = 0;
    const lag = new LoopLag(() => ticks++);
    try {
      await tick();
      const until = performance.now() + 400;
      while (performance.now() < until); // the loop blocked for 400 ms: the next tick is at least 300 ms late
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 0));
      expect(lag.overloaded()).toBe(true);
      // On time again (within 50 ms) at some tick: a loaded test machine may take a few.
      for (let i = 0; i < 40 && lag.overloaded(); i++) await tick();
      expect(lag.overloaded()).toBe(false);
      expect(ticks).toBeGreaterThanOrEqual(3);
    } finally {
      lag.stop();
    }
  });
});
