import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeSandboxNetwork, sandboxPortKey } from '@kubelab/proto';
import { waitFor } from '@kubelab/testing';
import { PRIVATE_IMAGE_AUTH } from '@kubelab/images';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.dispose();
});

const status = async (containerId: string) => (await h.cri.rt.ContainerStatus({ containerId })).status!;
const exited = (containerId: string, timeoutMs = 5000) =>
  waitFor(
    `container ${containerId} to exit`,
    async () => {
      const s = await status(containerId);
      return s.state === 'CONTAINER_EXITED' ? s : undefined;
    },
    { timeoutMs },
  );
const logLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('runtime and sandboxes', () => {
  beforeEach(async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24' });
  });

  it('reports version and status like containerd', async () => {
    expect(await h.cri.rt.Version({ version: 'v1' })).toEqual({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.24-kubelab', runtimeApiVersion: 'v1' });
    const st = await h.cri.rt.Status({ verbose: false });
    expect(st.status!.conditions.map((c) => [c.type, c.status])).toEqual([
      ['RuntimeReady', true],
      ['NetworkReady', true],
    ]);
  });

  it('runs, stops (twice) and removes (twice) a sandbox, freeing its IP', async () => {
    const cfg = sandboxConfig('web', h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
    const st = await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true });
    expect(st.status!.state).toBe('SANDBOX_READY');
    expect(st.status!.network!.ip).toBe('10.244.1.2');
    expect(st.status!.metadata).toEqual(cfg.metadata);
    expect(st.status!.annotations).toEqual(cfg.annotations);
    expect(decodeSandboxNetwork(st.info)!).toMatchObject({ mode: 'loopback', podIP: '10.244.1.2' });
    await h.cri.rt.StopPodSandbox({ podSandboxId });
    await h.cri.rt.StopPodSandbox({ podSandboxId });
    expect((await h.cri.rt.PodSandboxStatus({ podSandboxId })).status!.state).toBe('SANDBOX_NOTREADY');
    // The freed address is handed out again once the range wraps; a new pod gets the next one.
    const second = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('db', h.dir) });
    expect((await h.cri.rt.PodSandboxStatus({ podSandboxId: second.podSandboxId })).status!.network!.ip).toBe('10.244.1.3');
    await h.cri.rt.RemovePodSandbox({ podSandboxId });
    await h.cri.rt.RemovePodSandbox({ podSandboxId });
    const list = await h.cri.rt.ListPodSandbox({});
    expect(list.items.map((i) => i.metadata!.name)).toEqual(['db']);
  });

  it('a relist shows the new state of a sandbox: the cached encodings of the runtime and the decoded ones of the client follow it', async () => {
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('web', h.dir) });
    const states = async () => (await h.cri.rt.ListPodSandbox({})).items.map((i) => `${i.metadata!.name}=${i.state}`);
    expect(await states()).toEqual(['web=SANDBOX_READY']);
    expect(await states()).toEqual(['web=SANDBOX_READY']);
    await h.cri.rt.StopPodSandbox({ podSandboxId });
    expect(await states()).toEqual(['web=SANDBOX_NOTREADY']);
  });

  it('filters sandboxes by state and label selector', async () => {
    const a = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('a', h.dir) });
    await h.cri.rt.RunPodSandbox({ config: sandboxConfig('b', h.dir) });
    await h.cri.rt.StopPodSandbox({ podSandboxId: a.podSandboxId });
    const ready = await h.cri.rt.ListPodSandbox({ filter: { state: { state: 'SANDBOX_READY' } } });
    expect(ready.items.map((i) => i.metadata!.name)).toEqual(['b']);
    const byLabel = await h.cri.rt.ListPodSandbox({ filter: { labelSelector: { app: 'a' } } });
    expect(byLabel.items.map((i) => i.metadata!.name)).toEqual(['a']);
    const byPrefix = await h.cri.rt.ListPodSandbox({ filter: { id: a.podSandboxId.slice(0, 12) } });
    expect(byPrefix.items.map((i) => i.id)).toEqual([a.podSandboxId]);
  });
});

