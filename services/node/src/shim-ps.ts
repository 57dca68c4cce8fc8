// The shims and the containers' processes under them, for ps and systemctl
// status. containerd runs every sandbox's shim (containerd-shim-runc-v2 -id
// <sandbox>) as a virtual one inside one real process, the shim host
// (services/containerd/src/shim/main.ts): the host keeps `ps.json` in its
// directory, its cwd, pointing at the task directories, and each shim keeps
// `ps.json` in its own (shim/ps-file.ts: its pid, past the kernel's pid_max,
// its command line and start, and each container's PID 1 with its command
// line). The host's row becomes its shims' rows, each followed by its
// containers' processes, listed with the pid they have in their container,
// as children of the shim. (A shim that is a process of its own, as before
// the host, keeps its row and gets its containers after it.)

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Proc } from './proc.js';

export const SHIM_COMMAND = 'containerd-shim-runc-v2';
/** A larger file is not a shim's: it is skipped, as are tasks and shims beyond the limits. */
const MAX_PS_FILE_BYTES = 256 * 1024;
const MAX_TASKS = 256;
const MAX_SHIMS = 4096;
/** USER_HZ: clock ticks per second of /proc's times. */
const CLK_TCK = 100;

export interface ShimPs {
  pid: number;
  /** A virtual shim's host (real pid), its command line and start (ms since the epoch). */
  host?: number;
  argv?: string[];
  startedMs?: number;
  tasks: { id: string; pid: number; argv: string[] }[];
}

/** The shim host's ps.json: its pid and where its shims' task directories are (relative to its cwd). */
export interface HostPs {
  pid: number;
  shims: string;
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

/**
 * A virtual shim's row (pure): its pid and command line, a child of what
 * the host is a child of, in a session of its own, started when it started
 * (`bootTime`: seconds since the epoch the kernel booted); undefined when
 * the file is not a shim of this host.
 */
export function virtualShimRow(host: Proc, ps: ShimPs, bootTime: number): Proc | undefined {
  if (ps.host !== host.pid || !Number.isInteger(ps.pid) || ps.pid <= 0 || !Array.isArray(ps.argv) || ps.argv[0] !== SHIM_COMMAND) return undefined;
  const starttime = typeof ps.startedMs === 'number' && bootTime > 0 ? Math.max(0, Math.round((ps.startedMs / 1000 - bootTime) * CLK_TCK)) : host.starttime;
  return {
    pid: ps.pid,
    ppid: host.ppid,
    uid: host.uid,
    state: 'S',
    pgrp: ps.pid,
    session: ps.pid,
    tpgid: -1,
    comm: 'containerd-shim',
    cmdline: ps.argv.join(' '),
    utime: 0,
    stime: 0,
    starttime,
    priority: host.priority,
    nice: host.nice,
    threads: 1,
    vszKb: 0,
    rssKb: 0,
    shrKb: 0,
    tty: '?',
  };
}

/** The `i`th of `n` shims' share of the host's usage (pure): even integer parts, the remainders to the first ones; every shim has a thread. */
export function shareOf(host: Pick<Proc, 'utime' | 'stime' | 'rssKb' | 'vszKb' | 'shrKb' | 'threads'>, n: number, i: number): Pick<Proc, 'utime' | 'stime' | 'rssKb' | 'vszKb' | 'shrKb' | 'threads'> {
  const part = (total: number) => Math.floor(total / n) + (i < total % n ? 1 : 0);
  return { utime: part(host.utime), stime: part(host.stime), rssKb: part(host.rssKb), vszKb: part(host.vszKb), shrKb: part(host.shrKb), threads: Math.max(1, part(host.threads)) };
}

function readJson<T>(path: string): T | undefined {
  try {
    if (statSync(path).size > MAX_PS_FILE_BYTES) return undefined;
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The ps.json files of a host's shims, read through its cwd. */
function readHostShims(host: HostPs): ShimPs[] {
  return hostShimDirs(host)
    .map((dir) => readJson<ShimPs>(`${dir}/ps.json`))
    .filter((ps): ps is ShimPs => !!ps && ps.host === host.pid);
}

/** A host's shims' task directories, through its cwd. */
function hostShimDirs(host: HostPs): string[] {
  // Not path.join: `..` must be walked from the cwd the link leads to, not cancel the link.
  const root = `/proc/${host.pid}/cwd/${host.shims}`;
  try {
    return readdirSync(root)
      .slice(0, MAX_SHIMS)
      .map((id) => `${root}/${id}`);
  } catch {
    return [];
  }
}

/**
 * The socket of the virtual shim with pid `pid` among the shim hosts of
 * `procs` (read through the host's cwd, so that it is reached from any
 * mount namespace that shares the host's pids); undefined when no shim has
 * that pid.
 */
export function virtualShimSocket(procs: Proc[], pid: number): string | undefined {
  for (const p of procs) {
    if (!p.cmdline.startsWith(`${SHIM_COMMAND} `)) continue;
    const host = readJson<HostPs>(join(`/proc/${p.pid}/cwd`, 'ps.json'));
    if (!host || host.pid !== p.pid || typeof host.shims !== 'string') continue;
    for (const dir of hostShimDirs(host)) {
      const ps = readJson<ShimPs>(`${dir}/ps.json`);
      if (ps?.host !== p.pid || ps.pid !== pid) continue;
      try {
        // The address is containerd's path (…/s/<hash>): the same socket under the host's state directory, its cwd's parent.
        const address = readFileSync(`${dir}/address`, 'utf8').trim();
        return `/proc/${p.pid}/cwd/../s/${address.slice(address.lastIndexOf('/') + 1)}`;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface ShimReader {
  /** The ps.json in a process's cwd. */
  psFile(pid: number): ShimPs | HostPs | undefined;
  /** The shims' ps.json files of a host. */
  hostShims(host: HostPs): ShimPs[];
  bootTime: number;
}

/**
 * `procs` with each shim host replaced by its shims' rows and each shim's
 * container processes after it (`containers` false: the shims only, as
 * systemctl status lists containerd's cgroup).
 */
export function withContainerProcs(procs: Proc[], bootTime: () => number, containers = true, read?: ShimReader): Proc[] {
  const out: Proc[] = [];
  let reader = read;
  for (const p of procs) {
    if (!p.cmdline.startsWith(`${SHIM_COMMAND} `)) {
      out.push(p);
      continue;
    }
    reader ??= { psFile: (pid) => readJson(join(`/proc/${pid}/cwd`, 'ps.json')), hostShims: readHostShims, bootTime: bootTime() };
    const ps = reader.psFile(p.pid);
    if (ps && 'shims' in ps && typeof ps.shims === 'string') {
      if (ps.pid !== p.pid) continue;
      const shims = reader
        .hostShims(ps)
        .map((s) => ({ s, row: virtualShimRow(p, s, reader!.bootTime) }))
        .filter((x): x is { s: ShimPs; row: Proc } => !!x.row)
        .sort((a, b) => a.row.pid - b.row.pid);
      // The host's memory, CPU time and threads are its shims' (split evenly): the cgroup's totals stay what they are.
      shims.forEach(({ row }, i) => Object.assign(row, shareOf(p, shims.length, i)));
      for (const { s, row } of shims) {
        out.push(row);
        if (containers) out.push(...containerProcs(row, s));
      }
      continue;
    }
    out.push(p);
    if (ps && containers) out.push(...containerProcs(p, ps as ShimPs));
  }
  return out;
}
