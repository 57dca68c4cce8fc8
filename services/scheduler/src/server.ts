// The kube-scheduler process around the Scheduler (cmd/kube-scheduler/app):
// clientset, informers, event broadcaster, health/metrics endpoints, and
// leader election on a Lease before the loop runs.

import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { createClientset, LeaderElector, LeaseLock, newEventBroadcaster, SharedInformerFactory, type Clientset, type EventRecorder } from '@kubelab/client';
import { createLogger, newMetricsRegistry, serveHealth, type HealthServer, type Logger } from '@kubelab/component-base';
import { defaultProfile, type Profile } from './framework/profile.js';
import { newSchedulerMetrics } from './metrics.js';
import { DEFAULT_APISERVER_ADDRESS } from './options.js';
import { Scheduler } from './scheduler.js';

export interface StartSchedulerOptions {
  /** The apiserver's gRPC address (host:port); default 127.0.0.1:6444. */
  master?: string;
  /** Use this clientset instead of dialling `master`. */
  clientset?: Clientset;
  bindAddress?: string;
  /** Health/metrics port (default 10259; 0 = a free port). */
  securePort?: number;
  leaderElect?: boolean;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  resourceName?: string;
  resourceNamespace?: string;
  /** Clear the Lease holder on stop() so a standby takes over at once (default true). */
  releaseOnCancel?: boolean;
  /** Leader election identity (default `<hostname>_<uuid>`, as upstream). */
  identity?: string;
  profiles?: Profile[];
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  logger?: Logger;
  /** Called when leadership is lost without stop() (the process exits upstream). */
  onLeadershipLost?: () => void;
}

export interface RunningScheduler {
  healthPort: number;
  identity: string;
  scheduler: Scheduler;
  /** Whether this instance currently holds the lease (always true without leader election once synced). */
  isLeader(): boolean;
  stop(): Promise<void>;
}

export async function startScheduler(opts: StartSchedulerOptions = {}): Promise<RunningScheduler> {
  const log = opts.logger ?? createLogger({ component: 'kube-scheduler' });
  const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
  const ownClient = !opts.clientset;
  const cs = opts.clientset ?? createClientset({ address: opts.master || DEFAULT_APISERVER_ADDRESS, component: 'kube-scheduler' });
  const registry = newMetricsRegistry();
  const metrics = newSchedulerMetrics(registry);
  const broadcaster = newEventBroadcaster(cs);
  broadcaster.startRecordingToSink();
  const recorders = new Map<string, EventRecorder>();
  const recorderFor = (name: string) => {
    let r = recorders.get(name);
    if (!r) recorders.set(name, (r = broadcaster.newRecorder({ component: name })));
    return r;
  };
  const scheduler = new Scheduler({
    clientset: cs,
    recorderFor,
    logger: log,
    metrics,
    profiles: opts.profiles ?? [defaultProfile()],
    ...(opts.podInitialBackoffMs !== undefined ? { podInitialBackoffMs: opts.podInitialBackoffMs } : {}),
    ...(opts.podMaxBackoffMs !== undefined ? { podMaxBackoffMs: opts.podMaxBackoffMs } : {}),
  });

  const factory = new SharedInformerFactory(cs);
  const pods = factory.core.pods();
  const nodes = factory.core.nodes();
  scheduler.addAllEventHandlers(pods, nodes);

  const stopAll = new AbortController();
  let leading = false;
  let synced = false;
  let elector: LeaderElector | undefined;
  const leaderElect = opts.leaderElect ?? true;

  let health: HealthServer;
  try {
    health = await serveHealth({
      host: opts.bindAddress ?? '0.0.0.0',
      port: opts.securePort ?? 10259,
      metrics: registry,
      livez: { ping: () => true },
      readyz: { 'sched-handler-sync': () => synced },
    });
  } catch (err) {
    if (ownClient) cs.close();
    await broadcaster.shutdown();
    throw new Error(`serving health on port ${opts.securePort ?? 10259}: ${(err as Error).message}`, { cause: err });
  }

  factory.start();
  let loop: Promise<void> = Promise.resolve();
  const runLoop = (signal: AbortSignal) => {
    loop = scheduler.run(signal).catch((err) => log.error('scheduler loop failed', { err }));
    return loop;
  };

  const main = (async () => {
    await factory.waitForCacheSync(stopAll.signal);
    if (stopAll.signal.aborted) return;
    synced = true;
    log.info('caches synced', { nodes: scheduler.cache.nodeCount() });
    if (!leaderElect) {
      leading = true;
      await runLoop(stopAll.signal);
      return;
    }
    const ns = opts.resourceNamespace ?? 'kube-system';
    const name = opts.resourceName ?? 'kube-scheduler';
    elector = new LeaderElector({
      lock: new LeaseLock(cs.coordination.leases(ns), ns, name, identity),
      leaseDurationMs: opts.leaseDurationMs ?? 15_000,
      renewDeadlineMs: opts.renewDeadlineMs ?? 10_000,
      retryPeriodMs: opts.retryPeriodMs ?? 2_000,
      releaseOnCancel: opts.releaseOnCancel ?? true,
      name: 'kube-scheduler',
      callbacks: {
        onStartedLeading: (signal) => {
          leading = true;
          log.info('started leading', { identity });
          void runLoop(signal);
        },
        onStoppedLeading: () => {
          const was = leading;
          leading = false;
          if (!stopAll.signal.aborted && was) {
            log.error('leaderelection lost', { identity });
            opts.onLeadershipLost?.();
          }
        },
        onNewLeader: (id) => {
          if (id !== identity) log.info('new leader elected', { leader: id });
        },
      },
    });
    await elector.run(stopAll.signal);
    await loop;
  })().catch((err) => log.error('scheduler failed', { err }));

  return {
    healthPort: health.port,
    identity,
    scheduler,
    isLeader: () => leading,
    async stop() {
      stopAll.abort();
      await main;
      await loop;
      await factory.shutdown();
      // Give queued events a moment to reach the apiserver, never hanging shutdown on them.
      await Promise.race([broadcaster.flush().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
      await broadcaster.shutdown();
      await health.close();
      if (ownClient) cs.close();
    },
  };
}