describe('containers', () => {
  beforeEach(async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
  });

  it('goes CREATED → RUNNING → EXITED with Completed, and logs in CRI format', async () => {
    const { containerId, logFile, podSandboxId } = await h.runPod('hello', 'busybox:1.36', {
      command: ['sh', '-c'],
      args: ['echo "hello from $HOSTNAME $(hostname)"; echo oops >&2; for i in 1 2; do echo "tick $i"; sleep 1; done'],
    });
    const s = await exited(containerId);
    expect(s).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed', message: '', logPath: logFile });
    expect(BigInt(s.createdAt) <= BigInt(s.startedAt) && BigInt(s.startedAt) <= BigInt(s.finishedAt)).toBe(true);
    expect(s.imageRef).toMatch(/^docker\.io\/library\/busybox@sha256:[0-9a-f]{64}$/);
    const lines = logLines(logFile);
    expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual(['stdout F hello from hello hello', 'stderr F oops', 'stdout F tick 1', 'stdout F tick 2']);
    for (const l of lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z (stdout|stderr) F /);
    const list = await h.cri.rt.ListContainers({ filter: { podSandboxId } });
    expect(list.containers.map((c) => [c.metadata!.name, c.state])).toEqual([['app', 'CONTAINER_EXITED']]);
  });

  it('reports a failing command as Error with its exit code', async () => {
    const { containerId } = await h.runPod('fail', 'busybox', { command: ['sh', '-c', 'exit 3'] });
    expect(await exited(containerId)).toMatchObject({ exitCode: 3, reason: 'Error' });
  });

  it('fails StartContainer for a binary missing from the image (StartError, 128)', async () => {
    const sbCfg = sandboxConfig('nobin', h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sbCfg });
    await h.cri.img.PullImage({ image: { image: 'busybox' } });
    const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox', { command: ['nginx'] }) });
    await expect(h.cri.rt.StartContainer({ containerId })).rejects.toThrow(/exec: "nginx": executable file not found in \$PATH/);
    expect(await status(containerId)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError' });
  });

  it('stops with TERM then KILL after the timeout; stop and remove are idempotent', async () => {
    // sh as PID 1 ignores TERM: killed after 20 s of container time (1 s wall at scale 20).
    const { containerId } = await h.runPod('sleepy', 'busybox', { command: ['sh', '-c', 'sleep 600'] });
    const t0 = Date.now();
    await h.cri.rt.StopContainer({ containerId, timeout: 20 });
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(await status(containerId)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
    await h.cri.rt.StopContainer({ containerId, timeout: 20 });
    await h.cri.rt.RemoveContainer({ containerId });
    await h.cri.rt.RemoveContainer({ containerId });
    await h.cri.rt.StopContainer({ containerId, timeout: 0 });
    await expect(h.cri.rt.ContainerStatus({ containerId })).rejects.toMatchObject({ code: 5 });
  });

  it("runs a TERM trap between commands: `trap 'echo bye; exit 0' TERM` around a `sleep 1` loop stops in about a second, Completed", async () => {
    const { containerId, logFile } = await h.runPod('trapper', 'busybox', { command: ['sh', '-c', "trap 'echo bye; exit 0' TERM; echo up; while true; do sleep 1; done"] });
    await waitFor('a log line', async () => logLines(logFile).length > 0);
    const t0 = Date.now();
    await h.cri.rt.StopContainer({ containerId, timeout: 600 });
    // At most the rest of one `sleep 1` (50 ms wall at scale 20), nothing like the 600 s grace period.
    expect(((Date.now() - t0) * 20) / 1000).toBeLessThan(10);
    expect(await status(containerId)).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(logLines(logFile).map((l) => l.replace(/^\S+ /, ''))).toEqual(['stdout F up', 'stdout F bye']);
  });

  it('defers the trap while a foreground command runs: `trap ...; sleep 600` is KILLed after the grace period (137, Error)', async () => {
    const { containerId, logFile } = await h.runPod('deferred', 'busybox', { command: ['sh', '-c', "trap 'echo bye; exit 0' TERM; echo up; sleep 600"] });
    await waitFor('a log line', async () => logLines(logFile).length > 0);
    const t0 = Date.now();
    await h.cri.rt.StopContainer({ containerId, timeout: 5 });
    expect(((Date.now() - t0) * 20) / 1000).toBeGreaterThanOrEqual(4.5);
    expect(await status(containerId)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
    expect(logLines(logFile).map((l) => l.replace(/^\S+ /, ''))).toEqual(['stdout F up']);
  });

  it('ExecSync runs in the container filesystem, with a timeout', async () => {
    const { containerId } = await h.runPod('exec', 'busybox', { command: ['sh', '-c', 'echo ready > /tmp/state; sleep 600'] });
    const out = await waitFor('the exec to read /tmp/state', async () => {
      const r = await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/state'], timeout: 1 });
      return r.exitCode === 0 ? r : undefined;
    });
    expect(out.stdout.toString()).toBe('ready\n');
    const missing = await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/nope'], timeout: 1 });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.toString()).toBe('cat: /nope: No such file or directory\n');
    const env = await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/etc/resolv.conf'], timeout: 1 });
    expect(env.stdout.toString()).toBe('search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
    // timeout is wall time: sleep 100 at scale 20 takes 5 s, beyond the 1 s deadline.
    await expect(h.cri.rt.ExecSync({ containerId, cmd: ['sleep', '100'], timeout: 1 })).rejects.toMatchObject({
      code: 4,
      details: 'failed to exec in container: timeout 1s exceeded: context deadline exceeded',
    });
  });

  it('filters containers by state, sandbox and labels', async () => {
    const a = await h.runPod('fa', 'busybox', { command: ['sleep', '600'], labels: { tier: 'front' } });
    const b = await h.runPod('fb', 'busybox', { command: ['true'], labels: { tier: 'back' } });
    await exited(b.containerId);
    const running = await h.cri.rt.ListContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } });
    expect(running.containers.map((c) => c.id)).toEqual([a.containerId]);
    const front = await h.cri.rt.ListContainers({ filter: { labelSelector: { tier: 'back' } } });
    expect(front.containers.map((c) => c.id)).toEqual([b.containerId]);
    const inB = await h.cri.rt.ListContainers({ filter: { podSandboxId: b.podSandboxId } });
    expect(inB.containers.map((c) => c.id)).toEqual([b.containerId]);
    // StopPodSandbox kills its containers.
    await h.cri.rt.StopPodSandbox({ podSandboxId: a.podSandboxId });
    expect(await status(a.containerId)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137 });
  });

  it('OOM-kills the memory hog at its limit, after its memory grew', async () => {
    const limit = 40 * 1024 * 1024;
    const { containerId } = await h.runPod('hog', 'kubelab/memhog:1.0', { linux: { resources: { memoryLimitInBytes: String(limit) } } });
    const grown = await waitFor('the memory hog to grow past 10 MiB', async () => {
      const st = await h.cri.rt.ContainerStats({ containerId });
      const ws = Number(st.stats!.memory!.workingSetBytes!.value);
      return ws > 10 * 1024 * 1024 ? st : undefined;
    });
    expect(Number(grown.stats!.memory!.availableBytes!.value)).toBeLessThan(limit);
    const s = await exited(containerId);
    expect(s).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });

  it('serves the nginx index page over real HTTP on the mapped loopback port', async () => {
    const { podSandboxId, containerId, logFile } = await h.runPod('web', 'nginx');
    const addr = await waitFor('the mapped port of 80/TCP', async () => {
      const st = await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true });
      return decodeSandboxNetwork(st.info)?.ports[sandboxPortKey(80)];
    });
    const [host, port] = addr.split(':');
    const body = await new Promise<{ status: number; server: string; text: string }>((resolve, reject) => {
      request({ host, port: Number(port), path: '/', headers: { 'user-agent': 'curl/8.5.0' } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, server: String(res.headers.server), text }));
      })
        .on('error', reject)
        .end();
    });
    expect(body.status).toBe(200);
    expect(body.server).toBe('nginx/1.27.3');
    expect(body.text).toContain('<title>Welcome to nginx!</title>');
    await waitFor('the nginx access log line', async () => logLines(logFile).some((l) => / stdout F 127\.0\.0\.1 - - \[.*\] "GET \/ HTTP\/1\.1" 200 \d+ "-" "curl\/8\.5\.0" "-"$/.test(l)));
    await h.cri.rt.StopContainer({ containerId, timeout: 30 });
    expect(await status(containerId)).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('crasher exits 1 after its delay', async () => {
    const { containerId, logFile } = await h.runPod('crash', 'kubelab/crasher', { args: ['2'] });
    expect(await exited(containerId)).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(logLines(logFile).map((l) => l.replace(/^\S+ /, ''))).toEqual(['stdout F crasher: started, exiting with status 1 in 2s', 'stderr F crasher: fatal error: simulated crash']);
  });

  it('a control-plane image runs a stand-in that names where the real component runs, until TERM', async () => {
    const { containerId, logFile } = await h.runPod('kube-scheduler-control-plane', 'registry.k8s.io/kube-scheduler:v1.32.0', {
      command: ['kube-scheduler', '--leader-elect=true'],
      envs: [{ key: 'KUBELAB_COMPONENT_SERVICE', value: 'scheduler' }],
    });
    await waitFor('the stand-in lines', async () => logLines(logFile).length >= 2);
    expect(logLines(logFile).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'stdout F kubelab: kube-scheduler runs in a container of its own: the compose service "scheduler" (docker compose logs scheduler). This container stands in for it in the node\'s runtime; the pod\'s probes check the real process.',
      'stdout F kubelab: command line: kube-scheduler --leader-elect=true',
    ]);
    expect((await status(containerId)).state).toBe('CONTAINER_RUNNING');
    await h.cri.rt.StopContainer({ containerId, timeout: 30 });
    expect(await status(containerId)).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});

