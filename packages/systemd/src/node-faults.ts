// The node's injected faults that are a state rather than a log line or a
// signal (kubelab's own contract; `kubelab fault` writes it, the node's
// runtime, kubelet and tools read it): one JSON file under the node root,
// <root>/run/systemd/kubelab-faults/node.json, written whole and renamed into
// place. It lives under /run/systemd because that is the /run folder every
// unit of a compose node shares (its containers mount the node's volume
// there); in the local runner it is one more folder of the node root.
// Readers watch its folder (fs.watch), as a process on a real node learns of
// a remount or a filling disk when its next syscall says so.

import { mkdirSync, readFileSync, renameSync, rmSync, statSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** Usage the node accounts on top of what it really uses (never real bytes on the host's disk or memory). */
export interface NodeFaultUsage {
  /** Bytes taken on the node's filesystem (nodefs: df, the kubelet's nodefs.available). */
  diskBytes?: number;
  /** Bytes of memory in use (free, the kubelet's memory.available). */
  memoryBytes?: number;
  /** Processes running (the kubelet's pid.available). */
  pids?: number;
}

export interface NodeFaultState {
  /** The node's filesystem was remounted read-only: container writes fail with EROFS. */
  readonlyFilesystem?: boolean;
  /** The node is cut off from the control plane: its connections to the apiserver go unanswered (a dropped route, a firewall). */
  partitioned?: boolean;
  usage?: NodeFaultUsage;
}

export function nodeFaultsDir(root: string): string {
  return join(root, 'run', 'systemd', 'kubelab-faults');
}

export function nodeFaultsFile(root: string): string {
  return join(nodeFaultsDir(root), 'node.json');
}

/** The state without its empty parts ({} when no fault is set). */
export function normalizeNodeFaults(s: NodeFaultState): NodeFaultState {
  const usage = Object.fromEntries(Object.entries(s.usage ?? {}).filter(([, v]) => typeof v === 'number' && Number.isFinite(v) && v > 0)) as NodeFaultUsage;
  return {
    ...(s.readonlyFilesystem ? { readonlyFilesystem: true } : {}),
    ...(s.partitioned ? { partitioned: true } : {}),
    ...(Object.keys(usage).length ? { usage } : {}),
  };
}

/** The node's fault state; {} when none is set or the file is unreadable (a torn write is never seen: rename). */
export function readNodeFaults(root: string): NodeFaultState {
  const file = nodeFaultsFile(root);
  try {
    // No fault is the usual state, read at every stats collection: one stat, no ENOENT error built and thrown.
    if (!statSync(file, { throwIfNoEntry: false })) return {};
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof v === 'object' && v !== null ? normalizeNodeFaults(v as NodeFaultState) : {};
  } catch {
    return {};
  }
}

/** Writes the whole state (removes the file when no fault is left). */
export function writeNodeFaults(root: string, s: NodeFaultState): void {
  const next = normalizeNodeFaults(s);
  const file = nodeFaultsFile(root);
  mkdirSync(nodeFaultsDir(root), { recursive: true });
  if (!Object.keys(next).length) return void rmSync(file, { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n');
  renameSync(tmp, file);
}

/**
 * Calls `onChange` with the current state now and whenever it changes
 * (fs.watch on the folder; only real changes are published). Returns the
 * function that stops watching.
 */
export function watchNodeFaults(root: string, onChange: (s: NodeFaultState) => void): () => void {
  const dir = nodeFaultsDir(root);
  let last = '';
  const check = () => {
    const s = readNodeFaults(root);
    const key = JSON.stringify(s);
    if (key === last) return;
    last = key;
    onChange(s);
  };
  let watcher: FSWatcher | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    watcher = watch(dir, check);
    watcher.on('error', () => watcher?.close());
  } catch {
    // A root we cannot write (a read-only test fixture): the state stays what it is now.
  }
  check();
  return () => watcher?.close();
}

// ---- the faults' usage as every reader accounts it (kubelet stats, df, free) ----

export interface DiskUsage {
  capacityBytes: number;
  usedBytes: number;
  availableBytes: number;
}

/** The filesystem with the faults' bytes taken from what is available (as a file of that size would). */
export function faultedDisk(d: DiskUsage, s: NodeFaultState): DiskUsage {
  const taken = Math.max(0, Math.min(s.usage?.diskBytes ?? 0, d.availableBytes));
  return { capacityBytes: d.capacityBytes, usedBytes: d.usedBytes + taken, availableBytes: d.availableBytes - taken };
}

/** /proc/meminfo's fields (kB) with the faults' memory in use: less free and available. */
export function faultedMeminfo(mem: Readonly<Record<string, number>>, s: NodeFaultState): Record<string, number> {
  const kb = Math.floor((s.usage?.memoryBytes ?? 0) / 1024);
  const taken = Math.max(0, Math.min(kb, mem.MemAvailable ?? 0));
  return { ...mem, MemAvailable: (mem.MemAvailable ?? 0) - taken, MemFree: Math.max(0, (mem.MemFree ?? 0) - taken) };
}

/** The node's memory working set (bytes) with the faults' memory, at most the capacity. */
export function faultedWorkingSet(workingSetBytes: number, capacityBytes: number, s: NodeFaultState): number {
  return Math.min(capacityBytes, workingSetBytes + (s.usage?.memoryBytes ?? 0));
}

/** Processes running with the faults' ones, at most pid_max. */
export function faultedPids(running: number, max: number, s: NodeFaultState): number {
  return Math.min(max, running + (s.usage?.pids ?? 0));
}
