// CFS bandwidth control, as the kernel applies a cgroup's cpu.max: in each
// period the cgroup's tasks run for at most `quota` µs of CPU, then wait
// (throttled) for the next period. The simulated runtime knows what a
// container wants to run (its demand: a program's declared cores, the time
// its shells' busy loops held the thread); this module turns demand over an
// interval into what the cgroup is allowed to use and what it was throttled,
// the figures of cgroup v2's cpu.stat.

/** cpu.max: quota and period in µs; quota 0 (or less) means "max", no limit. */
export interface CpuMax {
  quota: number;
  period: number;
}

/** A cgroup's cumulative CPU accounting (cpu.stat); periods are kept fractional, the file shows them whole. */
export interface CfsStat {
  usageUsec: number;
  nrPeriods: number;
  nrThrottled: number;
  throttledUsec: number;
}

export const CFS_ZERO: CfsStat = { usageUsec: 0, nrPeriods: 0, nrThrottled: 0, throttledUsec: 0 };

/**
 * Accounts `demandUsec` of CPU wanted over `wallUsec` of wall time, spread
 * evenly: without a quota it all runs; with one, each period grants at most
 * `quota` µs, and the demand beyond that is throttled time in throttled
 * periods. Periods count only while the cgroup has work (as nr_periods).
 */
export function cfsStep(s: CfsStat, demandUsec: number, wallUsec: number, max: CpuMax): CfsStat {
  const demand = Math.max(0, demandUsec);
  if (demand === 0 || wallUsec <= 0) return s;
  if (max.quota <= 0 || max.period <= 0) return { ...s, usageUsec: s.usageUsec + demand };
  const periods = wallUsec / max.period;
  const granted = Math.min(demand, max.quota * periods);
  const throttled = demand - granted;
  return {
    usageUsec: s.usageUsec + granted,
    nrPeriods: s.nrPeriods + periods,
    nrThrottled: s.nrThrottled + (throttled > 0 ? periods : 0),
    throttledUsec: s.throttledUsec + throttled,
  };
}

/** Cores a demand of `cores` gets under cpu.max (usage_nano_cores of a throttled container). */
export function cfsCores(cores: number, max: CpuMax): number {
  return max.quota > 0 && max.period > 0 ? Math.min(cores, max.quota / max.period) : cores;
}

/** /sys/fs/cgroup/cpu.stat (cgroup v2). The simulation runs no syscalls: all usage is user time. No cpu.max.burst: no bursts. */
export function cpuStatFile(s: CfsStat): string {
  const us = Math.floor(s.usageUsec);
  return [
    `usage_usec ${us}`,
    `user_usec ${us}`,
    'system_usec 0',
    `nr_periods ${Math.floor(s.nrPeriods)}`,
    `nr_throttled ${Math.floor(s.nrThrottled)}`,
    `throttled_usec ${Math.floor(s.throttledUsec)}`,
    'nr_bursts 0',
    'burst_usec 0',
    '',
  ].join('\n');
}
