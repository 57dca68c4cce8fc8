// The node's process table from /proc, as procps reads it (stat, status,
// cmdline). The local runner's node shares the host's /proc, so there the
// node's processes are its units' cgroups (main processes, what joined the
// cgroup, and their descendants); in compose (pid: service:node-N) every
// process in /proc is the node's. A containerd shim's simulated container
// processes follow it; the shim host's row is its shims' rows (shim-ps.ts).

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { cgroupProcsPath, listUnitStates, pidAlive, readCgroupProcs } from '@kubelab/systemd';
import { withContainerProcs } from './shim-ps.js';
import type { NodeEnv } from './node-env.js';

export interface Proc {
  pid: number;
  ppid: number;
  uid: number;
  /** One-letter state (R, S, D, Z, T, I). */
  state: string;
  pgrp: number;
  session: number;
  tpgid: number;
  /** /proc/<pid>/comm. */
  comm: string;
  /** The command line; `[comm]` for kernel threads as ps prints them. */
  cmdline: string;
  /** Clock ticks in user and kernel mode. */
  utime: number;
  stime: number;
  /** Clock ticks after boot the process started. */
  starttime: number;
  priority: number;
  nice: number;
  threads: number;
  vszKb: number;
  rssKb: number;
  shrKb: number;
  tty: string;
}

/** USER_HZ: clock ticks per second of /proc's times. */
export const CLK_TCK = 100;

/** Parses /proc/<pid>/stat (the comm field may hold spaces and parentheses). */
export function parseStat(text: string): {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  tpgid: number;
  ttyNr: number;
  utime: number;
  stime: number;
  priority: number;
  nice: number;
  threads: number;
  starttime: number;
  vsize: number;
} {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const f = text.slice(close + 2).split(' ');
  // f[0] is field 3 (state)
  const n = (i: number) => Number(f[i - 3]);
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: f[0]!,
    ppid: n(4),
    pgrp: n(5),
    session: n(6),
    ttyNr: n(7),
    tpgid: n(8),
    utime: n(14),
    stime: n(15),
    priority: n(18),
    nice: n(19),
    threads: n(20),
    starttime: n(22),
    vsize: n(23),
  };
}

/** `VmRSS:   35216 kB` → 35216 (kB). */
export function statusField(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status);
  return m ? Number(m[1]) : 0;
}

function ttyName(ttyNr: number, pid: number): string {
  if (ttyNr === 0) return '?';
  try {
    const link = readlinkSync(`/proc/${pid}/fd/0`);
    if (link.startsWith('/dev/')) return link.slice(5);
  } catch {}
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  return major === 136 ? `pts/${minor}` : major === 4 ? `tty${minor}` : '?';
}

/** One process, or undefined when it is gone (or unreadable). */
export function readProc(pid: number): Proc | undefined {
  try {
    const st = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const argv = raw.split('\0').filter((s, i, a) => s !== '' || i < a.length - 1);
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    return {
      pid: st.pid,
      ppid: st.ppid,
      uid,
      state: st.state,
      pgrp: st.pgrp,
      session: st.session,
      tpgid: st.tpgid,
      comm: st.comm,
      cmdline: argv.length ? argv.join(' ') : `[${st.comm}]`,
      utime: st.utime,
      stime: st.stime,
      starttime: st.starttime,
      priority: st.priority,
      nice: st.nice,
      threads: st.threads,
      vszKb: Math.round(st.vsize / 1024),
      rssKb: statusField(status, 'VmRSS'),
      shrKb: statusField(status, 'RssFile') + statusField(status, 'RssShmem'),
      tty: ttyName(st.ttyNr, pid),
    };
  } catch {
    return undefined;
  }
}

export function allProcs(): Proc[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => readProc(Number(n)))
    .filter((p): p is Proc => p !== undefined)
    .sort((a, b) => a.pid - b.pid);
}

/** A process and all its descendants, in pid order (a unit's cgroup, as systemctl lists it). */
export function treeOf(root: number, procs: Proc[]): Proc[] {
  const byParent = new Map<number, Proc[]>();
  for (const p of procs) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const walk = (pid: number) => {
    const p = procs.find((x) => x.pid === pid);
    if (!p) return;
    out.push(p);
    for (const c of byParent.get(pid) ?? []) walk(c.pid);
  };
  walk(root);
  return out.sort((a, b) => a.pid - b.pid);
}

/** The node's processes: all of /proc, or (local runner) its units' process trees; `shims`: the shim host's row as its shims' (shim-ps.ts). */
export function nodeProcs(env: NodeEnv, shims = true): Proc[] {
  const procs = allProcs();
  const expand = (list: Proc[]) => (shims ? withContainerProcs(list, bootTime) : list);
  if (!env.unitProcessesOnly) return expand(procs);
  const units = listUnitStates(env.root);
  const mains = units.map((s) => s.mainPid).filter((pid) => pid > 0 && pidAlive(pid));
  // The rest of each unit's cgroup: daemons that left the main process's tree (containerd's shims).
  const members = units.flatMap((s) => readCgroupProcs(cgroupProcsPath(env.root, s.unit)));
  const seen = new Set<number>();
  return expand(
    [...mains, ...members]
      .flatMap((pid) => treeOf(pid, procs))
      .filter((p) => !seen.has(p.pid) && seen.add(p.pid))
      .sort((a, b) => a.pid - b.pid),
  );
}

/** uid → user name from the passwd file (the processes are real, so is their owner). */
export function userNames(passwd = '/etc/passwd'): Map<number, string> {
  const m = new Map<number, string>();
  try {
    for (const line of readFileSync(passwd, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length > 2) m.set(Number(f[2]), f[0]!);
    }
  } catch {}
  return m;
}

/** The boot time, seconds since the epoch (/proc/stat's btime). */
export function bootTime(): number {
  return Number(/^btime (\d+)/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? 0);
}

/** Seconds since boot (/proc/uptime). */
export function uptimeSeconds(): number {
  return Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
}
