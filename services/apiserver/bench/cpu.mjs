// @ts-check
// CPU time of the benches' processes, from /proc (this process: process.cpuUsage).

import { readFileSync } from 'node:fs';

/** CPU time (ms) a process has used so far (Linux /proc; 0 elsewhere). */
function cpuMs(pid) {
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime in 100 Hz ticks
  } catch {
    return 0;
  }
}

/** Starts counting CPU of the given processes; the result maps name → µs per op. */
export function cpuMeter(pids) {
  const start = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? cpuMs(pid) : 0]));
  return (ops) => Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? Math.round(((cpuMs(pid) - start[k]) * 1000) / ops) : null]));
}
