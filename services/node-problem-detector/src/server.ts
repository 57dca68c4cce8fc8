// startNodeProblemDetector (upstream cmd/nodeproblemdetector and
// pkg/problemdetector): loads every monitor's configuration, starts the
// monitors, hands each status to the exporters (the k8s exporter; the
// Prometheus exporter serves problem_counter/problem_gauge on
// --prometheus-port), and serves /healthz and /conditions on --port.

import { createClientset, type ClientTls, type Clientset } from '@kubelab/client';
import { createLogger, newMetricsRegistry, serveHealth, type HealthServer, type Logger } from '@kubelab/component-base';
import { parseCustomPluginConfig, parseSystemLogMonitorConfig, readConfigFile } from './config.js';
import { CustomPluginMonitor } from './custom-plugin-monitor.js';
import { K8sExporter } from './exporter/k8s-exporter.js';
import { ProblemMetrics } from './problem-metrics.js';
import { SystemLogMonitor } from './system-log-monitor.js';
import type { Monitor, Status } from './types.js';

export interface NodeProblemDetectorOptions {
  nodeName: string;
  nodeRoot: string;
  /** The plugins' environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Time since the node booted (default the host's uptime; tests pin it). */
  uptimeMs?: () => number;
  systemLogMonitors: string[];
  customPluginMonitors: string[];
  enableK8sExporter?: boolean;
  apiserverAddress?: string;
  apiserverTls?: ClientTls;
  /** A bearer token per call (the ServiceAccount token a kubeconfig's tokenFile names: a joined node's NPD), with apiserverTls's CA and no client certificate. */
  apiserverBearerToken?: () => string | undefined;
  /** A ready clientset instead of an address (tests). */
  clientset?: Clientset;
  eventNamespace?: string;
  heartbeatPeriodMs?: number;
  writeEvents?: boolean;
  updateNodeConditions?: boolean;
  apiserverWaitTimeoutMs?: number;
  apiserverWaitIntervalMs?: number;
  serverAddress?: string;
  /** 0 disables (upstream); tests pass a free port. */
  serverPort?: number;
  prometheusAddress?: string;
  prometheusPort?: number;
  logger?: Logger;
}

export interface NodeProblemDetectorHandle {
  serverPort?: number;
  prometheusPort?: number;
  exporter?: K8sExporter;
  stop(): Promise<void>;
}

export async function startNodeProblemDetector(opts: NodeProblemDetectorOptions): Promise<NodeProblemDetectorHandle> {
  const logger = opts.logger ?? createLogger({ component: 'node-problem-detector', node: opts.nodeName });
  const registry = newMetricsRegistry();
  const metrics = new ProblemMetrics(registry);
  // Configurations are read before anything starts: a bad file fails the start with upstream's message.
  const shared = { nodeRoot: opts.nodeRoot, metrics, logger, ...(opts.uptimeMs ? { uptimeMs: opts.uptimeMs } : {}) };
  const monitors: Monitor[] = [
    ...opts.systemLogMonitors.map((path) => new SystemLogMonitor({ ...shared, config: parseSystemLogMonitorConfig(readConfigFile(path), path) })),
    ...opts.customPluginMonitors.map((path) => new CustomPluginMonitor({ ...shared, config: parseCustomPluginConfig(readConfigFile(path), path), ...(opts.env ? { env: opts.env } : {}) })),
  ];
  if (monitors.length === 0) throw new Error('No problem daemon is configured');

  const ownClientset = !opts.clientset && opts.enableK8sExporter !== false;
  const clientset =
    opts.clientset ??
    (opts.enableK8sExporter !== false
      ? createClientset({
          address: opts.apiserverAddress ?? '127.0.0.1:6444',
          ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
          ...(opts.apiserverBearerToken ? { bearerToken: opts.apiserverBearerToken } : {}),
          component: 'node-problem-detector',
        })
      : undefined);
  const exporter = clientset
    ? new K8sExporter({
        clientset,
        nodeName: opts.nodeName,
        eventNamespace: opts.eventNamespace ?? '',
        heartbeatPeriodMs: opts.heartbeatPeriodMs ?? 5 * 60_000,
        writeEvents: opts.writeEvents ?? true,
        updateNodeConditions: opts.updateNodeConditions ?? true,
        apiserverWaitTimeoutMs: opts.apiserverWaitTimeoutMs ?? 5 * 60_000,
        apiserverWaitIntervalMs: opts.apiserverWaitIntervalMs ?? 5000,
        logger,
      })
    : undefined;

  const servers: HealthServer[] = [];
  const closeServers = () => Promise.all(servers.map((s) => s.close()));
  let serverPort: number | undefined;
  let prometheusPort: number | undefined;
  try {
    if ((opts.serverPort ?? 20256) > 0 && exporter) {
      const s = await serveHealth({
        host: opts.serverAddress ?? '127.0.0.1',
        port: opts.serverPort ?? 20256,
        routes: {
          '/conditions': (_req, res) => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(exporter.getConditions().map((c) => ({ ...c, transition: new Date(c.transition).toISOString() }))));
          },
        },
      });
      servers.push(s);
      serverPort = s.port;
    }
    if ((opts.prometheusPort ?? 20257) > 0) {
      const s = await serveHealth({ host: opts.prometheusAddress ?? '127.0.0.1', port: opts.prometheusPort ?? 20257, metrics: registry });
      servers.push(s);
      prometheusPort = s.port;
    }
  } catch (err) {
    await closeServers();
    if (ownClientset) clientset?.close();
    throw new Error(`node-problem-detector: cannot listen: ${(err as Error).message}`, { cause: err });
  }

  await exporter?.start();
  const report = (status: Status) => exporter?.exportProblems(status);
  for (const m of monitors) m.start(report);

  let stopped = false;
  return {
    ...(serverPort !== undefined ? { serverPort } : {}),
    ...(prometheusPort !== undefined ? { prometheusPort } : {}),
    ...(exporter ? { exporter } : {}),
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(monitors.map((m) => m.stop()));
      await exporter?.stop();
      if (ownClientset) clientset?.close();
      await closeServers();
    },
  };
}
