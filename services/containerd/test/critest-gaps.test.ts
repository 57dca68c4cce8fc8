// What the upstream CRI validation suite (critest, kubernetes-sigs/cri-tools)
// needs of the runtime beyond the basics, through a client built from the
// upstream proto: its images, busybox's top/pgrep/pidof/ipcs/brctl, hostPort
// mappings, the log file at StartContainer, the metrics RPCs, verbose info
// and the loopback fallback pod range.
import { existsSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';

const CRI_TOOLS = 'gcr.io/k8s-staging-cri-tools';
const BUSYBOX = 'registry.k8s.io/e2e-test-images/busybox:1.29-2';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timeScale: 20 });
});
afterAll(async () => {
  await h?.dispose();
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

async function startPod(name: string, image: string, container: Record<string, unknown> = {}, sandbox: Record<string, unknown> = {}) {
  const sbCfg = sandboxConfig(name, h.dir, sandbox);
  const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sbCfg });
  await h.cri.img.PullImage({ image: { image } });
  const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('c', image, container), sandboxConfig: sbCfg });
  await h.cri.rt.StartContainer({ containerId });
  return { podSandboxId, containerId, logFile: `${sbCfg.logDirectory}/c/0.log` };
}

const exec = async (containerId: string, cmd: string[]) => {
  const r = await h.cri.rt.ExecSync({ containerId, cmd, timeout: '10' });
  return { exitCode: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

describe("critest's images", () => {
  it.each([
    ['test-image-user-uid', { uid: { value: '1002' }, username: '' }],
    ['test-image-user-username', { uid: null, username: 'www-data' }],
    ['test-image-user-uid-group', { uid: { value: '1003' }, username: '' }],
    ['test-image-user-username-group', { uid: null, username: 'www-data' }],
  ])('ImageStatus of %s reports its USER', async (name, user) => {
    await h.cri.img.PullImage({ image: { image: `${CRI_TOOLS}/${name}` } });
    expect((await h.cri.img.ImageStatus({ image: { image: `${CRI_TOOLS}/${name}` } })).image).toMatchObject(user);
  });

  it('test-image-digest pulls by the digest critest names; test-image-tags is one image under three tags', async () => {
    const ref = `${CRI_TOOLS}/test-image-digest@sha256:9700f9a2f5bf2c45f2f605a0bd3bce7cf37420ec9d3ed50ac2758413308766bf`;
    await h.cri.img.PullImage({ image: { image: ref } });
    expect((await h.cri.img.ImageStatus({ image: { image: ref } })).image!.repoDigests).toEqual([ref]);
    for (const t of ['1', '2', '3']) await h.cri.img.PullImage({ image: { image: `${CRI_TOOLS}/test-image-tags:${t}` } });
    const tags = (await h.cri.img.ListImages({})).images.filter((i) => i.repoTags.some((r) => r.startsWith(`${CRI_TOOLS}/test-image-tags:`)));
    expect(tags.map((i) => i.repoTags)).toEqual([[`${CRI_TOOLS}/test-image-tags:1`, `${CRI_TOOLS}/test-image-tags:2`, `${CRI_TOOLS}/test-image-tags:3`]]);
  });
});

describe('containers as critest runs them', () => {
  it('the log file exists when StartContainer returns', async () => {
    const { logFile } = await startPod('log-at-start', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] });
    expect(existsSync(logFile)).toBe(true);
  });

  it("`sh -c top` (critest's pause command) stops on TERM with 143", async () => {
    const { containerId } = await startPod('top', BUSYBOX, { command: ['sh', '-c', 'top'] });
    const started = Date.now();
    await h.cri.rt.StopContainer({ containerId, timeout: '30' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 143 });
  });

  it('busybox has pgrep, pidof, ipcs and brctl', async () => {
    const { containerId } = await startPod('tools', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] });
    expect(await exec(containerId, ['sh', '-c', 'pgrep sleep || true'])).toMatchObject({ exitCode: 0, stdout: '1\n' });
    expect(await exec(containerId, ['pidof', 'sleep'])).toMatchObject({ exitCode: 0, stdout: '1\n' });
    expect(await exec(containerId, ['pidof', 'nginx'])).toMatchObject({ exitCode: 1, stdout: '' });
    expect((await exec(containerId, ['ipcs', '-m'])).stdout).toContain('------ Shared Memory Segments --------');
    expect(await exec(containerId, ['brctl', 'addbr', 'foobar'])).toMatchObject({ exitCode: 1, stderr: 'brctl: bridge foobar: Operation not permitted\n' });
  });

  it('a hostPort mapping serves the container port on the node address', async () => {
    const hostPort = await freePort();
    await startPod('hostport', 'registry.k8s.io/e2e-test-images/nginx:1.14-2', {}, { portMappings: [{ protocol: 'TCP', containerPort: 80, hostPort }] });
    await waitFor('nginx behind the hostPort', async () => (await httpStatus(`http://127.0.0.1:${hostPort}/`).catch(() => 0)) === 200, { timeoutMs: 10000 });
  });

  it('ListMetricDescriptors and ListPodSandboxMetrics report cAdvisor series of running containers', async () => {
    const { podSandboxId, containerId } = await startPod('metrics', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] });
    const { descriptors } = await h.cri.rt.ListMetricDescriptors({});
    expect(descriptors.map((d) => d.name)).toContain('container_memory_working_set_bytes');
    expect(descriptors[0]!.labelKeys).toEqual(['container', 'id', 'image', 'name', 'namespace', 'pod']);
    const pod = (await h.cri.rt.ListPodSandboxMetrics({})).podMetrics.find((p) => p.podSandboxId === podSandboxId)!;
    const series = pod.containerMetrics.find((c) => c.containerId === containerId)!.metrics;
    expect(series.map((m) => m.name)).toEqual(descriptors.map((d) => d.name));
    expect(series.find((m) => m.name === 'container_memory_working_set_bytes')).toMatchObject({
      metricType: 'GAUGE',
      labelValues: ['c', expect.stringContaining(containerId), BUSYBOX, containerId, 'default', 'metrics'],
    });
  });

  it('verbose ContainerStatus and PodSandboxStatus are containerd-shaped, with the pid of the process that runs the tasks', async () => {
    const { podSandboxId, containerId } = await startPod('verbose', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] });
    const c = JSON.parse((await h.cri.rt.ContainerStatus({ containerId, verbose: true })).info.info!);
    expect(c).toMatchObject({
      sandboxID: podSandboxId,
      pid: process.pid,
      snapshotter: 'overlayfs',
      runtimeType: 'io.containerd.runc.v2',
      runtimeSpec: { ociVersion: '1.1.0', process: { args: ['sh', '-c', 'sleep 1000'], cwd: '/' }, hostname: 'verbose' },
    });
    expect(c.pid).not.toBe(1);
    const sb = JSON.parse((await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true })).info.info!);
    expect(sb).toMatchObject({ pid: process.pid, processStatus: 'running', runtimeHandler: 'runc', config: { metadata: { name: 'verbose' } }, runtimeSpec: { process: { args: ['/pause'] } } });
  });
});

