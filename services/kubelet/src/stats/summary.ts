// The Summary API (upstream k8s.io/kubelet/pkg/apis/stats/v1alpha1 and
// pkg/kubelet/server/stats): node, pod and container usage as /stats/summary
// serves it to metrics-server and `kubectl get --raw …/proxy/stats/summary`.
// Built by a pure function from what the CRI stats provider gathered, as
// upstream's CRI stats provider does when cadvisor is not asked: a container's
// start is its CreatedAt, a pod's its sandbox's, a pod's usage the sum of its
// containers'. The node is the simulated machine: its usage is its pods'.

export interface CpuStats {
  time: string;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

export interface MemoryStats {
  time: string;
  availableBytes?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface FsStats {
  time: string;
  availableBytes?: number;
  capacityBytes?: number;
  usedBytes?: number;
  inodesFree?: number;
  inodes?: number;
  inodesUsed?: number;
}

export interface ContainerStatsApi {
  name: string;
  startTime: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  rootfs?: FsStats;
  logs?: FsStats;
}

export interface PodStatsApi {
  podRef: { name: string; namespace: string; uid: string };
  startTime: string;
  containers: ContainerStatsApi[];
  cpu?: CpuStats;
  memory?: MemoryStats;
  'ephemeral-storage'?: FsStats;
  process_stats?: { process_count?: number };
}

export interface NodeStatsApi {
  nodeName: string;
  systemContainers?: ContainerStatsApi[];
  startTime: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  fs?: FsStats;
  runtime?: { imageFs?: FsStats };
  rlimit?: { time: string; maxpid?: number; curproc?: number };
}

export interface StatsSummary {
  node: NodeStatsApi;
  pods: PodStatsApi[];
}

/** One running container as the provider found it (ListContainers + ListContainerStats + its log files). */
export interface ContainerSample {
  name: string;
  createdAtMs: number;
  usageCoreNanoSeconds: number;
  usageNanoCores: number;
  workingSetBytes: number;
  usageBytes: number;
  rssBytes: number;
  rootfsUsedBytes: number;
  rootfsInodesUsed: number;
  logUsedBytes: number;
  logInodesUsed: number;
}

export interface PodSample {
  name: string;
  namespace: string;
  uid: string;
  createdAtMs: number;
  containers: ContainerSample[];
}

export interface FsSample {
  capacityBytes: number;
  availableBytes: number;
  inodes?: number;
  inodesFree?: number;
}

export interface SummaryInput {
  nodeName: string;
  now: Date;
  bootTime: Date;
  memoryCapacityBytes: number;
  /** The node's cumulative CPU time: monotonic, exited containers' time included. */
  nodeUsageCoreNanoSeconds: number;
  pods: PodSample[];
  nodeFs?: FsSample;
  imageBytes: number;
  pidMax: number;
  /** Memory and processes the node uses besides its pods' (a fault's usage, `kubelab fault … memory-pressure`). */
  nodeExtra?: { memoryBytes: number; processes: number };
}

/** metav1.Time's wire form: RFC 3339 to the second. */
export const metaTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((n, x) => n + f(x), 0);

function fsShare(time: string, fs: FsSample | undefined, usedBytes: number, inodesUsed?: number): FsStats {
  return {
    time,
    ...(fs ? { availableBytes: Math.max(0, fs.availableBytes), capacityBytes: fs.capacityBytes } : {}),
    usedBytes,
    ...(fs?.inodes !== undefined ? { inodesFree: fs.inodesFree ?? 0, inodes: fs.inodes } : {}),
    ...(inodesUsed !== undefined ? { inodesUsed } : {}),
  };
}

function memory(time: string, workingSetBytes: number, usageBytes: number, rssBytes: number, capacityBytes?: number): MemoryStats {
  return {
    time,
    // Upstream: limit − working set, omitted when there is no limit (a container's limit is not in CRI stats).
    ...(capacityBytes !== undefined ? { availableBytes: Math.max(0, capacityBytes - workingSetBytes) } : {}),
    usageBytes,
    workingSetBytes,
    rssBytes,
    pageFaults: 0,
    majorPageFaults: 0,
  };
}

export function buildSummary(i: SummaryInput): StatsSummary {
  const time = metaTime(i.now);
  const pods: PodStatsApi[] = i.pods.map((p) => {
    const containers = p.containers.map((c): ContainerStatsApi => ({
      name: c.name,
      startTime: metaTime(new Date(c.createdAtMs)),
      cpu: { time, usageNanoCores: c.usageNanoCores, usageCoreNanoSeconds: c.usageCoreNanoSeconds },
      memory: memory(time, c.workingSetBytes, c.usageBytes, c.rssBytes),
      rootfs: fsShare(time, i.nodeFs, c.rootfsUsedBytes, c.rootfsInodesUsed),
      logs: fsShare(time, i.nodeFs, c.logUsedBytes, c.logInodesUsed),
    }));
    return {
      podRef: { name: p.name, namespace: p.namespace, uid: p.uid },
      startTime: metaTime(new Date(p.createdAtMs)),
      containers,
      cpu: { time, usageNanoCores: sum(p.containers, (c) => c.usageNanoCores), usageCoreNanoSeconds: sum(p.containers, (c) => c.usageCoreNanoSeconds) },
      memory: memory(
        time,
        sum(p.containers, (c) => c.workingSetBytes),
        sum(p.containers, (c) => c.usageBytes),
        sum(p.containers, (c) => c.rssBytes),
      ),
      // Upstream: the containers' rootfs and logs plus the pod's emptyDir volumes (not counted here).
      'ephemeral-storage': fsShare(
        time,
        i.nodeFs,
        sum(p.containers, (c) => c.rootfsUsedBytes + c.logUsedBytes),
        sum(p.containers, (c) => c.rootfsInodesUsed + c.logInodesUsed),
      ),
      process_stats: { process_count: p.containers.length },
    };
  });
  const all = i.pods.flatMap((p) => p.containers);
  const extraMemory = i.nodeExtra?.memoryBytes ?? 0;
  const nodeMemory = memory(
    time,
    Math.min(i.memoryCapacityBytes, sum(all, (c) => c.workingSetBytes) + extraMemory),
    sum(all, (c) => c.usageBytes) + extraMemory,
    sum(all, (c) => c.rssBytes) + extraMemory,
    i.memoryCapacityBytes,
  );
  const nodeCpu: CpuStats = { time, usageNanoCores: sum(all, (c) => c.usageNanoCores), usageCoreNanoSeconds: i.nodeUsageCoreNanoSeconds };
  const startTime = metaTime(i.bootTime);
  return {
    node: {
      nodeName: i.nodeName,
      // Upstream's "pods" system container: the cgroup all pods run under.
      systemContainers: [
        {
          name: 'pods',
          startTime,
          cpu: { ...nodeCpu },
          memory: memory(
            time,
            sum(all, (c) => c.workingSetBytes),
            sum(all, (c) => c.usageBytes),
            sum(all, (c) => c.rssBytes),
          ),
        },
      ],
      startTime,
      cpu: nodeCpu,
      memory: nodeMemory,
      ...(i.nodeFs
        ? {
            fs: {
              time,
              availableBytes: Math.max(0, i.nodeFs.availableBytes),
              capacityBytes: i.nodeFs.capacityBytes,
              usedBytes: Math.max(0, i.nodeFs.capacityBytes - i.nodeFs.availableBytes),
              ...(i.nodeFs.inodes !== undefined ? { inodesFree: i.nodeFs.inodesFree ?? 0, inodes: i.nodeFs.inodes, inodesUsed: i.nodeFs.inodes - (i.nodeFs.inodesFree ?? 0) } : {}),
            },
            // One filesystem holds the images too (no dedicated imagefs); usedBytes is the images' share.
            runtime: { imageFs: fsShare(time, i.nodeFs, i.imageBytes) },
          }
        : {}),
      rlimit: { time, maxpid: i.pidMax, curproc: Math.min(i.pidMax, all.length + (i.nodeExtra?.processes ?? 0)) },
    },
    pods,
  };
}

/** `?only_cpu_and_memory=true`: the node's and pods' CPU and memory only (upstream GetCPUAndMemoryStats). */
export function onlyCpuAndMemory(s: StatsSummary): StatsSummary {
  const { nodeName, startTime, cpu, memory, systemContainers } = s.node;
  const cm = <T extends { cpu?: CpuStats; memory?: MemoryStats }>(x: T) => ({ ...(x.cpu ? { cpu: x.cpu } : {}), ...(x.memory ? { memory: x.memory } : {}) });
  return {
    node: { nodeName, startTime, ...cm({ cpu, memory }), ...(systemContainers ? { systemContainers: systemContainers.map((c) => ({ name: c.name, startTime: c.startTime, ...cm(c) })) } : {}) },
    pods: s.pods.map((p) => ({ podRef: p.podRef, startTime: p.startTime, containers: p.containers.map((c) => ({ name: c.name, startTime: c.startTime, ...cm(c) })), ...cm(p) })),
  };
}
