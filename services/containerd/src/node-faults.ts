// The node's read-only remount as the containers meet it: while the node's
// fault state (@kubelab/systemd's node-faults, written by `kubelab fault`)
// says the filesystem is read-only, every write to a container's filesystem
// fails with EROFS, as writes to an overlayfs on a filesystem the kernel
// remounted read-only do. The runtime learns of it through a watch.

import { appendJournal, kernelRecord, watchNodeFaults } from '@kubelab/systemd';
import { SecurityReadOnlyError } from './security/filesystem.js';

let readOnly = false;

/** Follows the node's fault state under `root` (KUBELAB_NODE_ROOT); returns the function that stops. */
export function followNodeFaults(root: string): () => void {
  return watchNodeFaults(root, (s) => {
    readOnly = s.readonlyFilesystem === true;
  });
}

/** Sets the state directly (tests). */
export function setNodeReadOnly(on: boolean): void {
  readOnly = on;
}

/** A write refused by a read-only filesystem (errno EROFS); the message is strerror's, as tools print it. */
const MARKER = Symbol.for('kubelab.containerd.ReadOnlyFileSystemError');

export class ReadOnlyFileSystemError extends Error {
  readonly code = 'EROFS';
  readonly [MARKER] = true;
  constructor(readonly path: string) {
    super('Read-only file system');
    this.name = 'ReadOnlyFileSystemError';
  }
  static isInstance(e: unknown): e is ReadOnlyFileSystemError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Pipes and devices (/proc/N/fd/*, /dev/null) are no files of the remounted filesystem. */
function onFilesystem(path: string): boolean {
  return !(path.startsWith('/proc/') || path.startsWith('/dev/'));
}

/** Throws EROFS for a write to `paths` while the node's filesystem is read-only. */
export function assertWritable(...paths: string[]): void {
  if (!readOnly) return;
  const p = paths.find(onFilesystem);
  if (p !== undefined) throw new ReadOnlyFileSystemError(p);
}

/** What the shell prints for an error that ended a command line: bash's `bash: PATH: Read-only file system` for EROFS. */
export function shellErrorText(err: unknown): string {
  if (SecurityReadOnlyError.isInstance(err)) return err.shellText;
  return ReadOnlyFileSystemError.isInstance(err) ? `bash: ${err.path}: ${err.message}` : (err as Error).message;
}

// ---- the memory cgroup's OOM killer as the kernel logs it ----

/** The lines the kernel writes when a memory cgroup's OOM killer ends a task (mm/oom_kill.c, memcontrol.c), in their order. */
export function oomKernelLines(v: { argv: string[]; memoryBytes: number; limitBytes: number; pid?: number }): string[] {
  // comm: the executable's basename, at most 15 characters (TASK_COMM_LEN).
  const comm = (v.argv[0] ?? '').split('/').pop()!.slice(0, 15) || 'sh';
  const pid = v.pid ?? 1;
  const kb = (b: number) => Math.max(0, Math.ceil(b / 1024));
  const rss = kb(v.memoryBytes);
  // A process maps more than it touches: its virtual size is its resident set and the mapped libraries (about 1.5 MiB for a static busybox).
  const vm = rss + 1536;
  // The kubelet sets no oom_score_adj through the CRI here: the kernel prints the default, 0.
  return [
    `${comm} invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0`,
    `memory: usage ${rss}kB, limit ${kb(v.limitBytes)}kB, failcnt 1`,
    `Memory cgroup out of memory: Killed process ${pid} (${comm}) total-vm:${vm}kB, anon-rss:${rss}kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:${Math.max(44, Math.ceil(vm / 512) * 4)}kB oom_score_adj:0`,
  ];
}

/** Appends the OOM killer's lines to the node's kernel log (<root>/var/log/journal kernel.jsonl: what dmesg and NPD's kernel monitor read). */
export async function logOomKill(root: string, hostname: string, v: { argv: string[]; memoryBytes: number; limitBytes: number }): Promise<void> {
  const lines = oomKernelLines(v);
  // KERN_WARNING for the header, KERN_ERR for the kill (as the kernel's pr_warn / pr_err).
  for (const [i, line] of lines.entries()) await appendJournal(root, kernelRecord(hostname, line, i === lines.length - 1 ? 3 : 4));
}
