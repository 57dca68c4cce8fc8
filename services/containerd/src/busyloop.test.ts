// A container whose command is a busy shell loop (`while true; do :; done`)
// burns CPU but must not freeze the runtime: every container's shell shares
// the runtime's one thread, so the loop hands it back every few ms (cpu.ts)
// and timers, CRI calls and other containers go on. Windows are measured in
// this process's CPU time where a loaded machine (CI: load 10-40 on two
// cores) would otherwise starve them. Each test is bounded:
// besides the waits' own timeouts, a loop that never hands the thread back
// is ended after 2 s by the runaway guard (process.ts). Over CRI, beside other
// containers: test/busyloop.test.ts.

import { describe, expect, it } from 'vitest';
import { startProcess } from './testing/process.js';

/** CPU milliseconds this process has used (all its threads, user and system). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Counts how often a 10 ms interval fires while this process burns `ms` of
 * CPU time: a loop that hands the thread back every few ms of running lets it
 * fire on every turn, a frozen event loop at most once (when the runaway
 * guard frees the thread). The window is CPU time, not wall time: on a loaded
 * machine the process may get a tenth of a core, and a wall-time window then
 * holds a tenth of the turns (a 1 s window at load 20 saw 4 beats).
 */
async function beatsWhileBurning(ms: number): Promise<number> {
  const from = cpuMs();
  let beats = 0;
  await new Promise<void>((resolve) => {
    const iv = setInterval(() => {
      beats++;
      if (cpuMs() - from < ms) return;
      clearInterval(iv);
      resolve();
    }, 10);
  });
  return beats;
}

describe('a busy loop in a container shell', () => {
  it.each([
    ['while true; do :; done'],
    ['i=0; while :; do i=$((i+1)); done'],
    ['until false; do :; done'],
    ['for ((;;)); do :; done'],
    ['for i in $(seq 1 100000); do :; done'],
    ['spin() { while :; do :; done; }; spin'],
    ['x=$(while :; do :; done)'],
    ['sh -c "while :; do :; done"'],
    ['while :; do :; done & wait'],
  ])('`%s` leaves timers running and dies at once on KILL', { timeout: 30_000 }, async (script) => {
    const { p } = startProcess(script, { timeScale: 1 });
    // 600 ms of CPU: about 60 beats (one per 10 ms of an unloaded machine's
    // wall time, one per event-loop turn of a loaded one); a frozen loop
    // gives at most one. `$(seq 1 100000)` spends its first ~300 ms of CPU
    // expanding the list without a checkpoint.
    expect(await beatsWhileBurning(600)).toBeGreaterThan(5);
    expect(p.exit).toBeUndefined();
    // At once: the loop runs no further, so hardly any CPU goes by (in wall
    // time a loaded machine may not run this process for 100 ms and more).
    const cpu0 = cpuMs();
    p.kill();
    expect(await p.exited).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(cpuMs() - cpu0).toBeLessThan(200);
  });

  it('counts as CPU time: about a core while it spins, nothing while it sleeps', { timeout: 10_000 }, async () => {
    const hog = startProcess('while true; do :; done', { timeScale: 1 }).p;
    // A pass every 200 ms of wall time.
    const idle = startProcess('while true; do sleep 1; done', { timeScale: 5 }).p;
    await new Promise((r) => setTimeout(r, 100));
    hog.cpu.cores();
    idle.cpu.cores();
    const hog0 = hog.cpu.ranMs;
    const idle0 = idle.cpu.ranMs;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 500));
    const wall = performance.now() - t0;
    const hogRan = hog.cpu.ranMs - hog0;
    // The loop gets what the rest of the process leaves of the thread: over
    // 0.9 when this test runs alone, 0.47 right after the `$(seq 1 100000)`
    // case (its garbage). A loop that is not counted shows 0.
    expect(hogRan).toBeGreaterThan(0.3 * wall);
    expect(hog.cpu.cores()).toBeGreaterThan(0.3);
    // Run time is wall time between checkpoints: if the machine's scheduler
    // takes the thread away in the middle of one of the idle loop's passes,
    // that pass counts what the hog would otherwise have counted (tens of ms
    // at load 20). Its sleeps counted as running would make it about as busy
    // as the hog.
    expect(idle.cpu.ranMs - idle0).toBeLessThan(0.1 * hogRan);
    hog.kill();
    idle.kill();
  });

  it('text run by eval that loops forever is ended after 2 s instead of freezing the runtime', { timeout: 10_000 }, async () => {
    const { p, log } = startProcess(`eval 'while :; do :; done'`, { timeScale: 1 });
    const t0 = Date.now();
    expect(await p.exited).toMatchObject({ exitCode: 126 });
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(log.join('\n')).toContain('too many iterations');
  });

  it('streams a loop condition’s output as it runs (`until nslookup db; do ...`)', async () => {
    const { p, log } = startProcess('i=0; until echo "check $i"; [ $i -ge 2 ]; do echo waiting; i=$((i+1)); sleep 1; done; echo ready');
    expect(await p.exited).toMatchObject({ exitCode: 0 });
    expect(log).toEqual(['stdout: check 0', 'stdout: waiting', 'stdout: check 1', 'stdout: waiting', 'stdout: check 2', 'stdout: ready']);
  });
});
