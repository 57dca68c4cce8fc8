// What every proxy mode's backend does (upstream: the Provider interface each
// proxier implements): render (pure), probe whether the kernel can take the
// rules, apply them, and read back what the kernel holds — the `/rules` text
// in the mode's native form. A backend instance remembers what its last
// successful sync wrote, so later syncs only rewrite the services that
// changed (upstream's partial syncs). Each mode's backend sits beside its
// renderer (iptables/, nftables/, ipvs/); backends.ts picks one.

import type { ProxyMode } from '../config.js';
import type { CommandRunner } from '@kubelab/component-base';
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
