// A unit's control group, as far as kubelab needs one: the pids that belong
// to the unit besides its main process's own descendants. systemd puts a
// service's processes in /sys/fs/cgroup/system.slice/<unit>/ and its
// children stay there even when they leave the process tree (containerd's
// shims daemonize); KillMode= decides who a stop signals. Without cgroups
// the membership is a file under the node root, cgroup.procs, and a process
// that leaves its parent's tree adds its own pid (CGROUP_PROCS_ENV names the
// file, as /proc/self/cgroup would). A pid listed there is a member only while
// its process's environment names the file: a dead member's pid, reused by an
// unrelated process, must not get the unit's stop signals.

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pidAlive } from './unit-state.js';

/** The environment variable naming the unit's cgroup.procs file for its processes. */
export const CGROUP_PROCS_ENV = 'KUBELAB_CGROUP_PROCS';

/** <root>/sys/fs/cgroup/system.slice/<unit>/cgroup.procs */
export function cgroupProcsPath(root: string, unit: string): string {
  return join(root, 'sys', 'fs', 'cgroup', 'system.slice', unit, 'cgroup.procs');
}

/** Whether this machine shows processes' environments (Linux's /proc); elsewhere a live pid counts as a member. */
const PROC_ENVIRON = existsSync('/proc/self/environ');

/** Whether `pid` is a live process started in the cgroup of `path` (its environment names the file, as the unit's processes' do). */
export function isMember(pid: number, path: string): boolean {
  if (!pidAlive(pid)) return false;
  if (!PROC_ENVIRON) return true;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${CGROUP_PROCS_ENV}=${path}`);
  } catch {
    return false; // gone meanwhile, or another user's process: not one of the unit's
  }
}

/** The member pids of the file (one a line), without duplicates. */
export function readCgroupProcs(path: string): number[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const line of text.split('\n')) {
    const pid = Number(line);
    if (Number.isInteger(pid) && pid > 0 && isMember(pid, path)) pids.add(pid);
  }
  return [...pids];
}

/** Rewrites the file with its members and `add`: dead entries do not pile up. */
export function writeCgroupProcs(path: string, add: number[] = []): number[] {
  const pids = [...new Set([...readCgroupProcs(path), ...add])];
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, pids.map((p) => `${p}\n`).join(''));
  return pids;
}

/** A process joins the cgroup its environment names (a daemon leaving its parent's tree); no-op without one. */
export function joinCgroup(env: NodeJS.ProcessEnv = process.env, pid = process.pid): void {
  const path = env[CGROUP_PROCS_ENV];
  if (!path) return;
  try {
    appendFileSync(path, `${pid}\n`);
  } catch {
    // The unit's cgroup is gone (its manager stopped): nothing to join.
  }
}
