// The nftables backend (upstream pkg/proxy/nftables proxier's sync apply):
// `nft -f` transactions on table ip kube-proxy, fully or only the changed
// services; stale chains flushed, then deleted a second later as upstream.

import { APPLY_BATCH_CHAINS, batchUnits, chunks } from '../batch.js';
import type { ApplyReport, Backend, Rendered, SyncRequest } from '../backend.js';
import { mustRun, probeCommand, type CommandRunner } from '@kubelab/component-base';
import type { ProxyConfig, ProxySnapshot } from '../types.js';
import { toNftList, toNftScript, type NftRuleset, type NftUnit } from './model.js';
import { KUBE_PROXY_TABLE, renderNftables } from './renderer.js';

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
