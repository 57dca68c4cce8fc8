// CFS bandwidth control of the simulated cgroup: cpu.max caps what a
// container's demand is accounted as (usage), the rest is throttling, and
// cgroup v2's cpu.stat shows both.

import { describe, expect, it } from 'vitest';
import { CFS_ZERO, cfsCores, cfsStep, cpuStatFile, type CfsStat, type CpuMax } from './cfs.js';
import { startProcess } from './testing/process.js';

const HALF: CpuMax = { quota: 50_000, period: 100_000 };
const NONE: CpuMax = { quota: 0, period: 100_000 };
const SECOND = 1_000_000;

describe('cfsStep: one second of demand under cpu.max', () => {
  it.each<[string, number, CpuMax, CfsStat]>([
    ['1 core, quota 50000/100000: half a core, every period throttled', 1, HALF, { usageUsec: 500_000, nrPeriods: 10, nrThrottled: 10, throttledUsec: 500_000 }],
    ['2 cores, quota 50000/100000: still half a core', 2, HALF, { usageUsec: 500_000, nrPeriods: 10, nrThrottled: 10, throttledUsec: 1_500_000 }],
    ['1 core, no quota: unthrottled, no periods', 1, NONE, { usageUsec: 1_000_000, nrPeriods: 0, nrThrottled: 0, throttledUsec: 0 }],
    ['0.2 core, quota 50000/100000: under the quota, no throttling', 0.2, HALF, { usageUsec: 200_000, nrPeriods: 10, nrThrottled: 0, throttledUsec: 0 }],
    ['exactly the quota: not throttled', 0.5, HALF, { usageUsec: 500_000, nrPeriods: 10, nrThrottled: 0, throttledUsec: 0 }],
    ['idle: no periods counted', 0, HALF, CFS_ZERO],
  ])('%s', (_name, cores, max, want) => {
    const got = cfsStep(CFS_ZERO, cores * SECOND, SECOND, max);
    expect(got.usageUsec).toBeCloseTo(want.usageUsec, 3);
    expect(got.nrPeriods).toBeCloseTo(want.nrPeriods, 6);
    expect(got.nrThrottled).toBeCloseTo(want.nrThrottled, 6);
    expect(got.throttledUsec).toBeCloseTo(want.throttledUsec, 3);
  });

  it('accumulates: nr_throttled grows with each throttled interval and stops while under the quota', () => {
    let s = cfsStep(CFS_ZERO, SECOND, SECOND, HALF);
    s = cfsStep(s, SECOND, SECOND, HALF);
    expect(s.nrThrottled).toBeCloseTo(20, 6);
    s = cfsStep(s, 0.1 * SECOND, SECOND, HALF);
    expect(s).toMatchObject({ usageUsec: expect.closeTo(1_100_000, 3), nrThrottled: expect.closeTo(20, 6) });
    expect(s.nrPeriods).toBeCloseTo(30, 6);
  });

  it('ignores an empty interval (no wall time passed)', () => {
    expect(cfsStep(CFS_ZERO, 1000, 0, HALF)).toBe(CFS_ZERO);
  });
});

describe('cfsCores and cpu.stat', () => {
  it.each([
    [1, HALF, 0.5],
    [0.2, HALF, 0.2],
    [3, NONE, 3],
    [4, { quota: 150_000, period: 100_000 }, 1.5],
  ])('%s cores under %o run as %s', (cores, max, want) => {
    expect(cfsCores(cores, max)).toBe(want);
  });

  it('prints cgroup v2 keys in whole units', () => {
    expect(cpuStatFile({ usageUsec: 500_000.7, nrPeriods: 10.4, nrThrottled: 9.9, throttledUsec: 500_000.2 })).toBe(
      'usage_usec 500000\nuser_usec 500000\nsystem_usec 0\nnr_periods 10\nnr_throttled 9\nthrottled_usec 500000\nnr_bursts 0\nburst_usec 0\n',
    );
  });
});

/** cpu.stat as a key → number map, read inside the container. */
async function cpuStat(p: ReturnType<typeof startProcess>['p']): Promise<Record<string, number>> {
  const { stdout } = await p.execSync(['cat', '/sys/fs/cgroup/cpu.stat'], 5000);
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => [l.split(' ')[0]!, Number(l.split(' ')[1])]),
  );
}

