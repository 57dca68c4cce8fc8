// The virtual shims' pids and what a signal does to one (pure). A shim's pid
// is above the kernel's pid_max, so no real process ever has it: a `kill`
// that misses the shim host's view of it finds no process rather than
// another one.

import { readFileSync } from 'node:fs';

/** Linux's default pid_max on 64-bit kernels without systemd's raise. */
export const DEFAULT_PID_MAX = 32768;
/** Pids apart: the pause process of a hostPID view sits just below its shim's pid (tasks.ts). */
export const VPID_STRIDE = 2;

/** /proc/sys/kernel/pid_max, or the default where it cannot be read. */
export function pidMax(read: () => string = () => readFileSync('/proc/sys/kernel/pid_max', 'utf8')): number {
  try {
    const n = Number(read().trim());
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_PID_MAX;
  } catch {
    return DEFAULT_PID_MAX;
  }
}

/** The pid of the host's `n`th shim (from 0): past pid_max, never a real process's. */
export function virtualPid(max: number, n: number): number {
  return max + VPID_STRIDE * (n + 1);
}

/** What a signal does to a shim: upstream's shim dies of the fatal ones, ignores the rest; 0 only asks whether it exists. */
export type SignalEffect = 'exit' | 'ignore' | 'probe';

const FATAL = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGABRT', 'SIGUSR1', 'SIGUSR2', 'SIGALRM', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGSYS', 'SIGTRAP']);

export function signalEffect(signal: string | number): SignalEffect {
  if (signal === 0 || signal === '0') return 'probe';
  return typeof signal === 'string' && FATAL.has(signal) ? 'exit' : 'ignore';
}
