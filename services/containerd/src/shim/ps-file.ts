// What the node's `ps` learns of the shims: each sandbox's shim keeps
// `ps.json` in its task directory, rewritten when a task starts or ends. The
// shims are virtual (one shim host process runs them all, shim/main.ts), so
// the file carries what /proc would have told of a real one: the shim's pid
// (a virtual one, above the kernel's pid_max), its command line and start,
// and the host's real pid, under which the node's ps finds it. Only PID 1 of
// each container is listed (the container's own view: pid 1 and its command
// line), so the file stays as small as the task list.
//
// The host's own ps.json (in its directory, its cwd) points at the task
// directories: `{"pid": <host pid>, "shims": "<task root, relative to it>"}`.

import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ShimPs {
  /** The shim's pid as the node's ps shows it (virtual). */
  pid: number;
  /** The shim host's real pid: the file is current only while that process lives. */
  host: number;
  /** The shim's command line. */
  argv: string[];
  /** When the shim started, ms since the epoch. */
  startedMs: number;
  tasks: { id: string; pid: number; argv: string[] }[];
}

export interface HostPs {
  /** The shim host's real pid. */
  pid: number;
  /** The task root, relative to the host's directory. */
  shims: string;
}

/** Writes `ps.json` in `dir` whole (a reader never sees half of it); a directory already gone is no error. */
export function writePsFile(dir: string, ps: ShimPs | HostPs): void {
  try {
    writeFileSync(join(dir, 'ps.json.tmp'), JSON.stringify(ps));
    renameSync(join(dir, 'ps.json.tmp'), join(dir, 'ps.json'));
  } catch {
    // The bundle is going away with the shim.
  }
}
