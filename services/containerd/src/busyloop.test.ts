// A container whose command is a busy shell loop (`while true; do :; done`)
// burns CPU but must not freeze the runtime: every container's shell shares
// the runtime's one thread, so the loop hands it back every few ms (cpu.ts)
// and timers, CRI calls and other containers go on. Each test is bounded:
// besides the waits' own timeouts, a loop that never hands the thread back
// is ended after 2 s by the runaway guard (process.ts).

import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { startHarness, type Harness } from './testing/harness.js';
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
    // 300 ms: 30 beats on an idle machine; a frozen loop gives at most one
    // (the interval fires once when the runaway guard frees the thread after
    // 2 s). The bound leaves room for a loaded CI machine (9 beats seen at load 5).
    expect(await beatsDuring(300)).toBeGreaterThan(3);
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

describe('a busy container beside others, over CRI', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.dispose();
  });


  /** Wall milliseconds a call takes. */
  const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const t0 = performance.now();
    const r = await f();
    return [r, performance.now() - t0];
  };

  it('ExecSync in another container and ListContainers answer promptly; stats show the hog at about a core', { timeout: 20_000 }, async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24' });
    const hog = await h.runPod('hog', 'busybox:1.36', { args: ['sh', '-c', 'while true; do :; done'] });
    const web = await h.runPod('web', 'busybox:1.36', { args: ['sh', '-c', 'echo ok > /tmp/healthy; sleep 3600'] });
    await new Promise((r) => setTimeout(r, 200));
    const before = (await h.cri.rt.ContainerStats({ containerId: hog.containerId })).stats!.cpu!;
    const worst = { exec: 0, list: 0 };
    for (let i = 0; i < 10; i++) {
      const [r, execMs] = await timed(() => h.cri.rt.ExecSync({ containerId: web.containerId, cmd: ['cat', '/tmp/healthy'], timeout: 1 }));
      expect(r).toMatchObject({ exitCode: 0 });
      expect(r.stdout.toString()).toBe('ok\n');
      const [list, listMs] = await timed(() => h.cri.rt.ListContainers({}));
      expect(list.containers.filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(2);
      worst.exec = Math.max(worst.exec, execMs);
      worst.list = Math.max(worst.list, listMs);
    }
    // Slices of 4 ms; the bound leaves room for a loaded machine, a frozen runtime never answers.
    expect(worst.exec).toBeLessThan(500);
    expect(worst.list).toBeLessThan(500);
    const after = (await h.cri.rt.ContainerStats({ containerId: hog.containerId })).stats!.cpu!;
    const cores = Number(BigInt(after.usageCoreNanoSeconds!.value) - BigInt(before.usageCoreNanoSeconds!.value)) / Number(BigInt(after.timestamp) - BigInt(before.timestamp));
    expect(cores).toBeGreaterThan(0.3);
    expect(Number(after.usageNanoCores!.value)).toBeGreaterThan(0.3e9);
    const web2 = (await h.cri.rt.ContainerStats({ containerId: web.containerId })).stats!.cpu!;
    expect(Number(web2.usageNanoCores!.value)).toBeLessThan(0.05e9);
  });

  it('StopContainer: the TERM is ignored (no trap), the KILL after the grace period ends it with 137', { timeout: 20_000 }, async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 10 });
    const { containerId } = await h.runPod('hog', 'busybox:1.36', { args: ['sh', '-c', 'while true; do :; done'] });
    await new Promise((r) => setTimeout(r, 100));
    // 3 s of grace at time scale 10: 300 ms of wall time.
    const [, stopMs] = await timed(() => h.cri.rt.StopContainer({ containerId, timeout: 3 }));
    expect(stopMs).toBeGreaterThanOrEqual(250);
    expect(stopMs).toBeLessThan(3000);
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
  });

  it("StopContainer: `trap 'exit 0' TERM` around a busy loop exits 0 soon after the TERM", { timeout: 20_000 }, async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 1 });
    const { containerId } = await h.runPod('hog', 'busybox:1.36', { args: ['sh', '-c', "trap 'exit 0' TERM; while true; do :; done"] });
    await new Promise((r) => setTimeout(r, 100));
    // 30 s of grace: only the trap can end it this soon.
    const [, stopMs] = await timed(() => h.cri.rt.StopContainer({ containerId, timeout: 30 }));
    expect(stopMs).toBeLessThan(2000);
    const s = await waitFor('the exit', async () => {
      const st = (await h.cri.rt.ContainerStatus({ containerId })).status!;
      return st.state === 'CONTAINER_EXITED' ? st : undefined;
    }, { timeoutMs: 2000 });
    expect(s).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});