describe('pod range', () => {
  it('before UpdateRuntimeConfig sandboxes get loopback addresses; pod-ip mode refuses a range the host would route', async () => {
    const p = await startHarness({ networkMode: 'pod-ip' });
    try {
      const { podSandboxId } = await p.cri.rt.RunPodSandbox({ config: sandboxConfig('early', p.dir) });
      expect((await p.cri.rt.PodSandboxStatus({ podSandboxId })).status!.network!.ip).toMatch(/^127\.88\.0\.\d+$/);
      await expect(p.cri.rt.UpdateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '10.244.1.0/24' } } })).rejects.toMatchObject({
        code: 3,
        details: expect.stringContaining('pod CIDR 10.244.1.0/24 is not a loopback range'),
      });
      await p.cri.rt.UpdateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '127.89.0.0/24' } } });
      const next = await p.cri.rt.RunPodSandbox({ config: sandboxConfig('later', p.dir) });
      expect((await p.cri.rt.PodSandboxStatus({ podSandboxId: next.podSandboxId })).status!.network!.ip).toBe('127.89.0.2');
    } finally {
      await p.dispose();
    }
  });
});

describe("the node's namespaces (NamespaceOption NODE)", () => {
  it("netstat -ln in a host-network pod lists the node's listening sockets", async () => {
    const node = createServer();
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    const port = (node.address() as { port: number }).port;
    try {
      const { containerId } = await startPod('hostnet', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] }, { linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } });
      expect((await exec(containerId, ['netstat', '-ln'])).stdout).toContain(`0.0.0.0:${port} `);
      const pod = await startPod('podnet', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] });
      expect((await exec(pod.containerId, ['netstat', '-ln'])).stdout).not.toContain(`:${port} `);
    } finally {
      node.close();
    }
  });

  it("reads the node's tables: /proc/net/tcp LISTEN rows, /proc/sysvipc/shm segments", async () => {
    const { nodeListeningPorts, nodeShmSegments } = await import('../src/programs/net-tools.js');
    const files: Record<string, string> = {
      '/proc/net/tcp':
        '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n' +
        '   0: 0100007F:2EE1 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0\n' +
        '   1: 0100007F:2EE1 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0\n',
      '/proc/sysvipc/shm':
        '       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n' +
        ' 826695837          0   644               1048576 10108     0      0     0     0     0     0          0          0 1796267597                     0                     0\n',
    };
    const read = (p: string) => {
      if (!(p in files)) throw new Error('ENOENT');
      return files[p]!;
    };
    expect(nodeListeningPorts(read)).toEqual({ tcp: [12001], udp: [] });
    expect(nodeShmSegments(read)).toEqual([`0x3146609d 0          root       644        1048576    0${' '.repeat(22)}\n`]);
  });
});

