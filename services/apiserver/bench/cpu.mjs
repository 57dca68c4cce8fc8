// @ts-check
// CPU time of the benches' processes, from /proc (this process: process.cpuUsage).

import { readFileSync } from 'node:fs';

/**
 * CPU time (ms) a process has used so far (Linux /proc; 0 elsewhere). A
 * `{ thread: pid }` counts that process's main thread alone (its
 * /proc/<pid>/task/<pid>): a Node.js service's JavaScript runs there, so it
 * is what saturates first, while V8's helper threads collect garbage beside it.
 * @param {number | { thread: number }} pid
 */
function cpuMs(pid) {
  if (typeof pid === 'object') return statMs(`/proc/${pid.thread}/task/${pid.thread}/stat`);
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  return statMs(`/proc/${pid}/stat`);
}

/** utime + stime of a /proc stat file, in ms (0 when it cannot be read). @param {string} file */
function statMs(file) {
  try {
    const f = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime in 100 Hz ticks
  } catch {
    return 0;
  }
}

/**
 * Starts counting CPU of the given processes (or main threads); the result maps name → µs per op.
 * @param {Record<string, number | { thread: number } | undefined>} pids
 */
export function cpuMeter(pids) {
  const start = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? cpuMs(pid) : 0]));
  return (ops) => Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? Math.round(((cpuMs(pid) - start[k]) * 1000) / ops) : null]));
}

/**
 * Starts counting the time a process's main thread spent runnable but
 * waiting for a CPU (Linux /proc/<pid>/task/<pid>/schedstat, second field;
 * 0 elsewhere); the result is that time in ms. Beside its busy share it tells
 * whether the thread was short of work or of a free core.
 * @param {number | undefined} pid
 */
export function runQueueMeter(pid) {
  const waitMs = () => {
    try {
      return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    } catch {
      return 0;
    }
  };
  const start = pid ? waitMs() : 0;
  return () => (pid ? waitMs() - start : 0);
}
