// The containers' processes under their shim, for ps: a containerd shim
// (containerd-shim-runc-v2) keeps `ps.json` in its task directory, its cwd
// (services/containerd/src/shim/ps-file.ts writes it: the shim's pid and
// each container's PID 1 with its command line). Those processes are
// simulated inside the shim and have no pid of the host, so they are listed
// with the pid they have in their container, as children of the shim.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Proc } from './proc.js';

export const SHIM_COMMAND = 'containerd-shim-runc-v2';
/** A larger file is not a shim's: it is skipped, as are tasks beyond the limit. */
const MAX_PS_FILE_BYTES = 256 * 1024;
const MAX_TASKS = 256;

interface ShimPs {
  pid: number;
  tasks: { id: string; pid: number; argv: string[] }[];
}

/** The container processes of a shim as rows of the process table (pure). */
export function containerProcs(shim: Proc, ps: ShimPs): Proc[] {
  if (ps.pid !== shim.pid || !Array.isArray(ps.tasks)) return [];
  return ps.tasks.slice(0, MAX_TASKS).map((t) => ({
    pid: t.pid,
    ppid: shim.pid,
    uid: 0,
    state: 'S',
    pgrp: t.pid,
    session: t.pid,
    tpgid: -1,
    comm: (t.argv[0] ?? '').split('/').pop()!.slice(0, 15),
    cmdline: t.argv.join(' '),
    utime: 0,
    stime: 0,
    starttime: shim.starttime,
    priority: 20,
    nice: 0,
    threads: 1,
    vszKb: 0,
    rssKb: 0,
    shrKb: 0,
    tty: '?',
  }));
}

/** The shim's ps.json, read through its cwd; undefined when it is not there or not sane. */
function readShimPs(pid: number): ShimPs | undefined {
  const path = join(`/proc/${pid}/cwd`, 'ps.json');
  try {
    if (statSync(path).size > MAX_PS_FILE_BYTES) return undefined;
    return JSON.parse(readFileSync(path, 'utf8')) as ShimPs;
  } catch {
    return undefined;
  }
}

/** `procs` with each shim's container processes after it. */
export function withContainerProcs(procs: Proc[]): Proc[] {
  const out: Proc[] = [];
  for (const p of procs) {
    out.push(p);
    if (!p.cmdline.startsWith(`${SHIM_COMMAND} `)) continue;
    const ps = readShimPs(p.pid);
    if (ps) out.push(...containerProcs(p, ps));
  }
  return out;
}
