// node-problem-detector's command line (upstream cmd/options/options.go):
// upstream's flag names and defaults, plus kubelab's apiserver address and
// --kubeconfig identity as every kubelab component takes them.

import { hostname } from 'node:os';
import { apiserverAddressFrom, FlagError, FlagSet, withApiserverFlags } from '@kubelab/component-base';

export function npdFlags() {
  return withApiserverFlags(new FlagSet('node-problem-detector'))
    .stringArray('config.system-log-monitor', [], 'Comma separated configurations for system-log-monitor monitor. Set to config file paths.')
    .stringArray('config.custom-plugin-monitor', [], 'Comma separated configurations for custom-plugin-monitor monitor. Set to config file paths.')
    .bool('enable-k8s-exporter', true, 'Enables reporting to Kubernetes API server.')
    .string('event-namespace', '', 'Namespace for recorded Kubernetes events.')
    .string('apiserver-override', '', 'Custom URI used to connect to Kubernetes ApiServer. This is ignored if --enable-k8s-exporter is false.')
    .duration('apiserver-wait-timeout', 5 * 60_000, 'The timeout on waiting for kube-apiserver to be ready. This is ignored if --enable-k8s-exporter is false.')
    .duration('apiserver-wait-interval', 5000, 'The interval between the checks on the readiness of kube-apiserver. This is ignored if --enable-k8s-exporter is false.')
    .duration('k8s-exporter-heartbeat-period', 5 * 60_000, 'The period at which k8s-exporter does forcibly sync with apiserver.')
    .bool('k8s-exporter-write-events', true, 'Whether to write Kubernetes Event objects with event details.')
    .bool('k8s-exporter-update-node-conditions', true, 'Whether to update Kubernetes Node conditions with event details.')
    .string('hostname-override', '', 'Custom node name used to override hostname')
    .int('port', 20256, 'The port to bind the node problem detector server. Use 0 to disable.')
    .string('address', '127.0.0.1', 'The address to bind the node problem detector server.')
    .int('prometheus-port', 20257, 'The port to bind the Prometheus scrape endpoint. Prometheus exporter is enabled by default at port 20257. Use 0 to disable.')
    .string('prometheus-address', '127.0.0.1', 'The address to bind the Prometheus scrape endpoint.');
}

export interface NpdCommand {
  systemLogMonitors: string[];
  customPluginMonitors: string[];
  nodeName: string;
  /** KUBELAB_NODE_ROOT: where the node's journal and sockets are. */
  nodeRoot: string;
  enableK8sExporter: boolean;
  eventNamespace: string;
  apiserverAddress: string;
  kubeconfig: string;
  apiserverWaitTimeoutMs: number;
  apiserverWaitIntervalMs: number;
  heartbeatPeriodMs: number;
  writeEvents: boolean;
  updateNodeConditions: boolean;
  serverAddress: string;
  serverPort: number;
  prometheusAddress: string;
  prometheusPort: number;
}

/**
 * --apiserver-override is upstream's URI (`https://host:port?inClusterConfig=false&kubeconfig=…`);
 * here its host:port is the apiserver's gRPC address and its `kubeconfig` query the identity.
 */
export function parseApiserverOverride(uri: string): { address?: string; kubeconfig?: string } {
  if (!uri) return {};
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    throw new FlagError(`apiserver-override "${uri}" is not a valid HTTP URI`);
  }
  const kubeconfig = u.searchParams.get('kubeconfig') ?? undefined;
  return { ...(u.host ? { address: u.host } : {}), ...(kubeconfig ? { kubeconfig } : {}) };
}

export function parseNpdCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): NpdCommand {
  const { values: f } = npdFlags().parse(argv, env);
  const systemLogMonitors = f['config.system-log-monitor'];
  const customPluginMonitors = f['config.custom-plugin-monitor'];
  if (systemLogMonitors.length + customPluginMonitors.length === 0) throw new FlagError('No configuration option for any problem daemon is specified.');
  const override = f['enable-k8s-exporter'] ? parseApiserverOverride(f['apiserver-override']) : {};
  return {
    systemLogMonitors,
    customPluginMonitors,
    // SetNodeNameOrDie: --hostname-override, then NODE_NAME (the DaemonSet's downward API), then the host name.
    nodeName: f['hostname-override'] || env.NODE_NAME || env.KUBELAB_NODE_NAME || hostname(),
    nodeRoot: env.KUBELAB_NODE_ROOT || '/',
    enableK8sExporter: f['enable-k8s-exporter'],
    eventNamespace: f['event-namespace'],
    apiserverAddress: override.address ?? apiserverAddressFrom(f),
    kubeconfig: override.kubeconfig ?? f.kubeconfig,
    apiserverWaitTimeoutMs: f['apiserver-wait-timeout'],
    apiserverWaitIntervalMs: f['apiserver-wait-interval'],
    heartbeatPeriodMs: f['k8s-exporter-heartbeat-period'],
    writeEvents: f['k8s-exporter-write-events'],
    updateNodeConditions: f['k8s-exporter-update-node-conditions'],
    serverAddress: f.address,
    serverPort: f.port,
    prometheusAddress: f['prometheus-address'],
    prometheusPort: f['prometheus-port'],
  };
}
