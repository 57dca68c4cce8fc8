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
});
