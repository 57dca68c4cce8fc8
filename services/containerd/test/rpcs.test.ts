// The RuntimeService calls the lifecycle suite leaves out: UpdateRuntimeConfig,
// GetContainerEvents, the stats calls, UpdateContainerResources,
// ReopenContainerLog, RuntimeConfig, and the slow-start teaching image.

import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSandboxNetwork } from '@kubelab/proto';
import { waitFor } from '@kubelab/testing';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.dispose();
});

const status = async (containerId: string) => (await h.cri.rt.ContainerStatus({ containerId })).status!;

const httpGet = (host: string, port: number, path: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    request({ host, port, path }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    })
      .on('error', reject)
      .end();
  });

describe('UpdateRuntimeConfig', () => {
  it('NetworkReady is false until the kubelet sends the podCIDR; pod IPs come from the loopback fallback range, then from it', async () => {
    h = await startHarness();
    const conditions = async () => (await h.cri.rt.Status({ verbose: false })).status!.conditions.map((c) => [c.type, c.status, c.reason]);
    expect(await conditions()).toEqual([
      ['RuntimeReady', true, ''],
      ['NetworkReady', false, 'NetworkPluginNotReady'],
    ]);
    const early = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('early', h.dir) });
    expect((await h.cri.rt.PodSandboxStatus({ podSandboxId: early.podSandboxId })).status!.network!.ip).toBe('127.88.0.2');
    // A host-network pod needs no pod IP.
    const host = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('host', h.dir, { linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } }) });
    expect((await h.cri.rt.PodSandboxStatus({ podSandboxId: host.podSandboxId })).status!.network!.ip).toBe('');

    await h.cri.rt.UpdateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '10.88.3.0/24' } } });
    expect(await conditions()).toEqual([
      ['RuntimeReady', true, ''],
      ['NetworkReady', true, ''],
    ]);
    const ips: string[] = [];
    for (const name of ['a', 'b']) {
      const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sandboxConfig(name, h.dir) });
      ips.push((await h.cri.rt.PodSandboxStatus({ podSandboxId })).status!.network!.ip);
    }
    expect(ips).toEqual(['10.88.3.2', '10.88.3.3']);
    // The same CIDR again (the kubelet sends it on every node status sync) changes nothing.
    await h.cri.rt.UpdateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '10.88.3.0/24' } } });
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('c', h.dir) });
    expect((await h.cri.rt.PodSandboxStatus({ podSandboxId })).status!.network!.ip).toBe('10.88.3.4');
    expect(JSON.parse((await h.cri.rt.Status({ verbose: true })).info.config!)).toMatchObject({ podCIDR: '10.88.3.0/24' });
  });
});

describe('GetContainerEvents', () => {
  it('streams created, started, stopped and deleted events with the sandbox and container status', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
    const events: { containerId: string; containerEventType: string; podSandboxStatus: { id: string } | null; containersStatuses: { state: string; exitCode: number }[] }[] = [];
    const stream = h.cri.runtimeClient.GetContainerEvents({});
    stream.on('data', (e: (typeof events)[number]) => events.push(e));
    stream.on('error', () => {});
    // The stream is open once the first event of a throwaway container arrives.
    await h.cri.rt.RunPodSandbox({ config: sandboxConfig('warm', h.dir) }).then(async ({ podSandboxId }) => {
      await h.cri.img.PullImage({ image: { image: 'busybox' } });
      await waitFor('the event stream to deliver', async () => {
        await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig(`w${events.length}-${Date.now()}`, 'busybox') }).catch(() => {});
        return events.length > 0;
      });
    });
    const { containerId, podSandboxId } = await h.runPod('ev', 'busybox', { command: ['true'] });
    await waitFor('the exit', async () => (await status(containerId)).state === 'CONTAINER_EXITED');
    await h.cri.rt.RemoveContainer({ containerId });
    const mine = await waitFor('four events', () => {
      const m = events.filter((e) => e.containerId === containerId);
      return m.length === 4 ? m : undefined;
    });
    stream.cancel();
    expect(mine.map((e) => [e.containerEventType, e.containersStatuses[0]!.state])).toEqual([
      ['CONTAINER_CREATED_EVENT', 'CONTAINER_CREATED'],
      ['CONTAINER_STARTED_EVENT', 'CONTAINER_RUNNING'],
      ['CONTAINER_STOPPED_EVENT', 'CONTAINER_EXITED'],
      ['CONTAINER_DELETED_EVENT', 'CONTAINER_EXITED'],
    ]);
    expect(mine.every((e) => e.podSandboxStatus?.id === podSandboxId)).toBe(true);
  });
});

