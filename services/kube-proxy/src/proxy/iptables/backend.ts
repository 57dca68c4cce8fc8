// The iptables backend (upstream pkg/proxy/iptables proxier's syncProxyRules
// apply half): iptables-restore --noflush of the rendered ruleset, fully or
// only the changed services, stale service chains deleted, and the jumps
// from the built-in chains ensured on full syncs.

import { APPLY_BATCH_CHAINS, batchUnits, chunks } from '../batch.js';
import type { ApplyReport, Backend, Rendered, SyncRequest } from '../backend.js';
import { mustRun, probeCommand, type CommandRunner } from '@kubelab/component-base';
import type { ProxyConfig, ProxySnapshot } from '../types.js';
import { KUBE_MARK_MASQ, isServiceChainName } from './chains.js';
import { parseRuleArgs } from './parse.js';
import { restoreInput, renderIptables, type IptablesRuleset, type IptablesUnit } from './renderer.js';
import { formatSaveRule, toIptablesSave } from './save.js';

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
