// The policy agent's reconcile loop (kube-network-policies' controller):
// informers on Pods, Namespaces and NetworkPolicies ask one bounded-frequency
// runner for a sync of "this node's ruleset"; a sync renders it from the
// listers and, when it changed, applies it in one iptables-restore. Any event
// may change any pod's chain (a label joins a peer set), so the unit of work
// is the node. As upstream's dataplane controller, syncs come at most once a
// second (a burst of pod events is one sync, not one per event: a sync reads
// every pod), a failed one is retried after a second, and one runs every hour
// without any event.

import type { Namespace, NetworkPolicy, Pod } from '@kubelab/api';
import { BoundedFrequencyRunner, type Lister, type RunnerClock } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import { applyRuleset, readBack } from './apply.js';
import type { CommandRunner } from '@kubelab/component-base';
import { decisionInput } from './resolve.js';
import { writePolicyDecisionInput } from './socket-lb.js';
import { renderPolicies, toIptablesSave, type PolicyRuleset } from './render.js';

/** Upstream's runner intervals (pkg/dataplane: minInterval and retryInterval 1 s, maxInterval 1 h). */
export const SYNC_INTERVALS = { minIntervalMs: 1000, retryIntervalMs: 1000, maxIntervalMs: 3_600_000 } as const;

export interface RulesView {
  /** 'kernel' when read back from iptables-save, 'render' in render-only mode. */
  source: 'kernel' | 'render';
  ruleCount: number;
  text(): Promise<string>;
}

export interface PolicyControllerOptions {
  nodeName: string;
  clusterCIDR: string;
  pods: Pick<Lister<Pod>, 'list'>;
  namespaces: Pick<Lister<Namespace>, 'list'>;
  policies: Pick<Lister<NetworkPolicy>, 'list'>;
  /** Where rules are applied; absent: render only (the local runner's nodes share the host's namespace). */
  runner?: CommandRunner;
  logger: Logger;
  /** Where policies.json goes for the local runner's connect hook (socket-lb.ts); absent: not written. */
  socketLbDir?: string;
  /** Observes each sync's render time and rule count (metrics, the benchmark). */
  onSync?: (r: { renderMs: number; applied: boolean; ruleset: PolicyRuleset }) => void;
  /** Time for the runner (tests step a FakeClock). */
  clock?: RunnerClock;
}

export class PolicyController {
  private readonly runner: BoundedFrequencyRunner;
  private last: { text: string; ruleset: PolicyRuleset } | undefined;
  private synced = false;
  private readonly lastDecision = { text: '' };

  constructor(private readonly opts: PolicyControllerOptions) {
    this.runner = new BoundedFrequencyRunner({
      name: 'kube-network-policies',
      ...SYNC_INTERVALS,
      ...(opts.clock ? { clock: opts.clock } : {}),
      fn: async () => {
        await this.sync();
        return true;
      },
      onError: (err) => this.opts.logger.error('Syncing network policy rules failed', { err: err instanceof Error ? err.message : String(err) }),
    });
  }

  /** Informer handlers call this for every change. */
  enqueue(): void {
    if (this.synced) this.runner.run();
  }

  /** Called once every informer has listed: nothing renders from a partial cache. */
  cachesSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.runner.loop();
    this.runner.run();
  }

  /** Renders the node's ruleset and applies it when it differs from the last applied one. */
  async sync(): Promise<void> {
    const t = performance.now();
    const input = { pods: this.opts.pods.list(), namespaces: this.opts.namespaces.list(), policies: this.opts.policies.list() };
    const ruleset = renderPolicies({ nodeName: this.opts.nodeName, clusterCIDR: this.opts.clusterCIDR, ...input });
    const renderMs = performance.now() - t;
    if (this.opts.socketLbDir && writePolicyDecisionInput(this.opts.socketLbDir, decisionInput(input), this.lastDecision)) {
      this.opts.logger.info('Wrote network policy decision input', { dir: this.opts.socketLbDir });
    }
    const text = toIptablesSave(ruleset);
    const changed = this.last?.text !== text;
    if (changed && this.opts.runner) {
      const r = await applyRuleset(this.opts.runner, ruleset);
      this.opts.logger.info('Applied network policy rules', {
        chains: ruleset.chains.length,
        rules: ruleset.ruleCount,
        isolatedIngress: ruleset.isolated.ingress,
        isolatedEgress: ruleset.isolated.egress,
        staleChains: r.stale.length,
      });
    }
    this.last = { text, ruleset };
    this.opts.onSync?.({ renderMs, applied: changed && !!this.opts.runner, ruleset });
  }

  /** The rules for /rules; undefined before the first sync. */
  rules(): RulesView | undefined {
    const last = this.last;
    if (!last) return undefined;
    const runner = this.opts.runner;
    return runner
      ? { source: 'kernel', ruleCount: last.ruleset.ruleCount, text: () => readBack(runner) }
      : { source: 'render', ruleCount: last.ruleset.ruleCount, text: () => Promise.resolve(last.text) };
  }

  /** Resolves once a sync in progress (if any) has finished. */
  idle(): Promise<void> {
    return this.runner.idle();
  }

  /** Stops the runner; resolves once a sync in progress has finished. */
  async stop(): Promise<void> {
    this.runner.stop();
    await this.idle();
  }
}
