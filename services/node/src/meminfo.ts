// free and uptime: procps's layouts over /proc/meminfo, /proc/uptime,
// /proc/loadavg and utmp. The node's kernel is the host's (local runner) or
// the Docker host's (compose), as in a kind node.

import { readFileSync } from 'node:fs';
import { faultedMeminfo, readNodeFaults } from '@kubelab/systemd';
import type { Io, NodeEnv, Tool } from './node-env.js';

/** /proc/meminfo's fields in kB. */
export function parseMeminfo(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(\S+):\s+(\d+)/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

export type FreeUnit = 'k' | 'm' | 'g' | 'h' | 'b';

/** `15Gi`, `4.2Gi`, `567Mi` (procps's human scale: one decimal below 10). */
export function humanIec(bytes: number): string {
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${v}B`;
  // "%.1f" when it fits (below 10), else the whole number, truncated.
  return v.toFixed(1).length <= 3 ? `${v.toFixed(1)}${units[i]}` : `${Math.floor(v)}${units[i]}`;
}

/** `free`: procps-ng 4's table (used = total - available). */
export function formatFree(mem: Record<string, number>, unit: FreeUnit): string {
  const show = (kb: number) => {
    if (unit === 'h') return humanIec(kb * 1024);
    if (unit === 'b') return String(kb * 1024);
    if (unit === 'm') return String(Math.floor(kb / 1024));
    if (unit === 'g') return String(Math.floor(kb / 1024 / 1024));
    return String(kb);
  };
  const row = (label: string, cells: number[]) => label.padEnd(8) + cells.map((c) => ` ${show(c).padStart(11)}`).join('');
  const g = (k: string) => mem[k] ?? 0;
  const total = g('MemTotal');
  const available = g('MemAvailable');
  const cache = g('Buffers') + g('Cached') + g('SReclaimable');
  const head = ' '.repeat(8) + ['total', 'used', 'free', 'shared', 'buff/cache', 'available'].map((h) => ` ${h.padStart(11)}`).join('');
  return [head, row('Mem:', [total, total - available, g('MemFree'), g('Shmem'), cache, available]), row('Swap:', [g('SwapTotal'), g('SwapTotal') - g('SwapFree'), g('SwapFree')])].join('\n') + '\n';
}

export const free: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  let unit: FreeUnit = 'k';
  for (const a of argv) {
    const u = { '-k': 'k', '--kibi': 'k', '-m': 'm', '--mebi': 'm', '-g': 'g', '--gibi': 'g', '-h': 'h', '--human': 'h', '-b': 'b', '--bytes': 'b' }[a];
    if (u) unit = u as FreeUnit;
    else if (a === '-w' || a === '--wide' || a === '-t' || a === '--total') continue;
    else {
      io.err(`free: invalid option -- '${a.replace(/^-+/, '')}'\n\nUsage:\n free [options]\n`);
      return 1;
    }
  }
  // Memory a fault took shows here as in the kubelet's memory.available (@kubelab/systemd's node fault state).
  io.out(formatFree(faultedMeminfo(parseMeminfo(readFileSync('/proc/meminfo', 'utf8')), readNodeFaults(env.root)), unit));
  return 0;
};

/** ` 13:33:15 up 3 min,  1 user,  load average: 0.52, 0.58, 0.59` (procps's sprint_uptime). */
export function formatUptime(now: Date, upSeconds: number, users: number, load: [number, number, number]): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  let s = ` ${p2(now.getHours())}:${p2(now.getMinutes())}:${p2(now.getSeconds())} up `;
  const days = Math.floor(upSeconds / 86400);
  if (days) s += `${days} day${days !== 1 ? 's' : ''}, `;
  const minutes = Math.floor(upSeconds / 60) % 60;
  const hours = Math.floor(upSeconds / 3600) % 24;
  s += hours ? `${String(hours).padStart(2)}:${p2(minutes)}, ` : `${minutes} min, `;
  s += `${String(users).padStart(2)} user${users === 1 ? '' : 's'}, `;
  return `${s} load average: ${load.map((l) => l.toFixed(2)).join(', ')}\n`;
}

/** Logged-in users: USER_PROCESS records in utmp (384-byte struct utmp, ut_type first). */
export function countUsers(file = '/var/run/utmp'): number {
  try {
    const buf = readFileSync(file);
    let n = 0;
    for (let off = 0; off + 384 <= buf.length; off += 384) if (buf.readInt32LE(off) === 7) n++;
    return n;
  } catch {
    return 0;
  }
}

export function loadAverage(): [number, number, number] {
  const f = readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
  return [f[0] ?? 0, f[1] ?? 0, f[2] ?? 0];
}

export const uptime: Tool = async (argv: string[], io: Io, _env: NodeEnv) => {
  if (argv.length) {
    io.err(`uptime: invalid option -- '${argv[0]!.replace(/^-+/, '')}'\n`);
    return 1;
  }
  const up = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  io.out(formatUptime(io.now?.() ?? new Date(), up, countUsers(), loadAverage()));
  return 0;
};
