// A container whose command is a busy shell loop (`while true; do :; done`)
// burns CPU but must not freeze the runtime: every container's shell shares
// the runtime's one thread, so the loop hands it back every few ms (cpu.ts)
// and timers, CRI calls and other containers go on. Each test is bounded:
// besides the waits' own timeouts, a loop that never hands the thread back
// is ended after 2 s by the runaway guard (process.ts). Over CRI, beside other
// containers: test/busyloop.test.ts.

import { describe, expect, it } from 'vitest';
import { startProcess } from './testing/process.js';

/** Counts how often a 10 ms interval fires while `ms` of wall time pass: a frozen event loop gives ~0. */
async function beatsDuring(ms: number): Promise<number> {
  let beats = 0;
  const iv = setInterval(() => beats++, 10);
  await new Promise((r) => setTimeout(r, ms));
  clearInterval(iv);
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
  ])('`%s` leaves timers running and dies at once on KILL', { timeout: 10_000 }, async (script) => {
    const { p } = startProcess(script, { timeScale: 1 });
    // 1 s: 100 beats on an idle machine; a frozen loop gives at most one
    // (the interval fires once when the runaway guard frees the thread after
    // 2 s). The bound leaves room for a loaded machine: 300 ms windows saw
    // 9 of 30 beats at load 5, and 3 of 30 for `$(seq 1 100000)` with the
    // whole suite running on two cores.
    expect(await beatsDuring(1_000)).toBeGreaterThan(5);
    expect(p.exit).toBeUndefined();
    const t0 = Date.now();
    p.kill();
    expect(await p.exited).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it('counts as CPU time: about a core while it spins, nothing while it sleeps', { timeout: 10_000 }, async () => {
    const hog = startProcess('while true; do :; done', { timeScale: 1 }).p;
    const idle = startProcess('while true; do sleep 1; done', { timeScale: 20 }).p;
    await new Promise((r) => setTimeout(r, 100));
    hog.cpu.cores();
    idle.cpu.cores();
    const ran0 = hog.cpu.ranMs;
    await new Promise((r) => setTimeout(r, 500));
    // The test's own timers share the thread: well over half of it still goes to the loop.
    expect(hog.cpu.ranMs - ran0).toBeGreaterThan(250);
    expect(hog.cpu.cores()).toBeGreaterThan(0.5);
    expect(idle.cpu.cores()).toBeLessThan(0.05);
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
