// What the node's `ps` learns of a shim's containers: `ps.json` in the task
// directory (the shim's cwd), rewritten when a task starts or ends. Only
// PID 1 of each container is listed (the container's own view: pid 1 and
// its command line), so the file stays as small as the task list.

import { renameSync, writeFileSync } from 'node:fs';
import type { LocalTasks } from '../tasks.js';

export interface ShimPs {
  /** The shim's real pid. */
  pid: number;
  tasks: { id: string; pid: number; argv: string[] }[];
}

export function writePsFile(pid: number, tasks: LocalTasks): void {
  const ps: ShimPs = { pid, tasks: tasks.list().map((t) => ({ id: t.id, pid: 1, argv: t.argv })) };
  try {
    writeFileSync('ps.json.tmp', JSON.stringify(ps));
    renameSync('ps.json.tmp', 'ps.json');
  } catch {
    // The bundle is going away with the shim.
  }
}