describe('the probedemo timeline (seed lesson 4), time compressed 50x', () => {
  beforeEach(async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 50 });
  });

  it('cat /tmp/healthy succeeds for 30 s of container time, then fails', async () => {
    const { containerId } = await h.runPod('probedemo', 'busybox:1.36', { args: ['sh', '-c', 'touch /tmp/healthy; sleep 30; rm /tmp/healthy; sleep 600'] });
    const t0 = Date.now();
    const probe = () => h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/healthy'], timeout: 1 });
    // initialDelaySeconds 5 → 100 ms wall.
    await new Promise((r) => setTimeout(r, 100));
    expect((await probe()).exitCode).toBe(0);
    const failed = await waitFor(
      'the probe to fail',
      async () => {
        const r = await probe();
        return r.exitCode !== 0 ? r : undefined;
      },
      { timeoutMs: 3000, everyMs: 20 },
    );
    const containerSeconds = ((Date.now() - t0) * 50) / 1000;
    expect(containerSeconds).toBeGreaterThanOrEqual(29);
    // Well before the next probe period would matter; the slack (0.6 s wall) is for exec latency on a loaded machine.
    expect(containerSeconds).toBeLessThan(60);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr.toString()).toBe('cat: /tmp/healthy: No such file or directory\n');
    // The kubelet kills it with the pod's grace period (30 s → 0.6 s wall): sh ignores TERM, so KILL.
    await h.cri.rt.StopContainer({ containerId, timeout: 30 });
    expect(await status(containerId)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
  });
});

