// startKubeProxy: wires informers (Services, EndpointSlices) to the proxier
// and serves healthz (10256: /healthz, /livez, /rules) and metrics
// (10249: /metrics, /proxyMode, /rules), as cmd/kube-proxy does.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointSlice, Service } from '@kubelab/api';
import { createClientset, SharedInformerFactory, unwrapTombstone, type ClientTls, type Clientset, registerClientMetrics, type RunnerClock } from '@kubelab/client';
import { createLogger, newMetricsRegistry, serveHealth, type HealthServer, type Logger, type Route } from '@kubelab/component-base';
import { grpcClientInterceptors, type Tracing } from '@kubelab/tracing';
import { defaultKubeProxyConfiguration, type KubeProxyConfiguration, type ProxyMode } from './config.js';
import { ProxyHealth } from './health.js';
import { ServiceHealthServer } from './service-health.js';
import { newProxyMetrics } from './metrics.js';
import { publishConfigMap } from './publish-config.js';
import { execRunner } from '@kubelab/component-base';
import { Proxier } from './proxy/proxier.js';
import { defaultProxyConfig, type ProxySnapshot } from './proxy/types.js';
import { serviceFrontends, writeServiceFrontends } from './socket-lb.js';
import { LoopbackNodePorts } from './loopback-nodeports.js';
import type { NatsClientTls } from '@kubelab/nats';
import { natsSyncRecordSink, proxySyncRecord, type SyncRecordSink } from './sync-record.js';

export interface KubeProxyOptions {
  /** The node this proxy runs on (--hostname-override). */
  nodeName: string;
  /** Settings (from --config and flags); defaults when omitted. */
  config?: Partial<KubeProxyConfiguration>;
  /** apiserver gRPC address (kubelab's --apiserver-grpc-address). */
  apiserverAddress?: string;
  /** Mutual TLS to the apiserver (from --kubeconfig); absent: a plain connection. */
  apiserverTls?: ClientTls;
  /** A bearer token per call (a ServiceAccount token from the kubeconfig's tokenFile), with apiserverTls's CA and no client certificate. */
  apiserverBearerToken?: () => string | undefined;
  /** A ready clientset instead of an address (tests). */
  clientset?: Clientset;
  /** The node's own IPs (NodePort virtual servers in ipvs mode). */
  nodeIPs?: string[];
  serviceCIDR?: string;
  /** 'never' renders only, even with NET_ADMIN. */
  apply?: 'auto' | 'never';
  /** Apply inside this network namespace (`ip netns exec`), e.g. a test's own. */
  netns?: string;
  /** The node's socket-LB directory: the Service frontends are written there after each sync (the local runner's data path, socket-lb.ts). */
  socketLbDir?: string;
  /** Publish a record of each sync on kubelab.proxy.<node> here (--nats-url); none when absent. */
  natsUrl?: string;
  /** --nats-ca-file, --nats-cert-file, --nats-key-file as PEM: mutual TLS as kubelab:kube-proxy:<nodeName>. */
  natsTls?: NatsClientTls;
  /** Where sync records go instead of NATS (tests). */
  syncRecords?: SyncRecordSink;
  /** CLIENT spans for API calls (off when absent or disabled). */
  tracing?: Tracing;
  logger?: Logger;
  clock?: RunnerClock;
}

export interface KubeProxyHandle {
  stop(): Promise<void>;
  healthzPort: number;
  metricsPort: number;
  mode: ProxyMode;
  proxier: Proxier;
}

/** `host:port` → parts (port 0 picks a free one). */
export function splitHostPort(addr: string, flag: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  const port = Number(addr.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid ${flag} "${addr}": want host:port`);
  return { host: addr.slice(0, i) || '0.0.0.0', port };
}

function rulesRoute(proxier: Proxier): Route {
  return async (_req: IncomingMessage, res: ServerResponse) => {
    const view = proxier.rules();
    if (!view) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`no ${proxier.backend.mode} rules yet: waiting for the Services and EndpointSlices informers to sync\n`);
      return;
    }
    let text: string;
    try {
      text = await view.text();
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`reading the ${view.mode} rules back from the kernel failed: ${(err as Error).message}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      'x-kubelab-proxy-mode': view.mode,
      'x-kubelab-rules-source': view.source,
      'x-kubelab-rules-count': String(view.ruleCount),
    });
    res.end(text);
  };
}

