// The stats the eviction manager reads (upstream: the summary provider over
// cadvisor and CRI stats). kubelab's containers are simulated, so node usage
// is what the runtime reports for them: memory.available is the node's
// memory capacity minus the containers' working sets; the node filesystem is
// the real one under --root-dir minus what the simulated images and writable
// layers would occupy on it; processes are one per running container.
// Usage a fault injected on the node (@kubelab/systemd's node fault state,
// read at each collection as cadvisor reads the cgroup files) is added.

import { readFileSync, statfsSync } from 'node:fs';
import { faultedDisk, faultedPids, faultedWorkingSet, readNodeFaults, type NodeFaultState } from '@kubelab/systemd';
import { LABEL_CONTAINER_NAME, LABEL_POD_UID, type RuntimeService } from '../kuberuntime/cri.js';
import type { PodStats, Summary } from './helpers.js';

export interface SummarySources {
  rt: RuntimeService;
  memoryCapacityBytes: number;
  rootDir: string;
  /** The node root whose fault state adds usage (KUBELAB_NODE_ROOT); none when absent. */
  nodeRoot?: string;
}

export function pidMax(): number {
  try {
    return Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) || 32768;
  } catch {
    return 32768;
  }
}

/** The node and pod usage right now; throws when the runtime cannot be asked. */
export async function collectSummary(s: SummarySources): Promise<Summary> {
  const stats = s.rt.listContainerStats ? await s.rt.listContainerStats() : [];
  const images = await s.rt.listImages().catch(() => []);
  const pods = new Map<string, PodStats>();
  let workingSet = 0;
  let writable = 0;
  for (const c of stats) {
    workingSet += c.workingSetBytes;
    writable += c.writableLayerBytes;
    const uid = c.labels[LABEL_POD_UID];
    if (!uid) continue;
    let p = pods.get(uid);
    if (!p) pods.set(uid, (p = { uid, containers: [], processes: 0 }));
    p.containers.push({ name: c.labels[LABEL_CONTAINER_NAME] ?? '', workingSetBytes: c.workingSetBytes, rootfsUsedBytes: c.writableLayerBytes, inodesUsed: c.inodesUsed });
    p.processes++;
  }
  const faults = s.nodeRoot ? readNodeFaults(s.nodeRoot) : {};
  const max = pidMax();
  const summary: Summary = {
    memory: { capacityBytes: s.memoryCapacityBytes, workingSetBytes: faultedWorkingSet(workingSet, s.memoryCapacityBytes, faults) },
    pid: { max, running: faultedPids(stats.length, max, faults) },
    pods: [...pods.values()],
  };
  const nodeFs = nodeFilesystem(
    s.rootDir,
    images.reduce((n, i) => n + i.size, 0),
    writable,
    faults,
  );
  if (nodeFs) {
    summary.nodeFs = nodeFs;
    // One filesystem holds images too (upstream's no-dedicated-imagefs case).
    summary.imageFs = nodeFs;
  }
  return summary;
}

/** The node filesystem under rootDir, less what the simulated images, writable layers and a fault's disk usage occupy; undefined without statfs. */
export function nodeFilesystem(rootDir: string, imageBytes: number, writableBytes: number, faults: NodeFaultState = {}): NonNullable<Summary['nodeFs']> | undefined {
  try {
    const fs = statfsSync(rootDir);
    const capacityBytes = fs.blocks * fs.bsize;
    const availableBytes = fs.bavail * fs.bsize - imageBytes - writableBytes;
    return {
      capacityBytes,
      availableBytes: faultedDisk({ capacityBytes, usedBytes: capacityBytes - availableBytes, availableBytes }, faults).availableBytes,
      ...(fs.files > 0 ? { inodes: fs.files, inodesFree: fs.ffree } : {}),
    };
  } catch {
    return undefined; // no filesystem stats: the disk signals are not observed
  }
}
