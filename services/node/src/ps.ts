// ps and top over the node's processes (proc.ts), in procps-ng's layouts:
// `ps aux` (BSD columns), `ps -ef [--forest]` (System V columns) and
// `top -bn1` (the summary area and the task table).

import { readFileSync } from 'node:fs';
import { countUsers, formatUptime, loadAverage, parseMeminfo } from './meminfo.js';
import type { Io, NodeEnv, Tool } from './node-env.js';
import { bootTime, CLK_TCK, nodeProcs, uptimeSeconds, userNames, type Proc } from './proc.js';

export interface PsContext {
  now: Date;
  /** Seconds since the epoch the kernel booted. */
  bootTime: number;
  memTotalKb: number;
  users: Map<number, string>;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');

const startDate = (p: Proc, c: PsContext) => new Date((c.bootTime + p.starttime / CLK_TCK) * 1000);
const cpuSeconds = (p: Proc) => Math.floor((p.utime + p.stime) / CLK_TCK);
const user = (p: Proc, c: PsContext) => {
  const name = c.users.get(p.uid) ?? String(p.uid);
  return name.length > 8 ? `${name.slice(0, 7)}+` : name; // procps truncates long names with a +
};

/** START/STIME: `13:30` today, `Nov30` this year, `2025` before. */
export function startText(d: Date, now: Date): string {
  if (d.toDateString() === now.toDateString()) return `${p2(d.getHours())}:${p2(d.getMinutes())}`;
  if (d.getFullYear() === now.getFullYear()) return `${MONTHS[d.getMonth()]}${p2(d.getDate())}`;
  return String(d.getFullYear());
}

/** %CPU: CPU time over the time since the process started, as ps computes it. */
function pcpu(p: Proc, c: PsContext): string {
  const elapsed = c.now.getTime() / 1000 - (c.bootTime + p.starttime / CLK_TCK);
  return elapsed > 0 ? (((p.utime + p.stime) / CLK_TCK / elapsed) * 100).toFixed(1) : '0.0';
}

const pmem = (p: Proc, c: PsContext) => (c.memTotalKb ? ((p.rssKb * 100) / c.memTotalKb).toFixed(1) : '0.0');

/** BSD STAT: the state letter, then < N s l + as procps adds them. */
export function statText(p: Proc): string {
  let s = p.state;
  if (p.nice < 0) s += '<';
  else if (p.nice > 0) s += 'N';
  if (p.session === p.pid) s += 's';
  if (p.threads > 1) s += 'l';
  if (p.tpgid > 0 && p.tpgid === p.pgrp) s += '+';
  return s;
}

/** The command column with --forest's `\_ ` branches; children follow their parent. */
function forestOrder(procs: Proc[]): { p: Proc; prefix: string }[] {
  const pids = new Set(procs.map((p) => p.pid));
  const children = new Map<number, Proc[]>();
  for (const p of procs) if (pids.has(p.ppid) && p.ppid !== 1) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: { p: Proc; prefix: string }[] = [];
  const walk = (p: Proc, depth: number) => {
    out.push({ p, prefix: depth === 0 ? '' : ` ${'    '.repeat(depth - 1)}\\_ ` });
    for (const c of children.get(p.pid) ?? []) walk(c, depth + 1);
  };
  for (const p of procs) if (!pids.has(p.ppid) || p.ppid === 1) walk(p, 0);
  return out;
}

/** `ps aux`. */
export function formatPsAux(procs: Proc[], c: PsContext, forest = false): string {
  const rows = (forest ? forestOrder(procs) : procs.map((p) => ({ p, prefix: '' }))).map(({ p, prefix }) => {
    const t = cpuSeconds(p);
    return [
      user(p, c).padEnd(8),
      String(p.pid).padStart(7),
      pcpu(p, c).padStart(4),
      pmem(p, c).padStart(4),
      String(p.vszKb).padStart(6),
      String(p.rssKb).padStart(5),
      p.tty.padEnd(8),
      statText(p).padEnd(4),
      startText(startDate(p, c), c.now).padEnd(5),
      `${Math.floor(t / 60)}:${p2(t % 60)}`.padStart(6),
      prefix + p.cmdline,
    ].join(' ');
  });
  return ['USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND', ...rows].join('\n') + '\n';
}

/** `ps -ef [--forest]`. */
export function formatPsEf(procs: Proc[], c: PsContext, forest = false): string {
  const rows = (forest ? forestOrder(procs) : procs.map((p) => ({ p, prefix: '' }))).map(({ p, prefix }) => {
    const t = cpuSeconds(p);
    const cpu = Math.min(99, Math.floor(Number(pcpu(p, c))));
    return [
      user(p, c).padEnd(8),
      String(p.pid).padStart(7),
      String(p.ppid).padStart(7),
      String(cpu).padStart(2),
      startText(startDate(p, c), c.now).padEnd(5),
      p.tty.padEnd(8),
      `${p2(Math.floor(t / 3600))}:${p2(Math.floor(t / 60) % 60)}:${p2(t % 60)}`.padStart(8),
      prefix + p.cmdline,
    ].join(' ');
  });
  return ['UID          PID    PPID  C STIME TTY          TIME CMD', ...rows].join('\n') + '\n';
}

/** /proc/stat's first line: the CPU's jiffies since boot. */
export function cpuLine(stat: string): number[] {
  return (stat.split('\n')[0] ?? '').split(/\s+/).slice(1).map(Number);
}

/** `top -bn1`: the summary area (since boot, as top's first frame) and the tasks by %CPU. */
export function formatTop(procs: Proc[], c: PsContext, uptimeLine: string, mem: Record<string, number>, cpu: number[]): string {
  const count = (st: string) => procs.filter((p) => p.state === st).length;
  const sleeping = procs.filter((p) => p.state === 'S' || p.state === 'D' || p.state === 'I').length;
  const stopped = procs.filter((p) => p.state === 'T' || p.state === 't').length;
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0) || 1;
  const pc = (i: number) => ((cpu[i]! * 100) / total).toFixed(1).padStart(4);
  const mib = (kb: number) => (kb / 1024).toFixed(1).padStart(8);
  const g = (k: string) => mem[k] ?? 0;
  const out = [
    `top - ${uptimeLine.trimStart().trimEnd()}`,
    `Tasks: ${String(procs.length).padStart(3)} total, ${String(count('R')).padStart(3)} running, ${String(sleeping).padStart(3)} sleeping, ${String(stopped).padStart(3)} stopped, ${String(count('Z')).padStart(3)} zombie`,
    `%Cpu(s): ${pc(0)} us, ${pc(2)} sy, ${pc(1)} ni, ${pc(3)} id, ${pc(4)} wa, ${pc(5)} hi, ${pc(6)} si, ${pc(7)} st`,
    `MiB Mem : ${mib(g('MemTotal'))} total, ${mib(g('MemFree'))} free, ${mib(g('MemTotal') - g('MemAvailable'))} used, ${mib(g('Buffers') + g('Cached') + g('SReclaimable'))} buff/cache`,
    `MiB Swap: ${mib(g('SwapTotal'))} total, ${mib(g('SwapFree'))} free, ${mib(g('SwapTotal') - g('SwapFree'))} used. ${mib(g('MemAvailable'))} avail Mem`,
    '',
    '    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND',
  ];
  const sorted = [...procs].sort((a, b) => Number(pcpu(b, c)) - Number(pcpu(a, c)) || a.pid - b.pid);
  for (const p of sorted) {
    const hs = Math.floor(((p.utime + p.stime) * 100) / CLK_TCK);
    const time = `${Math.floor(hs / 6000)}:${p2(Math.floor(hs / 100) % 60)}.${p2(hs % 100)}`;
    out.push(
      [
        String(p.pid).padStart(7),
        user(p, c).padEnd(8),
        (p.priority < -99 ? 'rt' : String(p.priority)).padStart(3),
        String(p.nice).padStart(3),
        String(p.vszKb).padStart(7),
        String(p.rssKb).padStart(6),
        String(p.shrKb).padStart(6),
        p.state,
        pcpu(p, c).padStart(5),
        pmem(p, c).padStart(5),
        time.padStart(9),
        p.comm,
      ].join(' '),
    );
  }
  return out.join('\n') + '\n';
}

