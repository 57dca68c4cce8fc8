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
  if (typeof pid === 'object') return statMs(mainThread(pid.thread));
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  return statMs(`/proc/${pid}`);
}

/** A process's main thread in /proc (Linux names it by the process id). @param {number} pid */
const mainThread = (pid) => `/proc/${pid}/task/${pid}`;

/** A number read from a /proc file (0 when it cannot be read: not Linux, or the process is gone). @param {string} file @param {(text: string) => number} parse */
function procNumber(file, parse) {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch {
    return 0;
  }
}

/** utime + stime of a /proc process or thread directory, in ms. @param {string} dir */
function statMs(dir) {
  return procNumber(`${dir}/stat`, (text) => {
    const f = text.split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime in 100 Hz ticks
  });
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
  const waitMs = () => (pid ? procNumber(`${mainThread(pid)}/schedstat`, (text) => Number(text.split(' ')[1]) / 1e6) : 0);
  const start = waitMs();
  return () => waitMs() - start;
}