export async function startKubeProxy(opts: KubeProxyOptions): Promise<KubeProxyHandle> {
  const cfg: KubeProxyConfiguration = { ...defaultKubeProxyConfiguration(), ...opts.config };
  const mode = cfg.mode;
  const logger = opts.logger ?? createLogger({ component: 'kube-proxy', node: opts.nodeName });
  const timing = mode === 'nftables' ? cfg.nftables : mode === 'ipvs' ? { minSyncPeriodMs: cfg.ipvs.minSyncPeriodMs, syncPeriodMs: cfg.ipvs.syncPeriodMs } : cfg.iptables;
  const masq = mode === 'nftables' ? cfg.nftables : cfg.iptables;
  const registry = newMetricsRegistry();
  registerClientMetrics(registry);
  const metrics = newProxyMetrics(registry);
  // Unhealthy once a queued change waited two sync periods (upstream healthTimeout).
  const health = new ProxyHealth(2 * timing.syncPeriodMs);
  // Render-only (the local runner's nodes share the host's namespace) opens no health check ports: no rules stand behind them.
  const serviceHealth = opts.apply === 'never' ? undefined : new ServiceHealthServer({ host: '0.0.0.0', proxyHealthy: () => health.isHealthy().healthy, logger });
  const socketLbDir = opts.socketLbDir;
  const socketLbLast = { text: '' };
  // The host's 127.0.0.1:<nodePort>, shared by the local runner's nodes (loopback-nodeports.ts).
  const loopbackNodePorts = socketLbDir ? new LoopbackNodePorts(socketLbDir, logger) : undefined;
  const programSocketLb = (snap: ProxySnapshot) => {
    loopbackNodePorts?.sync(snap);
    try {
      if (writeServiceFrontends(socketLbDir!, serviceFrontends(snap), socketLbLast)) logger.debug('Wrote the socket-LB service map', { dir: socketLbDir });
    } catch (err) {
      logger.error('Failed to write the socket-LB service map', { dir: socketLbDir, err });
    }
  };
  const records = opts.syncRecords ?? (opts.natsUrl ? natsSyncRecordSink(opts.natsUrl, opts.nodeName, logger, opts.natsTls) : undefined);
  const proxier = new Proxier({
    mode,
    config: defaultProxyConfig({
      nodeName: opts.nodeName,
      nodeIPs: opts.nodeIPs ?? [],
      clusterCIDR: cfg.clusterCIDR,
      ...(opts.serviceCIDR ? { serviceCIDR: opts.serviceCIDR } : {}),
      masqueradeAll: masq.masqueradeAll,
      masqueradeBit: masq.masqueradeBit,
      localhostNodePorts: cfg.iptables.localhostNodePorts,
      ipvsScheduler: cfg.ipvs.scheduler || 'rr',
    }),
    minSyncPeriodMs: timing.minSyncPeriodMs,
    syncPeriodMs: timing.syncPeriodMs,
    runner: execRunner(opts.netns),
    apply: opts.apply ?? 'auto',
    logger,
    metrics,
    health,
    ...(serviceHealth ? { serviceHealth } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(socketLbDir ? { onSynced: (snap: ProxySnapshot) => programSocketLb(snap) } : {}),
    ...(records ? { onSyncResult: (r) => records.publish(proxySyncRecord(opts.nodeName, mode, !!socketLbDir, r)) } : {}),
  });
  logger.info('Using proxy mode', { mode, minSyncPeriod: `${timing.minSyncPeriodMs}ms`, syncPeriod: `${timing.syncPeriodMs}ms` });
  await proxier.probe();

  const rules = rulesRoute(proxier);
  const hz = splitHostPort(cfg.healthzBindAddress, '--healthz-bind-address');
  const mz = splitHostPort(cfg.metricsBindAddress, '--metrics-bind-address');
  const json =
    (r: { status: number; body: string }): Route =>
    (_req, res) => {
      res.writeHead(r.status, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
      res.end(r.body);
    };
  const servers: HealthServer[] = [];
  const stopAll = async () => {
    await Promise.all([...servers.map((s) => s.close()), serviceHealth?.close()]);
  };
  try {
    servers.push(
      await serveHealth({
        host: hz.host,
        port: hz.port,
        routes: {
          '/healthz': (req, res, url) => json(health.healthz())(req, res, url),
          '/livez': (req, res, url) => json(health.livez())(req, res, url),
          '/rules': rules,
        },
      }),
    );
    servers.push(
      await serveHealth({
        host: mz.host,
        port: mz.port,
        metrics: registry,
        routes: {
          '/proxyMode': (_req, res) => {
            res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
            res.end(mode);
          },
          '/rules': rules,
        },
      }),
    );
  } catch (err) {
    await stopAll();
    await records?.close();
    throw new Error(`kube-proxy: cannot listen: ${(err as Error).message}`, { cause: err });
  }

  const clientset =
    opts.clientset ??
    createClientset({
      address: opts.apiserverAddress ?? '127.0.0.1:6444',
      ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
      ...(opts.apiserverBearerToken ? { bearerToken: opts.apiserverBearerToken } : {}),
      component: 'kube-proxy',
      ...(opts.tracing?.enabled ? { interceptors: grpcClientInterceptors(opts.tracing) } : {}),
    });
  const factory = new SharedInformerFactory(clientset, { logger });
  const services = factory.core.services();
  const slices = factory.discovery.endpointSlices();
  services.addEventHandler({
    onAdd: (svc: Service) => proxier.onServiceAdd(svc),
    onUpdate: (old: Service, svc: Service) => proxier.onServiceUpdate(old, svc),
    onDelete: (obj) => proxier.onServiceDelete(unwrapTombstone(obj) as Service),
  });
  slices.addEventHandler({
    onAdd: (s: EndpointSlice) => proxier.onEndpointSliceAdd(s),
    onUpdate: (old: EndpointSlice, s: EndpointSlice) => proxier.onEndpointSliceUpdate(old, s),
    onDelete: (obj) => proxier.onEndpointSliceDelete(unwrapTombstone(obj) as EndpointSlice),
  });
  proxier.start();
  factory.start();
  const abort = new AbortController();
  void publishConfigMap(clientset, cfg, logger, abort.signal);
  // Nothing syncs before both caches are synced (OnServiceSynced / OnEndpointSlicesSynced).
  void services.whenSynced().then(() => !abort.signal.aborted && proxier.onServicesSynced());
  void slices.whenSynced().then(() => !abort.signal.aborted && proxier.onEndpointSlicesSynced());

  let stopped = false;
  return {
    healthzPort: servers[0]!.port,
    metricsPort: servers[1]!.port,
    mode,
    proxier,
    async stop() {
      if (stopped) return;
      stopped = true;
      abort.abort();
      proxier.stop();
      await factory.shutdown();
      await proxier.idle();
      await loopbackNodePorts?.close();
      await records?.close();
      if (!opts.clientset) clientset.close();
      await stopAll();
    },
  };
}