function context(now: Date): PsContext {
  const mem = parseMeminfo(readFileSync('/proc/meminfo', 'utf8'));
  return { now, bootTime: bootTime(), memTotalKb: mem.MemTotal ?? 0, users: userNames() };
}

export const ps: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  const flags = argv.join(' ');
  const forest = argv.includes('--forest') || /^a?u?x?f$|^auxf$|^faux$/.test(argv[0] ?? '');
  const bsd = argv.some((a) => /^[aux]+f?$/.test(a));
  const sysv = argv.some((a) => /^-[eAf]+$/.test(a));
  if (!bsd && !sysv) {
    io.err(`error: unsupported option list "${flags}" (kubelab's ps shows ps aux, ps -ef and ps -ef --forest)\n\nUsage:\n ps [options]\n`);
    return 1;
  }
  const c = context(io.now?.() ?? new Date());
  const procs = nodeProcs(env);
  io.out(bsd ? formatPsAux(procs, c, forest) : formatPsEf(procs, c, forest));
  return 0;
};

export const top: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  const joined = argv.join(' ');
  if (!/-b/.test(joined) || !/-n\s*1\b|-bn\s*1\b|-bn1\b/.test(joined)) {
    io.err("top: kubelab's top prints one batch frame: top -bn1\n");
    return 1;
  }
  const now = io.now?.() ?? new Date();
  const c = context(now);
  const mem = parseMeminfo(readFileSync('/proc/meminfo', 'utf8'));
  const line = formatUptime(now, uptimeSeconds(), countUsers(), loadAverage());
  io.out(formatTop(nodeProcs(env), c, line, mem, cpuLine(readFileSync('/proc/stat', 'utf8'))));
  return 0;
};
