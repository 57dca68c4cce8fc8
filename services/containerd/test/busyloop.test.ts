// A busy shell loop in one container, over CRI: the other containers' calls
// still answer promptly, and StopContainer's TERM and KILL end it (the loop
// in one shell: src/busyloop.test.ts).

import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { startHarness, type Harness } from '../src/testing/harness.js';

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
    const s = await waitFor(
      'the exit',
      async () => {
        const st = (await h.cri.rt.ContainerStatus({ containerId })).status!;
        return st.state === 'CONTAINER_EXITED' ? st : undefined;
      },
      { timeoutMs: 2000 },
    );
    expect(s).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});
