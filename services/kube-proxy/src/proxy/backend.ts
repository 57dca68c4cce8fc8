// One interface over the three backends: render (pure), probe whether the
// kernel can take the rules, apply them, and read back what the kernel
// holds — the `/rules` text in the mode's native form. A backend instance
// remembers what its last successful sync wrote, so later syncs only rewrite
// the services that changed (upstream's partial syncs).

import { existsSync } from 'node:fs';
import type { ProxyMode } from '../config.js';
import { mustRun, type CommandRunner } from './exec.js';
import { KUBE_MARK_MASQ, isServiceChainName } from './iptables/chains.js';
import { restoreInput, renderIptables, type IptablesRuleset, type IptablesUnit } from './iptables/renderer.js';
import { formatSaveRule, toIptablesSave } from './iptables/save.js';
import { parseRuleArgs } from './iptables/parse.js';
import { renderIpvs, toIpvsCommands, toIpvsadmList, type IpvsRuleset } from './ipvs/renderer.js';
import { toNftList, toNftScript, type NftRuleset, type NftUnit } from './nftables/model.js';
import { KUBE_PROXY_TABLE, renderNftables } from './nftables/renderer.js';
import type { ProxyConfig, ProxySnapshot } from './types.js';

export interface Rendered {
  mode: ProxyMode;
  /** The ruleset in the mode's native listing form (iptables-save / nft list ruleset / ipvsadm -Ln); formatted on first use. */
  readonly text: string;
  /** What the full sync feeds the kernel (restore input, nft script, or the ip/ipvsadm commands); built on first use. */
  readonly script: string;
  ruleCount: number;
  /** Per-table counts (iptables). */
  detail?: Record<string, number>;
}

/** What one sync asks of apply (upstream syncProxyRules' tryPartialSync and the changed-service sets). */
export interface SyncRequest {
  /** Rewrite everything: first sync, the periodic full resync (--iptables-sync-period), or after a failure. */
  full: boolean;
  /** `namespace/name` of every Service whose Service object or EndpointSlices changed since the last successful sync. */
  changed: ReadonlySet<string>;
}

/** What an apply did, for logs, metrics and tests. */
export interface ApplyReport {
  full: boolean;
  /** Service-port units whose chains were rewritten. */
  unitsWritten: number;
  /** Kernel transactions run (iptables-restore / nft -f invocations). */
  transactions: number;
  /** Stale service chains deleted (iptables) or flushed for deletion (nftables). */
  staleChains: number;
}

export interface Backend {
  readonly mode: ProxyMode;
  /** Undefined when rules can be applied; otherwise why not (logged once). */
  probe(runner: CommandRunner): Promise<string | undefined>;
  render(snap: ProxySnapshot, cfg: ProxyConfig): Rendered;
  /** Applies the snapshot's ruleset (fully, or only the changed services); returns what was rendered. */
  apply(runner: CommandRunner, snap: ProxySnapshot, cfg: ProxyConfig, req?: SyncRequest): Promise<Rendered>;
  /** What the last apply did. */
  readonly lastApply: ApplyReport | undefined;
  /** What the kernel holds now, in native form. */
  readBack(runner: CommandRunner): Promise<string>;
}

/**
 * Chains one kernel transaction may (re)write. iptables-nft 1.8's
 * `iptables-restore --noflush` keeps the chains a restore names in a sorted
 * linked list (its cache request), so a restore's cost grows with lines ×
 * chains: 110,000 chains in one restore take minutes. nft's per-transaction
 * cost for anonymous verdict maps (`numgen ... vmap`) grows the same way.
 * Larger syncs write service chains in batches of whole services, each
 * batch consistent, and the top-level chains that reference them last.
 */
export const APPLY_BATCH_CHAINS = 2000;

async function probeCommand(runner: CommandRunner, argv: string[]): Promise<string | undefined> {
  const r = await runner.run(argv);
  if (r.code === 0) return undefined;
  return `\`${argv.join(' ')}\` failed (${(r.stderr || r.stdout).trim().split('\n')[0] || `exit ${r.code}`}): no NET_ADMIN in this network namespace?`;
}