describe('stats', () => {
  it('ContainerStats, ListContainerStats, PodSandboxStats and ListPodSandboxStats report running containers with filters', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
    const a = await h.runPod('sa', 'busybox', { command: ['sleep', '600'], labels: { tier: 'front' } });
    const b = await h.runPod('sb', 'busybox', { command: ['sleep', '600'], labels: { tier: 'back' } });
    const all = await h.cri.rt.ListContainerStats({});
    expect(all.stats.map((s) => s.attributes!.id).sort()).toEqual([a.containerId, b.containerId].sort());
    for (const s of all.stats) {
      expect(BigInt(s.cpu!.timestamp)).toBeGreaterThan(0n);
      expect(Number(s.memory!.workingSetBytes!.value)).toBeGreaterThan(0);
    }
    const front = await h.cri.rt.ListContainerStats({ filter: { labelSelector: { tier: 'front' } } });
    expect(front.stats.map((s) => s.attributes!.id)).toEqual([a.containerId]);
    const inB = await h.cri.rt.ListContainerStats({ filter: { podSandboxId: b.podSandboxId } });
    expect(inB.stats.map((s) => s.attributes!.id)).toEqual([b.containerId]);

    const one = (await h.cri.rt.ContainerStats({ containerId: a.containerId })).stats!;
    const pod = (await h.cri.rt.PodSandboxStats({ podSandboxId: a.podSandboxId })).stats!;
    expect(pod.attributes).toMatchObject({ id: a.podSandboxId, metadata: { name: 'sa' } });
    expect(pod.linux!.containers.map((c) => c.attributes!.id)).toEqual([a.containerId]);
    expect(pod.linux!.memory!.workingSetBytes!.value).toBe(one.memory!.workingSetBytes!.value);
    expect(pod.linux!.process!.processCount!.value).toBe('1');

    const podsA = await h.cri.rt.ListPodSandboxStats({ filter: { labelSelector: { app: 'sa' } } });
    expect(podsA.stats.map((s) => s.attributes!.id)).toEqual([a.podSandboxId]);
    await h.cri.rt.StopPodSandbox({ podSandboxId: b.podSandboxId });
    expect((await h.cri.rt.ListPodSandboxStats({})).stats.map((s) => s.attributes!.id)).toEqual([a.podSandboxId]);
    expect((await h.cri.rt.ListContainerStats({})).stats.map((s) => s.attributes!.id)).toEqual([a.containerId]);
    await expect(h.cri.rt.PodSandboxStats({ podSandboxId: 'f'.repeat(64) })).rejects.toMatchObject({ code: 5 });
  });
});

