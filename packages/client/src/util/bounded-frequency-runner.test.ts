import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { BoundedFrequencyRunner } from './bounded-frequency-runner.js';

function setup(results: boolean[] = []) {
  const clock = new FakeClock(0);
  const runs: number[] = [];
  const r = new BoundedFrequencyRunner({
    name: 'test',
    fn: async () => {
      runs.push(clock.now());
      return results.shift() ?? true;
    },
    minIntervalMs: 1000,
    maxIntervalMs: 30_000,
    retryIntervalMs: 5000,
    clock,
  });
  r.loop();
  return { clock, runs, r };
}

describe('BoundedFrequencyRunner', () => {
  it('runs at once, then folds a burst into one run after the min sync period', async () => {
    const { clock, runs, r } = setup();
    r.run();
    await clock.advance(0);
    expect(runs).toEqual([0]);
    for (let i = 0; i < 10; i++) {
      r.run();
      await clock.advance(50);
    }
    await clock.advance(1000);
    expect(runs).toEqual([0, 1000]);
    r.stop();
  });

  it('resyncs every sync period without any request', async () => {
    const { clock, runs, r } = setup();
    await clock.advance(65_000);
    expect(runs).toEqual([30_000, 60_000]);
    r.stop();
  });

  it('retries a failed sync after the retry interval', async () => {
    const { clock, runs, r } = setup([false, true]);
    r.run();
    await clock.advance(6000);
    expect(runs).toEqual([0, 5000]);
    r.stop();
  });

  it('does nothing after stop', async () => {
    const { clock, runs, r } = setup();
    r.stop();
    r.run();
    await clock.advance(60_000);
    expect(runs).toEqual([]);
  });
});
