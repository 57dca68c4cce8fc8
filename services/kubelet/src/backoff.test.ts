import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';
import { FakeClock } from './clock.js';

describe('Backoff (CrashLoopBackOff / image pull)', () => {
  it('starts at 10 s, doubles to a 5 min cap, and resets after 10 min without failures', () => {
    const clock = new FakeClock();
    const b = new Backoff(10_000, 300_000, clock);
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      b.next('k', clock.now());
      seen.push(b.get('k'));
      clock.step(1000);
    }
    expect(seen).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    clock.step(600_001);
    b.next('k', clock.now());
    expect(b.get('k')).toBe(10_000);
  });

  it('is in back-off until the window since the failure has passed', () => {
    const clock = new FakeClock();
    const b = new Backoff(10_000, 300_000, clock);
    const failedAt = clock.now();
    expect(b.isInBackOffSince('k', failedAt)).toBe(false);
    b.next('k', failedAt);
    clock.step(9_999);
    expect(b.isInBackOffSince('k', failedAt)).toBe(true);
    clock.step(1);
    expect(b.isInBackOffSince('k', failedAt)).toBe(false);
    expect(b.retryAt('k', failedAt)).toBe(failedAt + 10_000);
  });

  it('a crash loop at the 5 min cap keeps its window however long ago the exit before it was; a 10 min run starts over', () => {
    const clock = new FakeClock();
    const b = new Backoff(10_000, 300_000, clock);
    // As doBackOff uses it: each restart records the exit it follows (eventTime), stamped at the restart.
    let exitedAt = clock.now();
    const restartAfter = (waitMs: number, runMs: number) => {
      clock.step(waitMs);
      b.next('k', exitedAt);
      clock.step(runMs);
      exitedAt = clock.now();
    };
    for (let i = 0; i < 7; i++) restartAfter(b.get('k'), 120_000);
    expect(b.get('k')).toBe(300_000);
    // 4 min after this exit (11 min after the one before): still waiting.
    clock.step(240_000);
    expect(b.isInBackOffSince('k', exitedAt)).toBe(true);
    clock.step(60_000);
    expect(b.isInBackOffSince('k', exitedAt)).toBe(false);
    // The next instance runs just over 10 min: its exit is not in back-off, and the window is 10 s again.
    restartAfter(0, 600_001);
    expect(b.isInBackOffSince('k', exitedAt)).toBe(false);
    b.next('k', exitedAt);
    expect(b.get('k')).toBe(10_000);
  });
});
