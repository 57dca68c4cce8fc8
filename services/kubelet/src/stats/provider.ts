// The kubelet's CRI stats provider (upstream pkg/kubelet/stats/cri_stats_provider.go):
// asks the runtime for its sandboxes, containers, container stats and images,
// reads the pods' log folders for the logs' usage, and hands it to the pure
// summary builder. Node CPU time stays monotonic across container exits: the
// last seen time of a container that is gone is kept in a running total, as
// the node's root cgroup would keep it.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LABEL_CONTAINER_NAME, type RuntimeService } from '../kuberuntime/cri.js';
import { readNodeFaults } from '@kubelab/systemd';
import { nodeFilesystem, pidMax } from '../eviction/stats.js';
import { buildSummary, onlyCpuAndMemory, type PodSample, type StatsSummary } from './summary.js';

export interface StatsProviderOptions {
  rt: RuntimeService;
  nodeName: string;
  memoryCapacityBytes: number;
  rootDir: string;
  podLogsDir: string;
  /** The node root whose fault state adds usage (KUBELAB_NODE_ROOT), read at each collection as the eviction stats do. */
  nodeRoot?: string;
  now?: () => Date;
}

/** Seconds since the epoch the machine booted (/proc/stat btime); the node's stats start then. */
function bootTime(): Date {
  try {
    const btime = Number(/^btime (\d+)/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? 0);
    if (btime > 0) return new Date(btime * 1000);
  } catch {
    // not Linux: the kubelet's start stands in
  }
  return new Date(Date.now() - process.uptime() * 1000);
}

/** Bytes and files under a container's log folder (`<ns>_<pod>_<uid>/<container>/`, rotated files included). */
function logUsage(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  try {
    for (const f of readdirSync(dir)) {
      try {
        bytes += statSync(join(dir, f)).size;
        files++;
      } catch {
        // rotated away meanwhile
      }
    }
  } catch {
    // no log folder (yet)
  }
  return { bytes, files };
}

const NO_LOGS = { bytes: 0, files: 0 };

export class StatsProvider {
  private readonly boot = bootTime();
  /** Last cumulative CPU time per live container, and the total of those gone. */
  private readonly lastCpu = new Map<string, number>();
  private retiredCpu = 0;

  constructor(private readonly o: StatsProviderOptions) {}

  /** Everything /stats/summary shows: CPU and memory, filesystems, images, logs. */
  summary(): Promise<StatsSummary> {
    return this.collect(true);
  }

  /**
   * The node's and pods' CPU and memory only (/metrics/resource, `?only_cpu_and_memory=true`): as upstream's
   * ListPodCPUAndMemoryStats, no image list, no log folders and no statfs are read for it.
   */
  async cpuAndMemory(): Promise<StatsSummary> {
    return onlyCpuAndMemory(await this.collect(false));
  }

  private async collect(withFs: boolean): Promise<StatsSummary> {
    const [sandboxes, containers, stats, images] = await Promise.all([
      this.o.rt.listPodSandbox(),
      this.o.rt.listContainers(),
      this.o.rt.listContainerStats ? this.o.rt.listContainerStats() : Promise.resolve([]),
      withFs ? this.o.rt.listImages().catch(() => []) : Promise.resolve([]),
    ]);
    const statsById = new Map(stats.map((s) => [s.id, s]));
    const pods = new Map<string, PodSample>();
    for (const sb of sandboxes) {
      if (sb.state !== 'SANDBOX_READY') continue;
      pods.set(sb.id, { name: sb.metadata.name, namespace: sb.metadata.namespace, uid: sb.metadata.uid, createdAtMs: sb.createdAt, containers: [] });
    }
    let writable = 0;
    for (const c of containers) {
      const pod = pods.get(c.podSandboxId);
      const st = statsById.get(c.id);
      if (!pod || c.state !== 'CONTAINER_RUNNING' || !st) continue;
      const name = c.labels[LABEL_CONTAINER_NAME] ?? c.metadata.name;
      const logs = withFs ? logUsage(join(this.o.podLogsDir, `${pod.namespace}_${pod.name}_${pod.uid}`, name)) : NO_LOGS;
      writable += st.writableLayerBytes;
      pod.containers.push({
        name,
        createdAtMs: c.createdAt,
        usageCoreNanoSeconds: st.cpu?.usageCoreNanoSeconds ?? 0,
        usageNanoCores: st.cpu?.usageNanoCores ?? 0,
        workingSetBytes: st.workingSetBytes,
        usageBytes: st.memoryUsageBytes ?? st.workingSetBytes,
        rssBytes: st.rssBytes ?? 0,
        rootfsUsedBytes: st.writableLayerBytes,
        rootfsInodesUsed: st.inodesUsed,
        logUsedBytes: logs.bytes,
        logInodesUsed: logs.files,
      });
    }
    const imageBytes = images.reduce((n, i) => n + i.size, 0);
    const faults = this.o.nodeRoot ? readNodeFaults(this.o.nodeRoot) : {};
    const nodeFs = withFs ? nodeFilesystem(this.o.rootDir, imageBytes, writable, faults) : undefined;
    return buildSummary({
      nodeName: this.o.nodeName,
      now: this.o.now?.() ?? new Date(),
      bootTime: this.boot,
      memoryCapacityBytes: this.o.memoryCapacityBytes,
      nodeUsageCoreNanoSeconds: this.nodeCpu(stats.map((s) => [s.id, s.cpu?.usageCoreNanoSeconds ?? 0])),
      pods: [...pods.values()],
      ...(nodeFs ? { nodeFs } : {}),
      imageBytes,
      pidMax: withFs ? pidMax() : 0,
      nodeExtra: { memoryBytes: faults.usage?.memoryBytes ?? 0, processes: faults.usage?.pids ?? 0 },
    });
  }

  /** The node's cumulative CPU time: live containers' plus the last seen of those gone (bounded by the live set). */
  private nodeCpu(live: [string, number][]): number {
    const seen = new Set(live.map(([id]) => id));
    for (const [id, last] of this.lastCpu) {
      if (seen.has(id)) continue;
      this.retiredCpu += last;
      this.lastCpu.delete(id);
    }
    let total = this.retiredCpu;
    for (const [id, ns] of live) {
      // A stopped container may report 0: its last seen time stands.
      const t = Math.max(this.lastCpu.get(id) ?? 0, ns);
      this.lastCpu.set(id, t);
      total += t;
    }
    return total;
  }
}