/** Splits units into batches of at most `max` chains (a unit larger than that is a batch of its own). */
export function batchUnits<U extends { chains: string[] }>(units: U[], max: number): U[][] {
  const out: U[][] = [];
  let cur: U[] = [];
  let n = 0;
  for (const u of units) {
    if (cur.length > 0 && n + u.chains.length > max) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(u);
    n += u.chains.length;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function byteOrderDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

function iptablesRendered(rs: IptablesRuleset): Rendered {
  let text: string | undefined;
  return {
    mode: 'iptables',
    get text() {
      return (text ??= toIptablesSave(rs));
    },
    get script() {
      return rs.restore;
    },
    ruleCount: rs.ruleCount.filter + rs.ruleCount.nat,
    detail: { filter: rs.ruleCount.filter, nat: rs.ruleCount.nat },
  };
}

/** Chain names declared in iptables-save output. */
function savedChains(save: string): string[] {
  const out: string[] = [];
  for (const l of save.split('\n')) if (l.startsWith(':')) out.push(l.slice(1, l.indexOf(' ')));
  return out;
}

export class IptablesBackend implements Backend {
  readonly mode = 'iptables' as const;
  lastApply: ApplyReport | undefined;
  /** Service chains the last successful sync left in the kernel (undefined: unknown, sync fully). */
  private active: Set<string> | undefined;

  constructor(private readonly batchChains = APPLY_BATCH_CHAINS) {}

  probe(runner: CommandRunner) {
    return probeCommand(runner, ['iptables-save', '-t', 'nat']);
  }

  render(snap: ProxySnapshot, cfg: ProxyConfig): Rendered {
    return iptablesRendered(renderIptables(snap, cfg));
  }

  async apply(runner: CommandRunner, snap: ProxySnapshot, cfg: ProxyConfig, req?: SyncRequest): Promise<Rendered> {
    const full = !req || req.full || this.active === undefined;
    const rs = renderIptables(snap, cfg);
    const active = new Set<string>();
    for (const u of rs.units) for (const c of u.chains) active.add(c);
    let existing: Record<'nat' | 'filter', string> | undefined;
    let stale: string[];
    if (full) {
      // Only a full sync reads the kernel: iptables-save of a large table takes seconds.
      existing = {
        nat: await mustRun(runner, ['iptables-save', '-t', 'nat']),
        filter: await mustRun(runner, ['iptables-save', '-t', 'filter']),
      };
      stale = savedChains(existing.nat).filter((c) => isServiceChainName(c) && !active.has(c));
    } else {
      stale = [...this.active!].filter((c) => !active.has(c));
    }
    const units = full ? rs.units : rs.units.filter((u) => req!.changed.has(u.service));
    // Failing half-way leaves the kernel unknown: the next sync is a full one.
    this.active = undefined;
    const transactions = await this.restore(runner, rs, units, stale);
    if (existing) {
      // The jumps from built-in chains are ensured on full syncs (EnsureRule: prepend when
      // missing); presence is read from the saved tables, not one `iptables -C` per jump.
      const have = { nat: new Set(existing.nat.split('\n')), filter: new Set(existing.filter.split('\n')) };
      for (const j of rs.jumps) {
        if (have[j.table].has(formatSaveRule(parseRuleArgs(j.chain, j.args)))) continue;
        await mustRun(runner, ['iptables', '-w', '-t', j.table, '-I', j.chain, ...j.args]);
      }
    }
    this.active = active;
    this.lastApply = { full, unitsWritten: units.length, transactions, staleChains: stale.length };
    rs.deletedChains = stale;
    return iptablesRendered(rs);
  }

  /** Runs the restore(s); returns how many. */
  private async restore(runner: CommandRunner, rs: IptablesRuleset, units: IptablesUnit[], stale: string[]): Promise<number> {
    const restore = (input: string) => mustRun(runner, ['iptables-restore', '--noflush', '--counters'], input);
    const chains = units.reduce((n, u) => n + u.chains.length, 0);
    if (chains + stale.length <= this.batchChains) {
      // One restore for both tables: all of kube-proxy's chains change together.
      await restore(restoreInput({ filter: rs.filter, natTop: rs.natTop, units }, { stale }));
      return 1;
    }
    let n = 0;
    // Service chains first, whole services per batch; KUBE-MARK-MASQ must exist before they jump to it.
    const markRule = rs.natTop.rules.filter((r) => r.startsWith(`-A ${KUBE_MARK_MASQ} `));
    for (const [i, batch] of batchUnits(units, this.batchChains).entries()) {
      await restore(restoreInput({ units: batch, ...(i === 0 ? { natTop: { chains: [KUBE_MARK_MASQ], rules: markRule } } : {}) }));
      n++;
    }
    // Then the chains that reference them, atomically with the filter table.
    const inline = stale.length <= this.batchChains;
    await restore(restoreInput({ filter: rs.filter, natTop: rs.natTop, units: [] }, { stale: inline ? stale : [] }));
    n++;
    if (!inline) {
      // Now unreferenced: flush them all (names in descending order keep iptables-nft's list
      // insertions at its head), then delete in batches.
      const sorted = [...stale].sort(byteOrderDesc);
      await restore(`*nat\n${sorted.map((c) => `:${c} - [0:0]`).join('\n')}\nCOMMIT\n`);
      n++;
      for (const part of chunks(sorted, this.batchChains)) {
        await restore(`*nat\n${part.map((c) => `-X ${c}`).join('\n')}\nCOMMIT\n`);
        n++;
      }
    }
    return n;
  }

  async readBack(runner: CommandRunner) {
    return (await mustRun(runner, ['iptables-save', '-t', 'filter'])) + (await mustRun(runner, ['iptables-save', '-t', 'nat']));
  }
}

function nftRendered(rs: NftRuleset): Rendered {
  let text: string | undefined;
  let script: string | undefined;
  return {
    mode: 'nftables',
    get text() {
      return (text ??= toNftList(rs));
    },
    get script() {
      return (script ??= toNftScript(rs));
    },
    ruleCount: rs.ruleCount,
  };
}

/** Names of table `ip kube-proxy` in `nft list chains ip` / `nft list sets ip` output (`chain NAME {` / `set NAME {`). */
export function listedNames(text: string, kind: 'chain' | 'set'): string[] {
  const out: string[] = [];
  const prefix = `${kind} `;
  let ours = false;
  for (const raw of text.split('\n')) {
    const l = raw.trim();
    if (l.startsWith('table ')) ours = l === `table ip ${KUBE_PROXY_TABLE} {`;
    else if (ours && l.startsWith(prefix) && l.endsWith('{')) out.push(l.slice(prefix.length, -1).trim());
  }
  return out;
}

/** Upstream waits this long before deleting a flushed chain (kernels before 6.2 notice unreferenced chains late). */
const STALE_CHAIN_DELETE_DELAY_MS = 1000;

export class NftablesBackend implements Backend {
  readonly mode = 'nftables' as const;
  lastApply: ApplyReport | undefined;
  private active: Set<string> | undefined;
  private activeSets = new Map<string, number>();
  /** Flushed chains waiting to be deleted, with when they were flushed (upstream staleChains). */
  private readonly staleChains = new Map<string, number>();

  constructor(
    private readonly batchChains = APPLY_BATCH_CHAINS,
    private readonly now: () => number = Date.now,
  ) {}

  probe(runner: CommandRunner) {
    return probeCommand(runner, ['nft', 'list', 'tables']);
  }

  render(snap: ProxySnapshot, cfg: ProxyConfig): Rendered {
    return nftRendered(renderNftables(snap, cfg));
  }

  async apply(runner: CommandRunner, snap: ProxySnapshot, cfg: ProxyConfig, req?: SyncRequest): Promise<Rendered> {
    const full = !req || req.full || this.active === undefined;
    const t = `ip ${KUBE_PROXY_TABLE}`;
    let transactions = 0;
    // Chains flushed by an earlier sync are unreferenced by now: delete them first.
    const due = [...this.staleChains].filter(([, at]) => this.now() - at >= STALE_CHAIN_DELETE_DELAY_MS).map(([c]) => c);
    for (const part of chunks(due, this.batchChains)) {
      await mustRun(runner, ['nft', '-f', '-'], part.map((c) => `delete chain ${t} ${c}`).join('\n') + '\n');
      for (const c of part) this.staleChains.delete(c);
      transactions++;
    }

    const rs = renderNftables(snap, cfg);
    const setTimeouts = new Map<string, number>();
    for (const s of rs.sets) if (s.name.startsWith('affinity-')) setTimeouts.set(s.name, s.timeout ?? 0);
    const active = new Set<string>();
    for (const u of rs.units) for (const c of u.chains) active.add(c);
    let kernelChains: string[];
    let kernelSets: string[];
    if (full) {
      kernelChains = listedNames(await mustRun(runner, ['nft', 'list', 'chains', 'ip']), 'chain');
      kernelSets = listedNames(await mustRun(runner, ['nft', '-t', 'list', 'sets', 'ip']), 'set');
    } else {
      kernelChains = [...this.active!];
      kernelSets = [...this.activeSets.keys()];
    }
    // Service chains have a '/' in their name; none of the fixed ones do.
    const stale = kernelChains.filter((c) => c.includes('/') && !active.has(c) && !this.staleChains.has(c));
    const staleSets = kernelSets.filter((s) => s.startsWith('affinity-') && !setTimeouts.has(s));
    // A changed sessionAffinity timeout cannot be changed in place: that set starts empty again.
    const recreateSets = new Set([...setTimeouts].filter(([s, timeout]) => this.activeSets.has(s) && this.activeSets.get(s) !== timeout).map(([s]) => s));
    const units = full ? rs.units : rs.units.filter((u) => req!.changed.has(u.service));
    const chainCount = units.reduce((n, u) => n + u.chains.length, 0);
    this.active = undefined;

    const selected = new Set(units.map((u) => u.service));
    if (chainCount <= this.batchChains) {
      await mustRun(runner, ['nft', '-f', '-'], toNftScript(rs, { services: selected, staleChains: stale, staleSets, recreateSets }));
      transactions++;
    } else {
      for (const batch of batchUnits(units, this.batchChains)) {
        const services = new Set(batch.map((u: NftUnit) => u.service));
        await mustRun(runner, ['nft', '-f', '-'], toNftScript(rs, { services, top: false, recreateSets }));
        transactions++;
      }
      await mustRun(runner, ['nft', '-f', '-'], toNftScript(rs, { services: new Set(), staleChains: stale, staleSets }));
      transactions++;
    }
    const flushedAt = this.now();
    for (const c of stale) this.staleChains.set(c, flushedAt);
    this.active = active;
    this.activeSets = setTimeouts;
    this.lastApply = { full, unitsWritten: units.length, transactions, staleChains: stale.length };
    return nftRendered(rs);
  }

  readBack(runner: CommandRunner) {
    return mustRun(runner, ['nft', 'list', 'table', 'ip', KUBE_PROXY_TABLE]);
  }
}

function ipvsRendered(rs: IpvsRuleset): Rendered {
  return {
    mode: 'ipvs',
    text: toIpvsadmList(rs),
    script: toIpvsCommands(rs).map((c) => c.join(' ')).join('\n') + '\n',
    ruleCount: rs.ruleCount,
  };
}

export class IpvsBackend implements Backend {
  readonly mode = 'ipvs' as const;
  lastApply: ApplyReport | undefined;

  async probe(runner: CommandRunner) {
    if (!existsSync('/proc/net/ip_vs')) return 'IPVS is not available in this kernel (/proc/net/ip_vs is missing; modprobe ip_vs needs a kernel with IPVS)';
    return probeCommand(runner, ['ipvsadm', '-Ln']);
  }

  render(snap: ProxySnapshot, cfg: ProxyConfig): Rendered {
    return ipvsRendered(renderIpvs(snap, cfg));
  }

  async apply(runner: CommandRunner, snap: ProxySnapshot, cfg: ProxyConfig): Promise<Rendered> {
    const rs = renderIpvs(snap, cfg);
    const cmds = toIpvsCommands(rs);
    for (const cmd of cmds) {
      const res = await runner.run(cmd);
      // The dummy interface and its addresses survive from the previous sync.
      if (res.code !== 0 && !/File exists/.test(res.stderr)) await mustRun(runner, cmd);
    }
    this.lastApply = { full: true, unitsWritten: rs.virtualServers.length, transactions: cmds.length, staleChains: 0 };
    return ipvsRendered(rs);
  }

  readBack(runner: CommandRunner) {
    return mustRun(runner, ['ipvsadm', '-Ln']);
  }
}

/** A new backend for a mode; it keeps the state partial syncs need, so use one per proxier. */
export function backendFor(mode: ProxyMode, opts: { batchChains?: number } = {}): Backend {
  if (mode === 'nftables') return new NftablesBackend(opts.batchChains);
  if (mode === 'ipvs') return new IpvsBackend();
  return new IptablesBackend(opts.batchChains);
}