/**
 * cpu.stat read twice, `ms` apart. The runtime accounts up to the moment the
 * `cat` reads the file, somewhere inside each exec: the interval between the
 * two readings is known only to lie between `shortestUsec` (end of the first
 * exec to start of the second) and `longestUsec` (start of the first to end
 * of the second). On an idle machine the two are a few ms apart; on a loaded
 * one an exec can take 100 ms, so the figures are checked against that
 * bracket rather than against one wall-clock measurement.
 */
async function cpuStatOver(p: ReturnType<typeof startProcess>['p'], ms: number) {
  const t0 = performance.now();
  const a = await cpuStat(p);
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const t2 = performance.now();
  const b = await cpuStat(p);
  const t3 = performance.now();
  return { a, b, shortestUsec: (t2 - t1) * 1000, longestUsec: (t3 - t0) * 1000, execsUsec: (t1 - t0 + (t3 - t2)) * 1000 };
}

/** cpu.stat prints whole µs: a figure computed from the interval may be off by one at each end. */
const ROUNDING_USEC = 2;

describe('stress --cpu 1 in a container', () => {
  it('under a 500m limit (cpu.max 50000 100000) is accounted about half a core and throttled', { timeout: 10_000 }, async () => {
    const { p } = startProcess(['stress', '--cpu', '1'], { programs: ['stress'], cpuMax: HALF });
    await new Promise((r) => setTimeout(r, 100));
    const { a, b, shortestUsec, longestUsec } = await cpuStatOver(p, 1000);
    // A whole core wanted, half of it granted: usage is half the interval, the other half throttled.
    const usage = b.usage_usec! - a.usage_usec!;
    expect(usage).toBeGreaterThanOrEqual(0.5 * shortestUsec - ROUNDING_USEC);
    expect(usage).toBeLessThanOrEqual(0.5 * longestUsec + ROUNDING_USEC);
    expect(b.nr_throttled).toBeGreaterThan(a.nr_throttled!);
    expect(b.nr_throttled).toBeGreaterThan(0);
    expect(b.throttled_usec! - a.throttled_usec!).toBeGreaterThanOrEqual(0.5 * shortestUsec - ROUNDING_USEC);
    // What the kubelet's stats show (usage_nano_cores): half a core, not one.
    expect(cfsCores(p.demandCores(), p.cpuMax)).toBeCloseTo(0.5, 2);
    p.kill();
  });

  it('without a limit runs a whole core, never throttled', { timeout: 10_000 }, async () => {
    const { p } = startProcess(['stress', '--cpu', '1'], { programs: ['stress'] });
    await new Promise((r) => setTimeout(r, 100));
    const { a, b, shortestUsec, longestUsec, execsUsec } = await cpuStatOver(p, 500);
    // A whole core for the interval, plus what the `cat` shells themselves ran (at most the execs' time).
    const usage = b.usage_usec! - a.usage_usec!;
    expect(usage).toBeGreaterThanOrEqual(shortestUsec - ROUNDING_USEC);
    expect(usage).toBeLessThanOrEqual(longestUsec + execsUsec + ROUNDING_USEC);
    expect(b).toMatchObject({ nr_periods: 0, nr_throttled: 0, throttled_usec: 0 });
    p.kill();
  });
});

describe('a shell busy loop in a container', () => {
  it('under cpu.max 20000 100000 is accounted at most a fifth of a core, the rest throttled', { timeout: 10_000 }, async () => {
    const { p } = startProcess('while :; do :; done', { timeScale: 1, cpuMax: { quota: 20_000, period: 100_000 } });
    await new Promise((r) => setTimeout(r, 100));
    const { a, b, longestUsec } = await cpuStatOver(p, 600);
    // The loop wants well over half a core (busyloop.test.ts); the quota lets it have 0.2 of the interval.
    expect(b.usage_usec! - a.usage_usec!).toBeLessThanOrEqual(0.2 * longestUsec + ROUNDING_USEC);
    expect(b.nr_throttled).toBeGreaterThan(a.nr_throttled!);
    expect(cfsCores(p.demandCores(), p.cpuMax)).toBeLessThanOrEqual(0.2);
    p.kill();
  });
});
