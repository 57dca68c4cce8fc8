// `kubelab fault` against a local runner's node (issue 15, "Faults to
// inject"): each fault is injected, what a person then sees is asserted with
// upstream's texts (node conditions, events, taints, messages), and clearing
// it brings the node back. Timings are shortened only through upstream flags
// and --time-scale (kubelet time 10x: the PLEG threshold 18 s, the runtime's
// 3 s, the pressure transition period 2 s).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { LocalCluster, RUNNER, run } from './local-cluster.js';

const ready = requireTool('nats-server') && requireTool('kubectl');

interface Cond {
  type: string;
  status: string;
  reason: string;
  message: string;
}

describe.runIf(ready)('kubelab fault on a local node', { timeout: 120_000 }, () => {
  const cluster = new LocalCluster('kubelab-fault-');
  const dir = cluster.dir;
  const started = Date.now();

  const kubectl = (...args: string[]) => cluster.kubectl(args);
  const fault = (...args: string[]) => cluster.kubelab(['fault', ...args]);
  const ssh = (command: string) => cluster.kubelab(['ssh', 'node-1', '--', command], 30_000);

  const node = async () => JSON.parse((await kubectl('get', 'node', 'node-1', '-o', 'json')).stdout) as { spec: { taints?: { key: string; effect: string }[] }; status: { conditions: Cond[] } };
  /** Waits until the node's condition of `type` has `status`, and returns it. */
  const conditionWith = (type: string, status: string, timeoutMs = 60_000) =>
    waitFor(`${type}=${status}`, async () => (await node()).status.conditions.find((c) => c.type === type && c.status === status), { timeoutMs });
  const taints = async () => ((await node()).spec.taints ?? []).map((t) => `${t.key}:${t.effect}`);
  /** The node's events of a reason, as `kubectl get events` prints their messages. */
  const events = async (reason: string) => {
    const r = await kubectl('get', 'events', '--field-selector', `reason=${reason}`, '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}');
    return r.stdout.split('\n').filter(Boolean);
  };
  const eventWith = (reason: string, pattern: RegExp, timeoutMs = 30_000) => waitFor(`event ${reason}`, async () => (await events(reason)).find((m) => pattern.test(m)), { timeoutMs });

  beforeAll(async () => {
    await cluster.up(
      [
        '--nodes',
        '1',
        '--port-offset',
        '21000',
        '--node-monitor-grace-period=8s',
        '--node-monitor-period=1s',
        '--node-lease-duration-seconds=4',
        '--time-scale=10',
        // upstream's defaults plus a PID threshold (upstream sets none by default), and a 2 s pressure transition at 10x
        '--eviction-hard=imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%,pid.available<10%',
        '--eviction-pressure-transition-period=20s',
      ],
      220_000,
    );
    await conditionWith('KernelDeadlock', 'False');
    expect((await kubectl('run', 'app', '--image=busybox', '--restart=Never', '--', 'sleep', '3600')).code).toBe(0);
    await waitFor('app running', async () => ((await kubectl('get', 'pod', 'app', '-o', 'jsonpath={.status.phase}')).stdout === 'Running' ? true : undefined), { timeoutMs: 60_000 });
  }, 330_000);

  afterAll(async () => {
    await cluster.down();
    process.stdout.write(`kubelab fault suite: ${Math.round((Date.now() - started) / 1000)} s\n`);
  });

  it('lists the faults with what each does and what you see', async () => {
    const r = await run(process.execPath, [RUNNER, 'fault', 'list']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+WHAT IT DOES\s+WHAT YOU SEE$/);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual([
      'NAME',
      'kernel-deadlock',
      'readonly-filesystem',
      'oom-kill',
      'containerd-hung',
      'containerd-down',
      'kubelet-crashloop',
      'disk-pressure',
      'memory-pressure',
      'pid-pressure',
      'node-partition',
      'etcd-lost',
    ]);
    expect(await fault('node-1', 'no-such-fault')).toMatchObject({ code: 2, stderr: 'kubelab fault: unknown fault "no-such-fault" (kubelab fault list shows them)\n' });
    expect((await fault('node-9', 'kernel-deadlock')).stderr).toBe(`kubelab fault: no node node-9 in ${dir} (nodes: control-plane, node-1)\n`);
  });

  it('kernel-deadlock: KernelDeadlock True (DockerHung) and a TaskHung event; cleared by a new boot and NPD restarted', async () => {
    const r = await fault('node-1', 'kernel-deadlock');
    expect(r.code).toBe(0);
    const line = /^node-1: kernel: (INFO: task docker:\d+ blocked for more than 120 seconds\.)$/m.exec(r.stdout)![1]!;
    expect(await conditionWith('KernelDeadlock', 'True')).toMatchObject({ reason: 'DockerHung', message: line });
    expect(await eventWith('TaskHung', /blocked/)).toBe(line);
    expect((await ssh('dmesg')).stdout).toContain(line);
    expect((await fault('node-1', 'kernel-deadlock', '--clear')).code).toBe(0);
    expect(await conditionWith('KernelDeadlock', 'False')).toMatchObject({ reason: 'KernelHasNoDeadlock', message: 'kernel has no deadlock' });
  });

  it('readonly-filesystem: ReadonlyFilesystem True, Ext4Error, container writes fail with EROFS; cleared: writable, condition False', async () => {
    expect((await fault('node-1', 'readonly-filesystem')).code).toBe(0);
    expect(await conditionWith('ReadonlyFilesystem', 'True')).toMatchObject({ reason: 'FilesystemIsReadOnly', message: 'EXT4-fs (sda1): Remounting filesystem read-only' });
    expect(await eventWith('Ext4Error', /EXT4-fs error/)).toBe('EXT4-fs error (device sda1): ext4_journal_check_start:83: comm containerd: Detected aborted journal');
    const touch = await waitFor('EROFS in the container', async () => {
      const t = await kubectl('exec', 'app', '--', 'touch', '/tmp/x');
      return t.code !== 0 ? t : undefined;
    });
    expect(touch.stderr).toContain('touch: /tmp/x: Read-only file system\n');
    expect((await kubectl('exec', 'app', '--', 'sh', '-c', 'echo hi > /tmp/y')).stderr).toContain("sh: can't create /tmp/y: Read-only file system\n");
    expect((await fault('node-1', 'readonly-filesystem', '--clear')).code).toBe(0);
    expect(await conditionWith('ReadonlyFilesystem', 'False')).toMatchObject({ reason: 'FilesystemIsNotReadOnly', message: 'Filesystem is not read-only' });
    expect(await kubectl('exec', 'app', '--', 'touch', '/tmp/x')).toMatchObject({ code: 0, stderr: '' });
  });

  it("oom-kill: the container OOMKilled with exit code 137, the kernel's lines in dmesg, an OOMKilling event; the kubelet restarts it", async () => {
    expect((await kubectl('run', 'hog', '--image=busybox', '--', 'sleep', '3600')).code).toBe(0);
    const phase = () => kubectl('get', 'pod', 'hog', '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].restartCount}');
    await waitFor('hog running', async () => ((await phase()).stdout === 'Running 0' ? true : undefined), { timeoutMs: 60_000 });
    const r = await fault('node-1', 'oom-kill', '--pod', 'hog');
    expect(r.stdout).toMatch(/^node-1: crictl update --memory 4096 [0-9a-f]{13} \(default\/hog container hog\)$/m);
    const last = await waitFor('OOMKilled', async () => {
      const t = (await kubectl('get', 'pod', 'hog', '-o', 'jsonpath={.status.containerStatuses[0].lastState.terminated.reason} {.status.containerStatuses[0].lastState.terminated.exitCode}')).stdout;
      return t.trim() ? t : undefined;
    });
    expect(last).toBe('OOMKilled 137');
    // As Linux prints a memory cgroup's OOM kill; NPD's kernel monitor (OOMKilling: "Killed process \d+ (.+) total-vm:…") turns it into an event.
    const dmesg = (await ssh('dmesg')).stdout;
    expect(dmesg).toContain('sleep invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0');
    expect(dmesg).toMatch(/Memory cgroup out of memory: Killed process 1 \(sleep\) total-vm:\d+kB, anon-rss:\d+kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:\d+kB oom_score_adj:0/);
    expect(await eventWith('OOMKilling', /Killed process 1 \(sleep\)/)).toMatch(/Killed process 1 \(sleep\) total-vm:\d+kB/);
    await waitFor('hog restarted', async () => ((await phase()).stdout === 'Running 1' ? true : undefined), { timeoutMs: 60_000 });
    expect((await fault('node-1', 'oom-kill', '--clear')).code).toBe(0);
    expect((await kubectl('delete', 'pod', 'hog', '--wait=false')).code).toBe(0);
  });

  it('node-partition: pods keep running, Ready Unknown "Kubelet stopped posting node status.", the unreachable taint, taint eviction; cleared: Ready', async () => {
    const tolerate = { spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 }] } };
    expect((await kubectl('run', 'brief', '--image=busybox', `--overrides=${JSON.stringify(tolerate)}`, '--', 'sleep', '3600')).code).toBe(0);
    await waitFor('brief running', async () => ((await kubectl('get', 'pod', 'brief', '-o', 'jsonpath={.status.phase}')).stdout === 'Running' ? true : undefined), { timeoutMs: 60_000 });
    expect((await fault('node-1', 'node-partition')).stdout).toContain('node-1: fault state {"partitioned":true}\n');
    try {
      const unknown = await conditionWith('Ready', 'Unknown', 90_000);
      expect(unknown).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
      await waitFor('unreachable taint', async () => ((await taints()).includes('node.kubernetes.io/unreachable:NoExecute') ? true : undefined));
      // The toleration ran out: the taint eviction controller deletes the pod (it stays Terminating while its kubelet cannot confirm).
      expect(await eventWith('TaintManagerEviction', /brief/)).toBe('Marking for deletion Pod default/brief');
      // The node's containers run on: the runtime on the node still lists them.
      expect((await ssh('crictl ps --name app -q')).stdout.trim()).toMatch(/^[0-9a-f]+$/);
    } finally {
      expect((await fault('node-1', 'node-partition', '--clear')).code).toBe(0);
    }
    expect(await conditionWith('Ready', 'True', 60_000)).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    await waitFor('unreachable taint removed', async () => ((await taints()).some((t) => t.startsWith('node.kubernetes.io/unreachable')) ? undefined : true));
    await waitFor('brief deleted', async () => ((await kubectl('get', 'pod', 'brief')).code !== 0 ? true : undefined), { timeoutMs: 60_000 });
    expect((await kubectl('get', 'pod', 'app', '-o', 'jsonpath={.status.phase}')).stdout).toBe('Running');
  });

  it('containerd-down: NotReady "container runtime is down", the not-ready taint, probes still answered; cleared: Ready', async () => {
    // A server with an httpGet readiness and a tcpSocket liveness probe: its container outlives containerd (the shim keeps it).
    const web = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 1 }, livenessProbe: { tcpSocket: { port: 80 }, periodSeconds: 1 } }],
      },
    };
    expect((await cluster.kubectl(['apply', '-f', '-'], JSON.stringify(web))).code).toBe(0);
    expect((await kubectl('wait', '--for=condition=Ready', 'pod/web', '--timeout=60s')).code).toBe(0);
    // web's Unhealthy events with their counts and messages: a readiness failure while nginx was still starting is not what this checks.
    const unhealthy = async () =>
      (await kubectl('get', 'events', '--field-selector', 'reason=Unhealthy,involvedObject.name=web', '-o', 'custom-columns=NAME:.metadata.name,COUNT:.count,MESSAGE:.message', '--no-headers')).stdout
        .split('\n')
        .filter(Boolean);
    const before = await unhealthy();
    let cleared = false;
    try {
      expect((await fault('node-1', 'containerd-down')).stdout).toContain('node-1: systemctl stop containerd.service\n');
      const notReady = await conditionWith('Ready', 'False');
      expect(notReady).toMatchObject({ reason: 'KubeletNotReady', message: 'container runtime is down' });
      await waitFor('not-ready taint', async () => ((await taints()).includes('node.kubernetes.io/not-ready:NoSchedule') ? true : undefined));
      // The kubelet's journal as upstream's: updateRuntimeUp's ErrorS with the dial error in grpc-go's words.
      const journal = (await ssh('journalctl -u kubelet --no-pager')).stdout;
      expect(journal).toMatch(
        /kubelet\[\d+\]: E\d{4} [\d:.]+ +\d+ runtime-state\.ts:\d+\] "Container runtime sanity check failed" err="rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix \S+\/run\/containerd\/containerd\.sock: connect: no such file or directory\\""/,
      );
      // No pod is synced meanwhile: upstream syncLoop's line, every few seconds.
      await waitFor('"Skipping pod synchronization" in the journal', async () =>
        (await ssh('journalctl -u kubelet --no-pager')).stdout.includes('"Skipping pod synchronization" err="container runtime is down"') ? true : undefined,
      );
      // The prober dials the pod as before (upstream dials the pod IP; the runtime is not asked): three more periods, no new failure.
      await new Promise((r) => setTimeout(r, 3000));
      expect((await unhealthy()).filter((line) => !before.includes(line))).toEqual([]);
      expect((await fault('node-1', 'containerd-down', '--clear')).code).toBe(0);
      cleared = true;
    } finally {
      // A failed step must not leave the node's runtime stopped for the faults after this one.
      if (!cleared) await fault('node-1', 'containerd-down', '--clear');
    }
    expect(await conditionWith('Ready', 'True')).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    expect((await kubectl('delete', 'pod', 'web', '--wait=false')).code).toBe(0);
  });

  it('containerd-hung: CRI calls hang (each has --runtime-request-timeout, 2 minutes), NotReady with "PLEG is not healthy: pleg was last seen active …"; cleared: Ready', async () => {
    expect((await fault('node-1', 'containerd-hung')).stdout).toContain('node-1: kill -STOP <MainPID of containerd.service>\n');
    const pleg = await waitFor(
      'PLEG unhealthy',
      async () => {
        const c = (await node()).status.conditions.find((x) => x.type === 'Ready');
        return c?.message.includes('PLEG') ? c : undefined;
      },
      { timeoutMs: 60_000 },
    );
    // upstream's aggregate of runtimeErrors(): a hung runtime answers no Status for 30 s: down.
    expect(pleg).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
    expect(pleg.message).toMatch(/^\[container runtime is down, PLEG is not healthy: pleg was last seen active (\d+m)?[\d.]+s ago; threshold is 18s\]$/);
    expect((await fault('node-1', 'containerd-hung', '--clear')).code).toBe(0);
    await conditionWith('Ready', 'True');
  });

  it("disk-pressure: DiskPressure True, its taint, the pod evicted with upstream's message, df shows the disk full; cleared: False", async () => {
    expect((await fault('node-1', 'disk-pressure')).code).toBe(0);
    // df's 1K-blocks and Available: about 5% of the filesystem left, as the kubelet's nodefs.available sees it.
    const [size, avail] = /^\S+\s+(\d+)\s+\d+\s+(\d+)\s+\d+%\s+\/$/m
      .exec((await ssh('df')).stdout)!
      .slice(1)
      .map(Number) as [number, number];
    expect(avail / size).toBeLessThan(0.06);
    expect(await conditionWith('DiskPressure', 'True')).toMatchObject({ reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' });
    await waitFor('disk-pressure taint', async () => ((await taints()).includes('node.kubernetes.io/disk-pressure:NoSchedule') ? true : undefined));
    expect(await eventWith('Evicted', /ephemeral-storage/)).toMatch(/^The node was low on resource: ephemeral-storage\. Threshold quantity: \d+, available: \d+\./);
    expect((await kubectl('get', 'pod', 'app', '-o', 'jsonpath={.status.phase} {.status.reason}')).stdout).toBe('Failed Evicted');
    expect((await fault('node-1', 'disk-pressure', '--clear')).code).toBe(0);
    expect(await conditionWith('DiskPressure', 'False')).toMatchObject({ reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' });
    await waitFor('taint removed', async () => (!(await taints()).includes('node.kubernetes.io/disk-pressure:NoSchedule') ? true : undefined));
  });

  it.each([
    ['memory-pressure', 'MemoryPressure', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', 'memory-pressure', 'KubeletHasSufficientMemory'],
    ['pid-pressure', 'PIDPressure', 'KubeletHasInsufficientPID', 'kubelet has insufficient PID available', 'pid-pressure', 'KubeletHasSufficientPID'],
  ])('%s: %s True (%s) and its taint; cleared: False', async (name, type, reason, message, taint, okReason) => {
    expect((await fault('node-1', name)).code).toBe(0);
    expect(await conditionWith(type, 'True')).toMatchObject({ reason, message });
    await waitFor(`${taint} taint`, async () => ((await taints()).includes(`node.kubernetes.io/${taint}:NoSchedule`) ? true : undefined));
    expect((await fault('node-1', name, '--clear')).code).toBe(0);
    expect(await conditionWith(type, 'False')).toMatchObject({ reason: okReason });
  });

  it("kubelet-crashloop: KubeletStart events and FrequentKubeletRestart at NPD's check; cleared: the kubelet runs, Ready", async () => {
    const r = await fault('node-1', 'kubelet-crashloop');
    expect(r.stdout.match(/^node-1: kill -KILL <MainPID of kubelet\.service>$/gm)).toHaveLength(5);
    // log-counter runs at NPD's start and every 5 minutes: a restart brings the check forward.
    expect((await ssh('systemctl restart node-problem-detector')).code).toBe(0);
    const c = await conditionWith('FrequentKubeletRestart', 'True');
    expect(c.reason).toBe('FrequentKubeletRestart');
    expect(c.message).toMatch(/^Found \d+ matching logs, which meets the threshold of 5$/);
    expect(await eventWith('KubeletStart', /kubelet/)).toBe('Started kubelet.service - kubelet: The Kubernetes Node Agent.');
    expect((await fault('node-1', 'kubelet-crashloop', '--clear')).code).toBe(0);
    expect((await ssh('systemctl is-active kubelet')).stdout).toBe('active\n');
    await conditionWith('Ready', 'True');
  });

  it('etcd-lost: /readyz reports etcd failed, writes fail with 504 Timeout; cleared: ready, writes work, the scheduler and controller-manager act again', async () => {
    expect((await fault('node-1', 'etcd-lost')).stdout).toContain('control plane: kill -STOP <pid of nats>\n');
    try {
      const readyz = await waitFor('readyz failing', async () => {
        const r = await kubectl('get', '--raw', '/readyz?verbose');
        return r.code !== 0 ? r : undefined;
      });
      expect(readyz.stderr).toContain('[-]etcd failed: reason withheld');
      const write = await kubectl('create', 'configmap', 'during-outage', '--from-literal=a=b');
      // The apiserver's 504 Timeout when etcd does not answer, as kubectl's create prints it.
      expect(write).toMatchObject({ code: 1, stderr: 'error: failed to create configmap: Timeout: request did not complete within requested timeout - context deadline exceeded\n' });
      // An outage longer than the scheduler's and controller-manager's lease renew deadline (10 s).
      await new Promise((r) => setTimeout(r, 12_000));
    } finally {
      await fault('node-1', 'etcd-lost', '--clear');
    }
    await waitFor('readyz ok', async () => ((await kubectl('get', '--raw', '/readyz')).stdout === 'ok' ? true : undefined));
    expect((await kubectl('create', 'configmap', 'after-outage', '--from-literal=a=b')).stdout).toBe('configmap/after-outage created\n');
    // The controller-manager and the scheduler work again (restarted as static pods if they left on losing their lease): a Deployment's pod is created and bound.
    expect((await kubectl('create', 'deployment', 'after-outage', '--image=busybox', '--', 'sleep', '3600')).code).toBe(0);
    await waitFor('after-outage pod bound', async () => ((await kubectl('get', 'pods', '-l', 'app=after-outage', '-o', 'jsonpath={.items[*].spec.nodeName}')).stdout.trim() ? true : undefined), {
      timeoutMs: 90_000,
    });
  }, 240_000);
});