describe('images', () => {
  beforeEach(async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24' });
  });

  it('pulls, lists, reports and removes images', async () => {
    const { imageRef } = await h.cri.img.PullImage({ image: { image: 'busybox:1.36' } });
    expect(imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    const st = await h.cri.img.ImageStatus({ image: { image: 'docker.io/library/busybox:1.36' } });
    expect(st.image).toMatchObject({ id: imageRef, repoTags: ['docker.io/library/busybox:1.36'] });
    expect(st.image!.repoDigests[0]).toMatch(/^docker\.io\/library\/busybox@sha256:/);
    expect(Number(st.image!.size)).toBeGreaterThan(0);
    await h.cri.img.PullImage({ image: { image: 'registry.k8s.io/pause:3.10' } });
    const list = await h.cri.img.ListImages({});
    expect(list.images.flatMap((i) => i.repoTags).sort()).toEqual(['docker.io/library/busybox:1.36', 'registry.k8s.io/pause:3.10']);
    expect(list.images.find((i) => i.repoTags[0] === 'registry.k8s.io/pause:3.10')!.pinned).toBe(true);
    await h.cri.img.RemoveImage({ image: { image: imageRef } });
    await h.cri.img.RemoveImage({ image: { image: imageRef } });
    expect((await h.cri.img.ImageStatus({ image: { image: 'busybox:1.36' } })).image).toBeNull();
    const fs = await h.cri.img.ImageFsInfo({});
    expect(fs.imageFilesystems[0]!.usedBytes!.value).toBe('327680');
  });

  it("names a container's image as containerd does: status by repo tag and repo digest (the kubelet's imageID), the list by image ID", async () => {
    const sbCfg = sandboxConfig('img', h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sbCfg });
    // The kubelet creates the container with the image ID PullImage gave it.
    const { imageRef: id } = await h.cri.img.PullImage({ image: { image: 'nginx:1.27' } });
    const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', id), sandboxConfig: sbCfg });
    const digest = (await h.cri.img.ImageStatus({ image: { image: id } })).image!.repoDigests[0]!;
    expect(digest).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    const s = (await h.cri.rt.ContainerStatus({ containerId })).status!;
    expect(s).toMatchObject({ image: { image: 'docker.io/library/nginx:1.27' }, imageRef: digest, imageId: '' });
    const [listed] = (await h.cri.rt.ListContainers({ filter: { id: containerId } })).containers;
    expect(listed).toMatchObject({ image: { image: id }, imageRef: id, imageId: '' });
    // Once the image is gone, the status falls back to the config's image and the image ID.
    await h.cri.img.RemoveImage({ image: { image: id } });
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ image: { image: id }, imageRef: id });
  });

  it('fails unknown images like a registry', async () => {
    await expect(h.cri.img.PullImage({ image: { image: 'nginxx' } })).rejects.toMatchObject({
      code: 5,
      details:
        'failed to pull and unpack image "docker.io/library/nginxx:latest": failed to resolve reference "docker.io/library/nginxx:latest": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
    });
    await expect(h.cri.img.PullImage({ image: { image: 'busybox:9.99' } })).rejects.toMatchObject({
      code: 5,
      details: 'failed to pull and unpack image "docker.io/library/busybox:9.99": failed to resolve reference "docker.io/library/busybox:9.99": docker.io/library/busybox:9.99: not found',
    });
  });

  it('needs the right credentials for the private image', async () => {
    const image = { image: 'registry.kubelab.io/private/app:1.0' };
    await expect(h.cri.img.PullImage({ image })).rejects.toThrow(/failed to fetch anonymous token: .*401 Unauthorized/);
    await expect(h.cri.img.PullImage({ image, auth: { username: 'kubelab', password: 'wrong' } })).rejects.toThrow(/failed to fetch oauth token: .*401 Unauthorized/);
    const auth = Buffer.from(`${PRIVATE_IMAGE_AUTH.username}:${PRIVATE_IMAGE_AUTH.password}`).toString('base64');
    expect((await h.cri.img.PullImage({ image, auth: { auth } })).imageRef).toMatch(/^sha256:/);
  });

  it('takes time to pull in proportion to size when a speed is set', async () => {
    await h.restart({ pullBytesPerSecond: 50e6 });
    const t0 = Date.now();
    await h.cri.img.PullImage({ image: { image: 'nginx:1.27' } }); // 72 MiB at 50 MB/s ≈ 1.5 s
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
  });
});