describe('UpdateContainerResources', () => {
  it("changes the limits ContainerStatus reports; a limit below the memory hog's usage OOM-kills it", async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
    const big = 512 * 1024 * 1024;
    const { containerId } = await h.runPod('hog', 'kubelab/memhog:1.0', { linux: { resources: { memoryLimitInBytes: String(big), cpuQuota: '50000', cpuPeriod: '100000' } } });
    expect((await status(containerId)).resources!.linux).toMatchObject({ memoryLimitInBytes: String(big), cpuQuota: '50000' });
    await waitFor('the hog to pass 20 MiB', async () => Number((await h.cri.rt.ContainerStats({ containerId })).stats!.memory!.workingSetBytes!.value) > 20 * 1024 * 1024);
    await h.cri.rt.UpdateContainerResources({ containerId, linux: { memoryLimitInBytes: String(16 * 1024 * 1024), cpuQuota: '100000', cpuPeriod: '100000' } });
    const s = await waitFor('the OOM kill', async () => {
      const st = await status(containerId);
      return st.state === 'CONTAINER_EXITED' ? st : undefined;
    });
    expect(s).toMatchObject({ exitCode: 137, reason: 'OOMKilled', resources: { linux: { memoryLimitInBytes: String(16 * 1024 * 1024), cpuQuota: '100000' } } });
    await expect(h.cri.rt.UpdateContainerResources({ containerId: 'f'.repeat(64), linux: {} })).rejects.toMatchObject({ code: 5 });
  });

  it('records new limits on a container that is not running, as containerd updates its spec', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
    const { containerId } = await h.runPod('done', 'busybox', { command: ['true'] });
    await waitFor('the exit', async () => (await status(containerId)).state === 'CONTAINER_EXITED');
    await h.cri.rt.UpdateContainerResources({ containerId, linux: { memoryLimitInBytes: String(64 * 1024 * 1024) } });
    expect((await status(containerId)).resources!.linux!.memoryLimitInBytes).toBe(String(64 * 1024 * 1024));
  });
});

describe('ReopenContainerLog and RuntimeConfig', () => {
  it("reopens the log of a running container only, with containerd's error otherwise", async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
    const run = await h.runPod('live', 'busybox', { command: ['sleep', '600'] });
    await h.cri.rt.ReopenContainerLog({ containerId: run.containerId });
    await h.cri.rt.StopContainer({ containerId: run.containerId, timeout: 0 });
    await expect(h.cri.rt.ReopenContainerLog({ containerId: run.containerId })).rejects.toMatchObject({ code: 2, details: 'container is not running' });
    await expect(h.cri.rt.ReopenContainerLog({ containerId: 'f'.repeat(64) })).rejects.toMatchObject({ code: 5 });
  });

  it('reports the systemd cgroup driver', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24' });
    expect(await h.cri.rt.RuntimeConfig({})).toEqual({ linux: { cgroupDriver: 'SYSTEMD' } });
  });
});

describe('the slow-start teaching image', () => {
  it('serves /healthz only after its warm-up (20 s of container time by default)', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 20 });
    const t0 = Date.now();
    const { podSandboxId, containerId } = await h.runPod('slow', 'kubelab/slow-start');
    const ports = async () => decodeSandboxNetwork((await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true })).info)!.ports;
    expect(await ports()).toEqual({});
    const addr = await waitFor('8080/TCP to be served', async () => (await ports())['8080/TCP'], { timeoutMs: 5000 });
    // 20 s at scale 20 is 1 s of wall time.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    const [host, port] = addr.split(':');
    expect(await httpGet(host!, Number(port), '/healthz')).toEqual({ status: 200, text: 'ok\n' });
    await h.cri.rt.StopContainer({ containerId, timeout: 30 });
    expect(await status(containerId)).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});

describe('pod-ip network mode', () => {
  it('serves container ports on the pod IP itself and stops serving when the sandbox stops', async () => {
    // Linux answers on all of 127.0.0.0/8: a loopback podCIDR stands in for addresses the compose node adds to an interface.
    h = await startHarness({ podCidr: '127.10.0.0/24', networkMode: 'pod-ip', timeScale: 20 });
    const { podSandboxId } = await h.runPod('direct', 'kubelab/slow-start', { args: ['0', '18080'] });
    const st = await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true });
    expect(st.status!.network!.ip).toBe('127.10.0.2');
    const net = await waitFor('the port to be served', async () => {
      const info = decodeSandboxNetwork((await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true })).info)!;
      return info.ports['18080/TCP'] ? info : undefined;
    });
    expect(net).toMatchObject({ mode: 'pod-ip', podIP: '127.10.0.2', ports: { '18080/TCP': '127.10.0.2:18080' } });
    expect(await httpGet('127.10.0.2', 18080, '/healthz')).toEqual({ status: 200, text: 'ok\n' });
    await h.cri.rt.StopPodSandbox({ podSandboxId });
    await expect(httpGet('127.10.0.2', 18080, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
