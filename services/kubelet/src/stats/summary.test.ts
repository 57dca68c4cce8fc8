import { describe, expect, it } from 'vitest';
import { buildSummary, metaTime, onlyCpuAndMemory, type ContainerSample, type SummaryInput } from './summary.js';

const container = (name: string, o: Partial<ContainerSample> = {}): ContainerSample => ({
  name,
  createdAtMs: Date.parse('2026-12-02T08:00:00.500Z'),
  usageCoreNanoSeconds: 2_000_000_000,
  usageNanoCores: 250_000_000,
  workingSetBytes: 10 * 1024 * 1024,
  usageBytes: 12 * 1024 * 1024,
  rssBytes: 8 * 1024 * 1024,
  rootfsUsedBytes: 4096,
  rootfsInodesUsed: 3,
  logUsedBytes: 1000,
  logInodesUsed: 1,
  ...o,
});

const input: SummaryInput = {
  nodeName: 'node-1',
  now: new Date('2026-12-02T08:30:00.123Z'),
  bootTime: new Date('2026-12-01T00:00:00Z'),
  memoryCapacityBytes: 1024 * 1024 * 1024,
  nodeUsageCoreNanoSeconds: 9_000_000_000,
  pods: [
    {
      name: 'web',
      namespace: 'default',
      uid: 'u1',
      createdAtMs: Date.parse('2026-12-02T07:59:59Z'),
      containers: [container('app'), container('sidecar', { workingSetBytes: 1024 * 1024, usageNanoCores: 50_000_000 })],
    },
  ],
  nodeFs: { capacityBytes: 100_000, availableBytes: 40_000, inodes: 1000, inodesFree: 900 },
  imageBytes: 20_000,
  pidMax: 4194304,
};

describe('the Summary API (/stats/summary)', () => {
  it('writes metav1.Time to the second', () => {
    expect(metaTime(new Date('2026-12-02T08:30:00.999Z'))).toBe('2026-12-02T08:30:00Z');
  });

  it("sums a pod's containers and the node's pods, with upstream's field names", () => {
    const s = buildSummary(input);
    const pod = s.pods[0]!;
    expect(pod.podRef).toEqual({ name: 'web', namespace: 'default', uid: 'u1' });
    expect(pod.startTime).toBe('2026-12-02T07:59:59Z');
    expect(pod.containers.map((c) => [c.name, c.startTime, c.cpu?.usageNanoCores, c.memory?.workingSetBytes])).toEqual([
      ['app', '2026-12-02T08:00:00Z', 250_000_000, 10 * 1024 * 1024],
      ['sidecar', '2026-12-02T08:00:00Z', 50_000_000, 1024 * 1024],
    ]);
    expect(pod.cpu).toEqual({ time: '2026-12-02T08:30:00Z', usageNanoCores: 300_000_000, usageCoreNanoSeconds: 4_000_000_000 });
    expect(pod.memory).toMatchObject({ workingSetBytes: 11 * 1024 * 1024, usageBytes: 24 * 1024 * 1024 });
    expect(pod.memory).not.toHaveProperty('availableBytes'); // no limit in CRI stats: omitted, as upstream
    expect(pod['ephemeral-storage']).toEqual({
      time: '2026-12-02T08:30:00Z',
      availableBytes: 40_000,
      capacityBytes: 100_000,
      usedBytes: 2 * (4096 + 1000),
      inodesFree: 900,
      inodes: 1000,
      inodesUsed: 8,
    });
    expect(pod.process_stats).toEqual({ process_count: 2 });
    expect(pod.containers[0]!.logs).toMatchObject({ usedBytes: 1000, inodesUsed: 1, capacityBytes: 100_000 });

    expect(s.node.nodeName).toBe('node-1');
    expect(s.node.startTime).toBe('2026-12-01T00:00:00Z');
    expect(s.node.cpu).toEqual({ time: '2026-12-02T08:30:00Z', usageNanoCores: 300_000_000, usageCoreNanoSeconds: 9_000_000_000 });
    expect(s.node.memory).toMatchObject({ workingSetBytes: 11 * 1024 * 1024, availableBytes: 1024 * 1024 * 1024 - 11 * 1024 * 1024 });
    expect(s.node.fs).toEqual({ time: '2026-12-02T08:30:00Z', availableBytes: 40_000, capacityBytes: 100_000, usedBytes: 60_000, inodesFree: 900, inodes: 1000, inodesUsed: 100 });
    expect(s.node.runtime?.imageFs).toEqual({ time: '2026-12-02T08:30:00Z', availableBytes: 40_000, capacityBytes: 100_000, usedBytes: 20_000, inodesFree: 900, inodes: 1000 });
    expect(s.node.rlimit).toEqual({ time: '2026-12-02T08:30:00Z', maxpid: 4194304, curproc: 2 });
    expect(s.node.systemContainers?.map((c) => c.name)).toEqual(['pods']);
  });

  it('leaves the filesystems out when the node has no filesystem stats', () => {
    const { nodeFs: _, ...noFs } = input;
    const s = buildSummary(noFs);
    expect(s.node).not.toHaveProperty('fs');
    expect(s.node).not.toHaveProperty('runtime');
    expect(s.pods[0]!.containers[0]!.rootfs).toEqual({ time: '2026-12-02T08:30:00Z', usedBytes: 4096, inodesUsed: 3 });
  });

  it('keeps only CPU and memory for ?only_cpu_and_memory=true', () => {
    const s = onlyCpuAndMemory(buildSummary(input));
    expect(Object.keys(s.node).sort()).toEqual(['cpu', 'memory', 'nodeName', 'startTime', 'systemContainers']);
    expect(Object.keys(s.pods[0]!).sort()).toEqual(['containers', 'cpu', 'memory', 'podRef', 'startTime']);
    expect(Object.keys(s.pods[0]!.containers[0]!).sort()).toEqual(['cpu', 'memory', 'name', 'startTime']);
  });
});

describe("a fault's usage in the summary", () => {
  it('adds its memory to the node (capped at capacity) and its processes to curproc, not to the pods', () => {
    const s = buildSummary({ ...input, nodeExtra: { memoryBytes: 100 * 1024 * 1024, processes: 40 } });
    expect(s.node.memory).toMatchObject({ workingSetBytes: 111 * 1024 * 1024, availableBytes: 1024 * 1024 * 1024 - 111 * 1024 * 1024 });
    expect(s.node.systemContainers?.[0]?.memory?.workingSetBytes).toBe(11 * 1024 * 1024);
    expect(s.node.rlimit?.curproc).toBe(42);
    const full = buildSummary({ ...input, nodeExtra: { memoryBytes: 4 * 1024 * 1024 * 1024, processes: 0 } });
    expect(full.node.memory).toMatchObject({ workingSetBytes: 1024 * 1024 * 1024, availableBytes: 0 });
  });
});
