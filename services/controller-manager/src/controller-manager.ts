// kube-controller-manager as a library (cmd/kube-controller-manager/app):
// health and metrics on the HTTPS --secure-port behind delegated
// authentication and authorization, leader election for the whole
// manager on the Lease kube-system/kube-controller-manager, and once
// leading: informers, cache sync, then every enabled controller's workers.

import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  createClientset,
  newEventBroadcaster,
  prometheusLeaderElectionMetrics,
  prometheusWorkqueueMetrics,
  realClock,
  runWhenLeading,
  SharedInformerFactory,
  type ClientTls,
  type Clientset,
  type Clock,
  type EventRecorder,
  type LeaderElectionOptions,
  registerClientMetrics,
} from '@kubelab/client';
import { createLogger, DEFAULT_APISERVER_GRPC_ADDRESS, newMetricsRegistry, serveSecurePort, type SecurePort, type Logger, type SecurePortConfig } from '@kubelab/component-base';
import { grpcClientInterceptors, type Tracing } from '@kubelab/tracing';
import { defaultRegistry } from './controllers/index.js';
import { ServiceAccountClientBuilder } from './util/sa-client-builder.js';
import { newRestClient } from './util/rest-client.js';
import type { ControllerRegistry } from './controllers/registry.js';
import { defaultConfig, type ControllerManagerConfig } from './options.js';
import type { Controller, ControllerContext } from './util/controller.js';

export interface ControllerManagerOptions extends LeaderElectionOptions {
  /** The apiserver's gRPC address (host:port); default 127.0.0.1:6444. */
  apiserverAddress?: string;
  /** Mutual TLS to the apiserver (from --kubeconfig); absent: a plain connection. */
  apiserverTls?: ClientTls;
  /** The apiserver's REST URL (the kubeconfig's server), for the scale subresource and aggregated APIs; with apiserverTls. */
  apiserverUrl?: string;
  /** Use this clientset instead of dialling apiserverAddress. */
  clientset?: Clientset;
  bindAddress?: string;
  /** Health/metrics HTTPS port (default 10257; 0 = a free port). */
  securePort?: number;
  /** The secure port's certificate and delegated auth (default: a self-signed pair in memory, the apiserver's CA as client CA, upstream's always-allowed paths). */
  secureServing?: SecurePortConfig;
  /** --authentication-kubeconfig and --authorization-kubeconfig when not --kubeconfig: the reviews' own connections. */
  authenticationTls?: ClientTls;
  authorizationTls?: ClientTls;
  /** Controller settings (defaults as upstream); partial values override. */
  config?: Partial<ControllerManagerConfig>;
  registry?: ControllerRegistry;
  clock?: Clock;
  /** CLIENT spans for API calls (off when absent or disabled). */
  tracing?: Tracing;
  logger?: Logger;
}

export interface RunningControllerManager {
  healthPort: number;
  identity: string;
  /** Names of the controllers running (once leading). */
  controllers(): string[];
  isLeader(): boolean;
  stop(): Promise<void>;
}

