// How a control-plane binary runs its work (cmd/kube-scheduler and
// cmd/kube-controller-manager): with --leader-elect=false at once; otherwise
// only while holding the Lease <namespace>/<name>, reporting a lost lease
// (upstream exits the process then, so a restart campaigns afresh).

import type { Clientset } from '../clientset/clientset.js';
import type { Clock } from '../util/clock.js';
import { defaultLogger, type ClientLogger } from '../util/logger.js';
import { LeaderElector } from './leaderelection.js';
import type { LeaderMetricsProvider } from './metrics.js';
import { LeaseLock } from './resourcelock.js';

/** What a control-plane component's options say about leader election (its --leader-elect* flags). */
export interface LeaderElectionOptions {
  /** --leader-elect (default true): false runs the work at once, without a Lease. */
  leaderElect?: boolean;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** --leader-elect-resource-name (default the component) and -namespace (default kube-system). */
  resourceName?: string;
  resourceNamespace?: string;
  /** Clear the Lease holder on stop so a standby takes over at once (default true). */
  releaseOnCancel?: boolean;
  /** Leader election identity (default `<hostname>_<uuid>`, as upstream). */
  identity?: string;
  /** Called when leadership is lost without stop() (the process exits upstream). */
  onLeadershipLost?: () => void;
  /** leader_election_master_status{name=<lease name>} (prometheusLeaderElectionMetrics). */
  leaderMetrics?: LeaderMetricsProvider;
}

export interface LeadOptions extends LeaderElectionOptions {
  clientset: Clientset;
  /** The component, e.g. `kube-scheduler`: the elector's name and the default Lease name. */
  component: string;
  /** The Lease holder identity, decided by the caller (it reports it). */
  identity: string;
  clock?: Clock;
  logger?: ClientLogger;
  /** The work a leader does, until signal aborts. */
  run(signal: AbortSignal): Promise<void>;
}

export interface Leading {
  /** Settles once `stop` has aborted and the work has ended. */
  done: Promise<void>;
  /** Whether the work is running (always true without leader election). */
  isLeader(): boolean;
}

/** Runs opts.run as the leader (or at once) until `stop` aborts. */
export function runWhenLeading(opts: LeadOptions, stop: AbortSignal): Leading {
  const log = opts.logger ?? defaultLogger;
  let leading = false;
  let work: Promise<void> = Promise.resolve();
  const start = (signal: AbortSignal) => {
    leading = true;
    work = opts.run(signal).catch((err) => log.error(`${opts.component} failed`, { err }));
  };
  const done = (async () => {
    if (opts.leaderElect === false) {
      start(stop);
      await work;
      return;
    }
    const ns = opts.resourceNamespace ?? 'kube-system';
    const name = opts.resourceName ?? opts.component;
    const elector = new LeaderElector({
      lock: new LeaseLock(opts.clientset.coordination.leases(ns), ns, name, opts.identity),
      leaseDurationMs: opts.leaseDurationMs ?? 15_000,
      renewDeadlineMs: opts.renewDeadlineMs ?? 10_000,
      retryPeriodMs: opts.retryPeriodMs ?? 2_000,
      releaseOnCancel: opts.releaseOnCancel ?? true,
      // Upstream's config.Name is the lease name (kube-scheduler, kube-controller-manager by default).
      name,
      ...(opts.leaderMetrics ? { metrics: opts.leaderMetrics } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
      logger: log,
      callbacks: {
        onStartedLeading: (signal) => {
          log.info('started leading', { identity: opts.identity });
          start(signal);
        },
        onStoppedLeading: () => {
          const was = leading;
          leading = false;
          if (!stop.aborted && was) {
            log.error('leaderelection lost', { identity: opts.identity });
            opts.onLeadershipLost?.();
          }
        },
        onNewLeader: (id) => {
          if (id !== opts.identity) log.info('new leader elected', { leader: id });
        },
      },
    });
    await elector.run(stop);
    await work;
  })().catch((err) => log.error(`${opts.component} failed`, { err }));
  return { done, isLeader: () => leading };
}
