import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LABEL_CONTAINER_NAME, type Container, type ContainerStats, type Image, type PodSandbox, type RuntimeService } from '../kuberuntime/cri.js';
import { StatsProvider } from './provider.js';
import { onlyCpuAndMemory } from './summary.js';

const root = mkdtempSync(join(tmpdir(), 'kubelab-stats-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sandbox: PodSandbox = { id: 'sb1', metadata: { name: 'web', namespace: 'default', uid: 'u1', attempt: 0 }, state: 'SANDBOX_READY', createdAt: 1_700_000_000_000, labels: {}, annotations: {} };
const container: Container = {
  id: 'c1',
  podSandboxId: 'sb1',
  metadata: { name: 'nginx', attempt: 0 },
  image: 'nginx',
  imageRef: 'sha256:1',
  state: 'CONTAINER_RUNNING',
  createdAt: 1_700_000_001_000,
  labels: { [LABEL_CONTAINER_NAME]: 'nginx' },
  annotations: {},
};
const stats: ContainerStats = { id: 'c1', labels: {}, workingSetBytes: 4096, writableLayerBytes: 100, inodesUsed: 2, cpu: { usageCoreNanoSeconds: 5e9, usageNanoCores: 1e6 } };
const image: Image = { id: 'sha256:1', repoTags: ['nginx:latest'], repoDigests: [], size: 1000 };

/** The four reads a summary makes, counted. */
function countingRuntime(): { rt: RuntimeService; calls: string[] } {
  const calls: string[] = [];
  const answer = <T>(name: string, value: T) => {
    calls.push(name);
    return Promise.resolve(value);
  };
  const rt = {
    listPodSandbox: () => answer('ListPodSandbox', [sandbox]),
    listContainers: () => answer('ListContainers', [container]),
    listContainerStats: () => answer('ListContainerStats', [stats]),
    listImages: () => answer('ListImages', [image]),
  };
  // Only what the stats provider reads; any other call would throw.
  return { rt: rt as unknown as RuntimeService, calls };
}

describe('StatsProvider', () => {
  const podLogsDir = join(root, 'pods');
  mkdirSync(join(podLogsDir, 'default_web_u1', 'nginx'), { recursive: true });
  writeFileSync(join(podLogsDir, 'default_web_u1', 'nginx', '0.log'), 'x'.repeat(300));
  const now = new Date('2026-12-07T10:00:00Z');

  it.each([
    { what: 'summary', read: (p: StatsProvider) => p.summary(), rpcs: ['ListPodSandbox', 'ListContainers', 'ListContainerStats', 'ListImages'], logBytes: 300, fs: true },
    // Upstream ListPodCPUAndMemoryStats: no image list, no log folders, no statfs.
    { what: 'cpuAndMemory', read: (p: StatsProvider) => p.cpuAndMemory(), rpcs: ['ListPodSandbox', 'ListContainers', 'ListContainerStats'], logBytes: undefined, fs: false },
  ])('$what asks the runtime for $rpcs', async ({ read, rpcs, logBytes, fs }) => {
    const { rt, calls } = countingRuntime();
    const s = await read(new StatsProvider({ rt, nodeName: 'node-1', memoryCapacityBytes: 8 << 30, rootDir: root, podLogsDir, now: () => now }));
    expect(calls.sort()).toEqual([...rpcs].sort());
    const c = s.pods[0]!.containers[0]!;
    expect(c.cpu?.usageCoreNanoSeconds).toBe(5e9);
    expect(c.memory?.workingSetBytes).toBe(4096);
    expect(c.logs?.usedBytes).toBe(logBytes);
    expect(s.node.fs !== undefined).toBe(fs);
  });

  it('gives the CPU and memory of a full summary', async () => {
    const opts = { nodeName: 'node-1', memoryCapacityBytes: 8 << 30, rootDir: root, podLogsDir, now: () => now };
    const full = await new StatsProvider({ ...opts, rt: countingRuntime().rt }).summary();
    const lean = await new StatsProvider({ ...opts, rt: countingRuntime().rt }).cpuAndMemory();
    expect(lean).toEqual(onlyCpuAndMemory(full));
  });
});