export async function startControllerManager(opts: ControllerManagerOptions = {}): Promise<RunningControllerManager> {
  const log = opts.logger ?? createLogger({ component: 'kube-controller-manager' });
  const config: ControllerManagerConfig = { ...defaultConfig(), ...(opts.config ?? {}) };
  const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
  const clock = opts.clock ?? realClock;
  const registry = opts.registry ?? defaultRegistry();
  const selected = registry.select(config.controllers).filter((d) => d.enabled?.(config) ?? true);
  const ownClient = !opts.clientset;
  const interceptors = opts.tracing?.enabled ? grpcClientInterceptors(opts.tracing) : [];
  const cs =
    opts.clientset ??
    createClientset({
      address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS,
      component: 'kube-controller-manager',
      ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
      ...(interceptors.length ? { interceptors } : {}),
    });
  // Upstream's leaderElectionClient (user agent ".../leader-election"): a connection of its own, so a renewal does not
  // queue behind the controllers' lists and events on one HTTP/2 connection (grpc-js pools channels by their options).
  const leaderCs = ownClient
    ? createClientset({
        address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS,
        userAgent: 'kube-controller-manager/kubelab/leader-election',
        ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
      })
    : cs;
  /** A clientset like the manager's own that authenticates each call with a ServiceAccount token. */
  const serviceAccountClients = () =>
    new ServiceAccountClientBuilder(
      cs,
      (token) =>
        createClientset({
          address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS,
          component: 'kube-controller-manager',
          ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
          ...(interceptors.length ? { interceptors } : {}),
          bearerToken: token,
        }),
      clock,
      log,
    );
  const metrics = newMetricsRegistry();
  registerClientMetrics(metrics);
  const metricsProvider = prometheusWorkqueueMetrics(metrics);
  const broadcaster = newEventBroadcaster(cs, { clock, logger: log });
  const recorders = new Map<string, EventRecorder>();
  const recorder = (component: string) => {
    let r = recorders.get(component);
    if (!r) recorders.set(component, (r = broadcaster.newRecorder({ component })));
    return r;
  };

  const stopAll = new AbortController();
  let synced = false;
  let running: string[] = [];
  let factory: SharedInformerFactory | undefined;

  let health: SecurePort;
  try {
    // The reviews go through their kubeconfig's connection, else the component's own.
    health = await serveSecurePort({
      pairName: 'kube-controller-manager',
      bindAddress: opts.bindAddress ?? '0.0.0.0',
      port: opts.securePort ?? 10257,
      config: opts.secureServing ?? {},
      authenticationTls: opts.authenticationTls,
      authorizationTls: opts.authorizationTls,
      apiserverTls: opts.apiserverTls,
      connect: (tls) => createClientset({ address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS, component: 'kube-controller-manager', tls }),
      own: cs,
      checks: {
        metrics,
        livez: { ping: () => true },
        // A standby is healthy and ready: upstream's readyz does not depend on leading.
        readyz: { 'leader-election': () => true },
      },
      onRefused: (r) => log.debug('secure port request refused', r),
    });
  } catch (err) {
    if (ownClient) cs.close();
    if (ownClient) leaderCs.close();
    await broadcaster.shutdown();
    throw err;
  }

  /** The REST client of a controller: its ServiceAccount's token, else the manager's certificate. */
  const restFor = async (saClients: ServiceAccountClientBuilder | undefined, serviceAccount: string | undefined) => {
    if (!opts.apiserverUrl || !opts.apiserverTls) return undefined;
    const bearerToken = saClients && serviceAccount ? await saClients.tokenFor(serviceAccount) : undefined;
    return newRestClient({ server: opts.apiserverUrl, tls: opts.apiserverTls, ...(bearerToken ? { bearerToken } : {}) });
  };

  /** What a leader does: informers, sync, controllers (StartControllers). */
  const runControllers = async (signal: AbortSignal) => {
    // Every controller listens on this one signal.
    setMaxListeners(100, signal);
    factory = new SharedInformerFactory(cs, { clock, logger: log });
    const ctx: ControllerContext = { clientset: cs, informers: factory, recorder, clock, logger: log, config, metricsProvider };
    // Informers read with the manager's identity; each controller writes with its own (upstream: ClientBuilder).
    const saClients = config.useServiceAccountCredentials ? serviceAccountClients() : undefined;
    signal.addEventListener('abort', () => saClients?.stop(), { once: true });
    const built: Array<{ c: Controller; workers: number }> = [];
    for (const d of selected) {
      try {
        const clientset = saClients && d.serviceAccount ? await saClients.clientFor(d.serviceAccount) : cs;
        const rest = await restFor(saClients, d.serviceAccount);
        built.push({ c: d.create({ ...ctx, clientset, ...(rest ? { rest } : {}) }), workers: d.workers(config) });
      } catch (err) {
        log.error('error starting controller', { controller: d.name, err: (err as Error).message });
      }
    }
    factory.start();
    const result = await factory.waitForCacheSync(signal);
    if (signal.aborted) return;
    synced = Object.values(result).every(Boolean);
    running = built.map((b) => b.c.name);
    log.info('caches synced; starting controllers', { controllers: selected.map((d) => d.name) });
    await Promise.all(built.map((b) => b.c.run(signal, b.workers).catch((err) => log.error('controller stopped', { controller: b.c.name, err: (err as Error).message }))));
  };

  const leading = runWhenLeading(
    { ...opts, clientset: leaderCs, component: 'kube-controller-manager', identity, clock, logger: log, leaderMetrics: prometheusLeaderElectionMetrics(metrics), run: runControllers },
    stopAll.signal,
  );

  return {
    healthPort: health.port,
    identity,
    controllers: () => (synced ? [...running] : []),
    isLeader: () => leading.isLeader(),
    async stop() {
      stopAll.abort();
      await leading.done;
      await factory?.shutdown();
      await broadcaster.drainAndShutdown();
      await health.close();
      if (ownClient) cs.close();
      if (ownClient) leaderCs.close();
    },
  };
}
