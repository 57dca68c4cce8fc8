// containerd's shims on a local node (one shim host process runs every
// sandbox's shim as a virtual one): the node shell still shows one
// containerd-shim-runc-v2 per pod with its containers under it, `kill -9` of
// one shim's pid ends only that pod's containers (the kubelet restarts
// them), and `systemctl restart containerd` leaves both pods' containers
// running unchanged (adopted: same ID, same start, no restart).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { LocalCluster } from './local-cluster.js';

const ready = requireTool('nats-server') && requireTool('kubectl');

interface ContainerStatus {
  containerID?: string;
  restartCount: number;
  state: { running?: { startedAt: string } };
  lastState?: { terminated?: { exitCode: number; reason?: string } };
}

describe.runIf(ready)("containerd's shims on a local node", { timeout: 180_000 }, () => {
  const cluster = new LocalCluster('kubelab-shim-host-');
  const kubectl = (...args: string[]) => cluster.kubectl(args);
  const ssh = (command: string) => cluster.kubelab(['ssh', 'node-1', '--', command], 30_000);
  const status = async (pod: string) => (JSON.parse((await kubectl('get', 'pod', pod, '-o', 'json')).stdout) as { status: { containerStatuses?: ContainerStatus[] } }).status.containerStatuses?.[0];
  const running = (pod: string) => waitFor(`${pod} running`, async () => ((await status(pod))?.state.running ? await status(pod) : undefined), { timeoutMs: 90_000 });
  /** The sandbox id of a pod, as crictl shows it. */
  const sandbox = async (pod: string) => (await ssh(`crictl pods --name '^${pod}$' --state ready -q --no-trunc`)).stdout.trim();
  const SHIM = /^root\s+(\d+)\s+(\d+)\s.*containerd-shim-runc-v2 -namespace k8s\.io -id ([0-9a-f]{64}) -address \S+$/;

  beforeAll(async () => {
    await cluster.up(['--nodes', '1', '--port-offset', '19300', '--node-monitor-grace-period=8s', '--node-monitor-period=1s', '--time-scale=10'], 220_000);
    for (const pod of ['one', 'two']) expect((await kubectl('run', pod, '--image=busybox', '--', 'sleep', '3600')).code).toBe(0);
    await running('one');
    await running('two');
  }, 330_000);

  afterAll(async () => {
    await cluster.down();
  }, 60_000);

  it('ps -ef --forest and systemctl status list one shim per pod, each pod under its own', async () => {
    const [one, two] = [await sandbox('one'), await sandbox('two')];
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    const lines = (await ssh('ps -ef --forest')).stdout.split('\n');
    const shims = new Map(lines.flatMap((l, i) => (SHIM.exec(l) ? [[SHIM.exec(l)![3]!, { pid: SHIM.exec(l)![1]!, next: lines[i + 1] ?? '' }] as const] : [])));
    expect(shims.has(one) && shims.has(two)).toBe(true);
    for (const id of [one, two]) expect(shims.get(id)!.next).toMatch(new RegExp(`^root\\s+1\\s+${shims.get(id)!.pid}\\s.*\\\\_ sleep 3600$`));
    const cgroup = (await ssh('systemctl status containerd')).stdout;
    for (const id of [one, two]) expect(cgroup).toContain(`─${shims.get(id)!.pid} containerd-shim-runc-v2 -namespace k8s.io -id ${id} -address `);
  });

  it("kill -9 of one pod's shim ends only that pod's container; the kubelet starts it again", async () => {
    const [before1, before2] = [await status('one'), await status('two')];
    const id = await sandbox('one');
    const ps = (await ssh('ps -ef --forest')).stdout;
    const line = ps.split('\n').find((l) => SHIM.exec(l)?.[3] === id);
    expect(line, `the shim of ${id} in\n${ps}`).toBeDefined();
    const pid = SHIM.exec(line!)![1]!;
    expect(await ssh(`kill -9 ${pid}`)).toMatchObject({ code: 0, stderr: '' });
    // Gone from the node's process table at once ...
    expect((await ssh('ps -ef')).stdout).not.toContain(` ${pid} `);
    // ... its container ended unobserved (containerd's unknown exit) and the kubelet started a new one.
    const after = await waitFor('one restarted', async () => {
      const s = await status('one');
      return s && s.restartCount > before1!.restartCount && s.state.running ? s : undefined;
    });
    expect(after.lastState?.terminated).toMatchObject({ exitCode: 255, reason: 'Unknown' });
    expect(after.containerID).not.toBe(before1!.containerID);
    expect(await status('two')).toEqual(before2);
    // A pid no shim has: bash's words.
    expect(await ssh(`kill -9 ${pid}`)).toMatchObject({ code: 1, stderr: `bash: kill: (${pid}) - No such process\n` });
  });

  it('systemctl restart containerd: both pods keep their containers (same ID, same start, no restart)', async () => {
    const [before1, before2] = [await status('one'), await status('two')];
    expect((await ssh('systemctl restart containerd && systemctl is-active containerd')).stdout).toBe('active\n');
    await waitFor('crictl answers again', async () => ((await ssh('crictl ps -q')).stdout.trim() ? true : undefined), { timeoutMs: 60_000 });
    // Give the kubelet's relist time to see anything that changed.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await status('one')).toEqual(before1);
    expect(await status('two')).toEqual(before2);
  });
});