describe('recovery after a runtime restart', () => {
  beforeEach(async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
  });

  it('keeps sandboxes, containers and images, and respawns running containers', async () => {
    const running = await h.runPod('keep', 'busybox', { command: ['sh', '-c', 'echo started; sleep 600'] });
    const done = await h.runPod('done', 'busybox', { command: ['true'] });
    await exited(done.containerId);
    const before = await status(running.containerId);
    await h.restart();
    const after = await status(running.containerId);
    expect(after).toMatchObject({ state: 'CONTAINER_RUNNING', startedAt: before.startedAt, createdAt: before.createdAt });
    expect(await status(done.containerId)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
    const sb = await h.cri.rt.PodSandboxStatus({ podSandboxId: running.podSandboxId });
    expect(sb.status).toMatchObject({ state: 'SANDBOX_READY', network: { ip: '10.244.1.2' } });
    expect((await h.cri.img.ImageStatus({ image: { image: 'busybox' } })).image).not.toBeNull();
    const info = JSON.parse((await h.cri.rt.ContainerStatus({ containerId: running.containerId, verbose: true })).info.info!);
    expect(info.recovered).toBe(true);
    // A new sandbox does not reuse a recovered pod's IP.
    const next = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('new', h.dir) });
    expect((await h.cri.rt.PodSandboxStatus({ podSandboxId: next.podSandboxId })).status!.network!.ip).toBe('10.244.1.4');
    await waitFor('two started log lines', async () => logLines(running.logFile).filter((l) => l.endsWith('stdout F started')).length === 2);
  });
});
