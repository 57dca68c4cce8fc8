// One interface over the three backends: render (pure), probe whether the
// kernel can take the rules, apply them in one step, and read back what the
// kernel holds — the `/rules` text in the mode's native form.

import { existsSync } from 'node:fs';
import type { ProxyMode } from '../config.js';
import { mustRun, type CommandRunner } from './exec.js';
import { renderIptables, type IptablesRuleset } from './iptables/renderer.js';
import { formatSaveRule, toIptablesSave } from './iptables/save.js';
import { parseRuleArgs } from './iptables/parse.js';
import { renderIpvs, toIpvsCommands, toIpvsadmList, type IpvsRuleset } from './ipvs/renderer.js';
import { toNftList, toNftScript, type NftRuleset } from './nftables/model.js';
import { KUBE_PROXY_TABLE, renderNftables } from './nftables/renderer.js';
import type { ProxyConfig, ProxySnapshot } from './types.js';

export interface Rendered {
  mode: ProxyMode;
  /** The ruleset in the mode's native listing form (iptables-save / nft list ruleset / ipvsadm -Ln). */
  text: string;
  /** What apply feeds the kernel (restore input, nft script, or the ip/ipvsadm commands). */
  script: string;
  ruleCount: number;
  /** Per-table counts (iptables). */
  detail?: Record<string, number>;
}

export interface Backend {
  readonly mode: ProxyMode;
  /** Undefined when rules can be applied; otherwise why not (logged once). */
  probe(runner: CommandRunner): Promise<string | undefined>;
  render(snap: ProxySnapshot, cfg: ProxyConfig): Rendered;
  /** Renders against the kernel's current state and applies atomically; returns what was rendered. */
  apply(runner: CommandRunner, snap: ProxySnapshot, cfg: ProxyConfig): Promise<Rendered>;
  /** What the kernel holds now, in native form. */
  readBack(runner: CommandRunner): Promise<string>;
}

async function probeCommand(runner: CommandRunner, argv: string[]): Promise<string | undefined> {
  const r = await runner.run(argv);
  if (r.code === 0) return undefined;
  return `\`${argv.join(' ')}\` failed (${(r.stderr || r.stdout).trim().split('\n')[0] || `exit ${r.code}`}): no NET_ADMIN in this network namespace?`;
}

function iptablesRendered(rs: IptablesRuleset): Rendered {
  return {
    mode: 'iptables',
    text: toIptablesSave(rs),
    script: rs.restore,
    ruleCount: rs.ruleCount.filter + rs.ruleCount.nat,
    detail: { filter: rs.ruleCount.filter, nat: rs.ruleCount.nat },
  };
}

export const iptablesBackend: Backend = {
  mode: 'iptables',
  probe: (runner) => probeCommand(runner, ['iptables-save', '-t', 'nat']),
  render: (snap, cfg) => iptablesRendered(renderIptables(snap, cfg)),
  async apply(runner, snap, cfg) {
    const existing: Record<string, string> = {
      nat: await mustRun(runner, ['iptables-save', '-t', 'nat']),
      filter: await mustRun(runner, ['iptables-save', '-t', 'filter']),
    };
    const chains = existing.nat!
      .split('\n')
      .filter((l) => l.startsWith(':'))
      .map((l) => l.slice(1).split(' ')[0]!);
    const rs = renderIptables(snap, cfg, { existingNatChains: chains });
    // One restore for both tables: all of kube-proxy's chains change together.
    await mustRun(runner, ['iptables-restore', '--noflush', '--counters'], rs.restore);
    // The jumps from built-in chains are ensured after the chains exist (EnsureRule:
    // prepend when missing). Presence is read from the saved tables: one
    // `iptables -C` per jump would re-read a large table every time.
    const present = (table: string) => new Set(existing[table]!.split('\n'));
    const have = { nat: present('nat'), filter: present('filter') };
    for (const j of rs.jumps) {
      if (have[j.table].has(formatSaveRule(parseRuleArgs(j.chain, j.args)))) continue;
      await mustRun(runner, ['iptables', '-w', '-t', j.table, '-I', j.chain, ...j.args]);
    }
    return iptablesRendered(rs);
  },
  async readBack(runner) {
    return (await mustRun(runner, ['iptables-save', '-t', 'filter'])) + (await mustRun(runner, ['iptables-save', '-t', 'nat']));
  },
};

function nftRendered(rs: NftRuleset): Rendered {
  return { mode: 'nftables', text: toNftList(rs), script: toNftScript(rs), ruleCount: rs.ruleCount };
}

export const nftablesBackend: Backend = {
  mode: 'nftables',
  probe: (runner) => probeCommand(runner, ['nft', 'list', 'tables']),
  render: (snap, cfg) => nftRendered(renderNftables(snap, cfg)),
  async apply(runner, snap, cfg) {
    const r = nftRendered(renderNftables(snap, cfg));
    // The script replaces the whole table in a single nft transaction.
    await mustRun(runner, ['nft', '-f', '-'], r.script);
    return r;
  },
  readBack: (runner) => mustRun(runner, ['nft', 'list', 'table', 'ip', KUBE_PROXY_TABLE]),
};

function ipvsRendered(rs: IpvsRuleset): Rendered {
  return {
    mode: 'ipvs',
    text: toIpvsadmList(rs),
    script: toIpvsCommands(rs).map((c) => c.join(' ')).join('\n') + '\n',
    ruleCount: rs.ruleCount,
  };
}

export const ipvsBackend: Backend = {
  mode: 'ipvs',
  async probe(runner) {
    if (!existsSync('/proc/net/ip_vs')) return 'IPVS is not available in this kernel (/proc/net/ip_vs is missing; modprobe ip_vs needs a kernel with IPVS)';
    return probeCommand(runner, ['ipvsadm', '-Ln']);
  },
  render: (snap, cfg) => ipvsRendered(renderIpvs(snap, cfg)),
  async apply(runner, snap, cfg) {
    const rs = renderIpvs(snap, cfg);
    const r = ipvsRendered(rs);
    for (const cmd of toIpvsCommands(rs)) {
      const res = await runner.run(cmd);
      // The dummy interface and its addresses survive from the previous sync.
      if (res.code !== 0 && !/File exists/.test(res.stderr)) await mustRun(runner, cmd);
    }
    return r;
  },
  readBack: (runner) => mustRun(runner, ['ipvsadm', '-Ln']),
};

export function backendFor(mode: ProxyMode): Backend {
  return mode === 'nftables' ? nftablesBackend : mode === 'ipvs' ? ipvsBackend : iptablesBackend;
}