describe('dd', () => {
  it("a block beyond the cgroup's memory.max is OOM-killed (critest's OOMKilled spec)", async () => {
    const { containerId } = await startPod('oom', BUSYBOX, { command: ['sh', '-c', 'dd if=/dev/zero of=/dev/null bs=20M'], linux: { resources: { memoryLimitInBytes: String(15 * 1024 * 1024) } } });
    await waitFor('OOMKilled', async () => (await h.cri.rt.ContainerStatus({ containerId })).status!.state === 'CONTAINER_EXITED', { timeoutMs: 10000 });
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });

  it('copies counted blocks', async () => {
    const { containerId } = await startPod('dd', BUSYBOX, { command: ['sh', '-c', 'sleep 1000'] });
    expect(await exec(containerId, ['dd', 'if=/dev/zero', 'of=/tmp/z', 'bs=1k', 'count=2'])).toMatchObject({
      exitCode: 0,
      stderr: expect.stringMatching(/^2\+0 records in\n2\+0 records out\n2048 bytes/),
    });
    expect((await exec(containerId, ['wc', '-c', '/tmp/z'])).stdout.trim()).toBe('2048 /tmp/z');
  });
});

describe("critest's NoNewPrivs image", () => {
  it.each([
    [true, 'Effective uid: 1000\n'],
    [false, 'Effective uid: 0\n'],
  ])('nonewprivs with noNewPrivs %s as uid 1000 prints %j (the setuid-root nnp)', async (noNewPrivs, want) => {
    const { containerId, logFile } = await startPod(`nnp-${noNewPrivs}`, 'registry.k8s.io/e2e-test-images/nonewprivs:1.3', {
      linux: { securityContext: { noNewPrivs, runAsUser: { value: '1000' } } },
    });
    await waitFor('nnp exits', async () => (await h.cri.rt.ContainerStatus({ containerId })).status!.state === 'CONTAINER_EXITED', { timeoutMs: 10000 });
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ exitCode: 0 });
    expect(readFileSync(logFile, 'utf8')).toMatch(new RegExp(`stdout F ${want.trimEnd()}\\n$`));
  });
});
