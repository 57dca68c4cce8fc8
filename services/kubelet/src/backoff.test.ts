import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';
import { FakeClock } from '@kubelab/client/testing';

describe('Backoff (CrashLoopBackOff / image pull)', async () => {
  it('starts at 10 s, doubles to a 5 min cap, and resets after 10 min without failures', async () => {
    const clock = new FakeClock();
    const b = new Backoff(10_000, 300_000, clock);
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      b.next('k', clock.now());
      seen.push(b.get('k'));
      await clock.advance(1000);
    }
    expect(seen).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    await clock.advance(600_001);
    b.next('k', clock.now());
    expect(b.get('k')).toBe(10_000);
  });

  it('is in back-off until the window since the failure has passed', async () => {
    const clock = new FakeClock();
    const b = new Backoff(10_000, 300_000, clock);
    const failedAt = clock.now();
    expect(b.isInBackOffSince('k', failedAt)).toBe(false);
    b.next('k', failedAt);
    await clock.advance(9_999);
    expect(b.isInBackOffSince('k', failedAt)).toBe(true);
    await clock.advance(1);
    expect(b.isInBackOffSince('k', failedAt)).toBe(false);
    expect(b.retryAt('k', failedAt)).toBe(failedAt + 10_000);
  });

  it('a crash loop at the 5 min cap keeps its window however long ago the exit before it was; a 10 min run starts over', async () => {
    const clock = new FakeClock();
    const b = new Backoff(10_000, 300_000, clock);
    // As doBackOff uses it: each restart records the exit it follows (eventTime), stamped at the restart.
    let exitedAt = clock.now();
    const restartAfter = async (waitMs: number, runMs: number) => {
      await clock.advance(waitMs);
      b.next('k', exitedAt);
      await clock.advance(runMs);
      exitedAt = clock.now();
    };
    for (let i = 0; i < 7; i++) await restartAfter(b.get('k'), 120_000);
    expect(b.get('k')).toBe(300_000);
    // 4 min after this exit (11 min after the one before): still waiting.
    await clock.advance(240_000);
    expect(b.isInBackOffSince('k', exitedAt)).toBe(true);
    await clock.advance(60_000);
    expect(b.isInBackOffSince('k', exitedAt)).toBe(false);
    // The next instance runs just over 10 min: its exit is not in back-off, and the window is 10 s again.
    await restartAfter(0, 600_001);
    expect(b.isInBackOffSince('k', exitedAt)).toBe(false);
    b.next('k', exitedAt);
    expect(b.get('k')).toBe(10_000);
  });
});
