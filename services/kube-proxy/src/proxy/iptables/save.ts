// iptables-save form (what `iptables-save` prints after the kernel took the
// rules): built-in chains first, user chains sorted, rules grouped by chain,
// addresses with a /32, `-p` before the match modules, comments quoted,
// MARK/REJECT/recent/statistic options as the kernel reports them. Render
// mode prints this so it reads exactly like the node's `iptables-save`.

import { parseRestore, parseRuleArgs, type ParsedRule, type ParsedTable } from './parse.js';
import type { IptablesRuleset } from './renderer.js';

const BUILTIN: Record<string, string[]> = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

function addr(a: { neg: boolean; cidr: string }, flag: string): string {
  const cidr = a.cidr.includes('/') ? a.cidr : `${a.cidr}/32`;
  return `${a.neg ? '! ' : ''}${flag} ${cidr}`;
}

/** xtables_save_string: bare when only [A-Za-z0-9_-], otherwise double-quoted. */
function saveString(s: string): string {
  return /^[A-Za-z0-9_-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, '\\$1')}"`;
}

function opt(opts: string[], name: string): string | undefined {
  const i = opts.indexOf(name);
  return i >= 0 ? opts[i + 1] : undefined;
}

function formatModule(m: { name: string; opts: string[] }): string {
  switch (m.name) {
    case 'comment':
      return `-m comment --comment ${saveString(opt(m.opts, '--comment') ?? '')}`;
    case 'statistic': {
      // The kernel keeps the probability as a 31-bit fraction and prints it with 11 decimals.
      const p = Number(opt(m.opts, '--probability'));
      const stored = Math.round(p * 0x80000000) / 0x80000000;
      return `-m statistic --mode random --probability ${stored.toFixed(11)}`;
    }
    case 'recent': {
      const name = opt(m.opts, '--name') ?? 'DEFAULT';
      const mode = m.opts.includes('--set') ? '--set' : '--rcheck';
      const secs = opt(m.opts, '--seconds');
      const parts = [mode, ...(secs ? ['--seconds', secs] : []), ...(m.opts.includes('--reap') ? ['--reap'] : [])];
      return `-m recent ${parts.join(' ')} --name ${name} --mask 255.255.255.255 --rsource`;
    }
    default:
      return [`-m ${m.name}`, ...m.opts].join(' ');
  }
}

function formatTarget(r: ParsedRule): string {
  if (!r.target) return '';
  const o = r.targetOpts;
  if (r.target === 'MARK') {
    const or = opt(o, '--or-mark');
    if (or) return `-j MARK --set-xmark ${or}/${or}`;
    const xor = opt(o, '--xor-mark');
    if (xor) return `-j MARK --set-xmark ${xor}/0x0`;
  }
  if (r.target === 'REJECT' && o.length === 0) return '-j REJECT --reject-with icmp-port-unreachable';
  return ['-j', r.target, ...o].join(' ');
}

/** One rule as `iptables-save` prints it. */
export function formatSaveRule(r: ParsedRule): string {
  const parts = [`-A ${r.chain}`];
  if (r.src) parts.push(addr(r.src, '-s'));
  if (r.dst) parts.push(addr(r.dst, '-d'));
  if (r.proto) parts.push(`-p ${r.proto}`);
  for (const m of r.modules) parts.push(formatModule(m));
  const t = formatTarget(r);
  if (t) parts.push(t);
  return parts.join(' ');
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A table in save form: rules of `extra` (jumps in built-in chains) come first in their chain. */
export function formatSaveTable(t: ParsedTable, jumps: ParsedRule[] = []): string {
  const builtins = BUILTIN[t.name] ?? [];
  const deleted = new Set(t.deleted);
  const user = [...new Set(t.chains.map((c) => c.name).filter((c) => !builtins.includes(c) && !deleted.has(c)))].sort(byteOrder);
  const lines = [`*${t.name}`];
  for (const c of builtins) lines.push(`:${c} ACCEPT [0:0]`);
  for (const c of user) lines.push(`:${c} - [0:0]`);
  const byChain = new Map<string, ParsedRule[]>();
  for (const r of [...jumps, ...t.rules]) {
    const list = byChain.get(r.chain);
    if (list) list.push(r);
    else byChain.set(r.chain, [r]);
  }
  for (const chain of [...builtins, ...user]) for (const r of byChain.get(chain) ?? []) lines.push(formatSaveRule(r));
  lines.push('COMMIT');
  return lines.join('\n');
}

/**
 * The whole ruleset as `iptables-save` would print it after the restore and
 * the jump rules (prepended with -I, so the last jump of a chain comes first).
 */
export function toIptablesSave(rs: IptablesRuleset, header = '# Rendered by kube-proxy (kubelab): iptables-save form'): string {
  const tables = parseRestore(rs.restore);
  const out: string[] = [];
  for (const name of ['filter', 'nat']) {
    const t = tables.get(name);
    if (!t) continue;
    const jumps = rs.jumps
      .filter((j) => j.table === name)
      .map((j) => parseRuleArgs(j.chain, j.args))
      .reverse();
    out.push(header, formatSaveTable(t, jumps));
  }
  return out.join('\n') + '\n';
}

/** Drops `# ...` lines and zeroes counters, so kernel output compares with a rendering. */
export function normalizeSaveOutput(text: string): string {
  return text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.replace(/\[\d+:\d+\]$/, '[0:0]'))
    .join('\n');
}
