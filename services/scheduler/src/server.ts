// The kube-scheduler process around the Scheduler (cmd/kube-scheduler/app):
// clientset, informers, event broadcaster, health/metrics endpoints on the
// HTTPS secure port behind delegated authentication and authorization, and
// leader election on a Lease before the loop runs.

import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  createClientset,
  newEventBroadcaster,
  prometheusLeaderElectionMetrics,
  runWhenLeading,
  SharedInformerFactory,
  type ClientTls,
  type Clientset,
  type EventRecorder,
  type LeaderElectionOptions,
  type Leading,
  registerClientMetrics,
} from '@kubelab/client';
import { createLogger, DEFAULT_APISERVER_GRPC_ADDRESS, newMetricsRegistry, serveSecurePort, type SecurePort, type Logger, type SecurePortConfig } from '@kubelab/component-base';
import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { grpcClientInterceptors, type Tracing } from '@kubelab/tracing';
import { defaultProfile, type Profile } from './framework/profile.js';
import { newSchedulerMetrics } from './metrics.js';
import { informerVolumeListers } from './plugins/volume-binding/listers.js';
import { Scheduler } from './scheduler.js';

export interface StartSchedulerOptions extends LeaderElectionOptions {
  /** The apiserver's gRPC address (host:port); default 127.0.0.1:6444. */
  apiserverAddress?: string;
  /** Mutual TLS to the apiserver (from --kubeconfig); absent: a plain connection. */
  apiserverTls?: ClientTls;
  /** Use this clientset instead of dialling apiserverAddress. */
  clientset?: Clientset;
  bindAddress?: string;
  /** Health/metrics HTTPS port (default 10259; 0 = a free port). */
  securePort?: number;
  /** The secure port's certificate and delegated auth (default: a self-signed pair in memory, the apiserver's CA as client CA, upstream's always-allowed paths). */
  secureServing?: SecurePortConfig;
  /** --authentication-kubeconfig and --authorization-kubeconfig when not --kubeconfig: the reviews' own connections. */
  authenticationTls?: ClientTls;
  authorizationTls?: ClientTls;
  profiles?: Profile[];
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  /** Receives each scheduling cycle's decision record (main.ts publishes them on NATS). */
  decisions?: (rec: SchedulingDecisionRecord) => void;
  /** Whether records are wanted now (the NATS connection is up). */
  decisionsActive?: () => boolean;
  /** CLIENT spans for API calls; a pod's binding continues the pod's trace (off when absent or disabled). */
  tracing?: Tracing;
  logger?: Logger;
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
  const tracing = opts.tracing?.enabled ? opts.tracing : undefined;
  const cs =
    opts.clientset ??
    createClientset({
      address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS,
      component: 'kube-scheduler',
      ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
      ...(tracing ? { interceptors: grpcClientInterceptors(tracing) } : {}),
    });
  // Upstream's leaderElectionClient (user agent ".../leader-election"): a connection of its own, so a renewal does not
  // queue behind the scheduler's binds and events on one HTTP/2 connection (grpc-js pools channels by their options).
  const leaderCs = ownClient
    ? createClientset({
        address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS,
        userAgent: 'kube-scheduler/kubelab/leader-election',
        ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
      })
    : cs;
  const registry = newMetricsRegistry();
  registerClientMetrics(registry);
  const metrics = newSchedulerMetrics(registry);
  const broadcaster = newEventBroadcaster(cs, { logger: log });
  const recorders = new Map<string, EventRecorder>();
  const recorderFor = (name: string) => {
    let r = recorders.get(name);
    if (!r) recorders.set(name, (r = broadcaster.newRecorder({ component: name })));
    return r;
  };
  const factory = new SharedInformerFactory(cs, { logger: log });
  const claims = factory.core.persistentVolumeClaims();
  const volumes = factory.core.persistentVolumes();
  const classes = factory.storage.storageClasses();
  const pdbLister = factory.policy.podDisruptionBudgets().lister();
  const scheduler = new Scheduler({
    volumes: informerVolumeListers(claims, volumes, classes),
    clientset: cs,
    podDisruptionBudgets: () => pdbLister.list(),
    recorderFor,
    logger: log,
    metrics,
    profiles: opts.profiles ?? [defaultProfile()],
    ...(opts.podInitialBackoffMs !== undefined ? { podInitialBackoffMs: opts.podInitialBackoffMs } : {}),
    ...(opts.podMaxBackoffMs !== undefined ? { podMaxBackoffMs: opts.podMaxBackoffMs } : {}),
    ...(opts.decisions ? { decisions: opts.decisions } : {}),
    ...(opts.decisionsActive ? { decisionsActive: opts.decisionsActive } : {}),
  });

  const pods = factory.core.pods();
  const nodes = factory.core.nodes();
  scheduler.addAllEventHandlers(pods, nodes);
  scheduler.addVolumeEventHandlers(claims, volumes, classes);

  const stopAll = new AbortController();
  let synced = false;

  let health: SecurePort;
  try {
    // The reviews go through their kubeconfig's connection, else the component's own.
    health = await serveSecurePort({
      pairName: 'kube-scheduler',
      bindAddress: opts.bindAddress ?? '0.0.0.0',
      port: opts.securePort ?? 10259,
      config: opts.secureServing ?? {},
      authenticationTls: opts.authenticationTls,
      authorizationTls: opts.authorizationTls,
      apiserverTls: opts.apiserverTls,
      connect: (tls) => createClientset({ address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS, component: 'kube-scheduler', tls }),
      own: cs,
      checks: { metrics: registry, livez: { ping: () => true }, readyz: { 'sched-handler-sync': () => synced } },
      onRefused: (r) => log.debug('secure port request refused', r),
    });
  } catch (err) {
    if (ownClient) cs.close();
    if (ownClient) leaderCs.close();
    await broadcaster.shutdown();
    throw err;
  }

  factory.start();
  // Upstream syncs the caches before campaigning, then schedules only while leading.
  let leading: Leading | undefined;
  const main = (async () => {
    await factory.waitForCacheSync(stopAll.signal);
    if (stopAll.signal.aborted) return;
    synced = true;
    log.info('caches synced', { nodes: scheduler.cache.nodeCount() });
    leading = runWhenLeading(
      { ...opts, clientset: leaderCs, component: 'kube-scheduler', identity, logger: log, leaderMetrics: prometheusLeaderElectionMetrics(registry), run: (signal) => scheduler.run(signal) },
      stopAll.signal,
    );
    await leading.done;
  })().catch((err) => log.error('scheduler failed', { err }));

  return {
    healthPort: health.port,
    identity,
    scheduler,
    isLeader: () => leading?.isLeader() ?? false,
    async stop() {
      stopAll.abort();
      await main;
      await factory.shutdown();
      await broadcaster.drainAndShutdown();
      await health.close();
      if (ownClient) cs.close();
      if (ownClient) leaderCs.close();
    },
  };
}
