// kube-proxy's command line (cmd/kube-proxy/app/options.go): upstream flag
// names and defaults, plus kubelab's apiserver address. With --config the file
// is the base and flags given explicitly override it.

import { readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { apiserverAddressFrom, FlagSet, withApiserverFlags } from '@kubelab/component-base';
import type { NatsTlsFiles } from '@kubelab/nats';
import { addTracingFlags, tracingOptionsFromFlags, type TracingOptions } from '@kubelab/tracing';
import { defaultKubeProxyConfiguration, parseKubeProxyConfiguration, PROXY_MODES, ConfigError, type KubeProxyConfiguration, type ProxyMode } from './config.js';

export function kubeProxyFlags() {
  const d = defaultKubeProxyConfiguration();
  return addTracingFlags(withApiserverFlags(new FlagSet('kube-proxy')))
    .string('config', '', 'The path to the configuration file (KubeProxyConfiguration, YAML or JSON).')
    .string('write-config-to', '', 'If set, write the default configuration values to this file and exit.')
    .string('proxy-mode', '', "Which proxy mode to use: 'iptables', 'ipvs' or 'nftables' (default iptables).")
    .string('hostname-override', '', 'If non-empty, will be used as the name of the Node that kube-proxy is running on.')
    .string('cluster-cidr', d.clusterCIDR, 'The CIDR range of the pods in the cluster; traffic from outside it to a ClusterIP is masqueraded.')
    .string('service-cluster-ip-range', '10.96.0.0/12', 'Service CIDR (nftables drops traffic to unallocated ClusterIPs in it) (kubelab).')
    .string('healthz-bind-address', d.healthzBindAddress, 'The IP address and port for the health check server to serve on.')
    .string('metrics-bind-address', d.metricsBindAddress, 'The IP address and port for the metrics server to serve on.')
    .duration('iptables-min-sync-period', d.iptables.minSyncPeriodMs, 'The minimum period between iptables rule resyncs.')
    .duration('iptables-sync-period', d.iptables.syncPeriodMs, 'An interval how often various re-synchronizing and cleanup operations are performed.')
    .int('iptables-masquerade-bit', d.iptables.masqueradeBit, 'The bit of the fwmark space to mark packets requiring SNAT with.')
    .bool('iptables-localhost-nodeports', d.iptables.localhostNodePorts, 'If false, NodePorts are not accepted on localhost.')
    .bool('masquerade-all', false, 'Masquerade all traffic sent via Service cluster IPs.')
    .string('ipvs-scheduler', d.ipvs.scheduler, 'The ipvs scheduler type when proxy mode is ipvs.')
    .duration('ipvs-min-sync-period', d.ipvs.minSyncPeriodMs, 'The minimum period between IPVS rule resyncs.')
    .duration('ipvs-sync-period', d.ipvs.syncPeriodMs, 'The maximum period between IPVS rule resyncs.')
    .string('apply', 'auto', "'auto' applies rules when the tools work in this network namespace, 'never' only renders them (kubelab).")
    .string('socket-lb-dir', '', "kubelab, local runner: write the Service frontends and their endpoints to services.json here after each sync, for the runtime's connect-time translation.")
    .string('nats-url', '', 'kubelab: NATS server for a record of each rules sync (kubelab.proxy.<node>); empty publishes none.')
    .string('nats-ca-file', '', "kubelab: CA file that signed the NATS server's certificate (the cluster's pki/etcd/ca.crt).")
    .string('nats-cert-file', '', "kubelab: client certificate for NATS (CN kubelab:kube-proxy:<node>: may publish only this node's sync records).")
    .string('nats-key-file', '', 'kubelab: private key of --nats-cert-file.');
}

export interface KubeProxyCommand {
  config: KubeProxyConfiguration;
  nodeName: string;
  apiserverAddress: string;
  /** --kubeconfig: path of the identity to dial the apiserver with ('' = plain). */
  kubeconfig: string;
  serviceCIDR: string;
  apply: 'auto' | 'never';
  /** --socket-lb-dir ('' = none). */
  socketLbDir: string;
  /** --nats-url ('' = no sync records) and the client's TLS files ('' = unset). */
  natsUrl: string;
  natsTlsFiles: NatsTlsFiles;
  nodeIPs: string[];
  writeConfigTo?: string;
  /** --tracing-endpoint / --tracing-sampling-rate-per-million (kubelab; the shared tracing flags). */
  tracing: Pick<TracingOptions, 'endpoint' | 'samplingRatePerMillion'>;
}

/** Whether a flag was given on the command line or in the environment. */
function explicit(argv: string[], env: NodeJS.ProcessEnv, name: string): boolean {
  const envName = `KUBELAB_${name.replace(/[-.]/g, '_').toUpperCase()}`;
  return argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`)) || (env[envName] ?? '') !== '';
}

export function parseKubeProxyCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): KubeProxyCommand {
  const { values: f } = kubeProxyFlags().parse(argv, env);
  const cfg = f.config ? parseKubeProxyConfiguration(readConfig(f.config)) : defaultKubeProxyConfiguration();
  const set = (name: string) => !f.config || explicit(argv, env, name);
  if (f['proxy-mode'] && set('proxy-mode')) {
    if (!(PROXY_MODES as readonly string[]).includes(f['proxy-mode'])) {
      throw new ConfigError('mode', `Unsupported value: "${f['proxy-mode']}": supported values: ${PROXY_MODES.map((m) => `"${m}"`).join(', ')}`);
    }
    cfg.mode = f['proxy-mode'] as ProxyMode;
  }
  if (set('hostname-override') && f['hostname-override']) cfg.hostnameOverride = f['hostname-override'];
  if (set('cluster-cidr')) cfg.clusterCIDR = f['cluster-cidr'];
  if (set('healthz-bind-address')) cfg.healthzBindAddress = f['healthz-bind-address'];
  if (set('metrics-bind-address')) cfg.metricsBindAddress = f['metrics-bind-address'];
  if (set('iptables-min-sync-period')) cfg.iptables.minSyncPeriodMs = cfg.nftables.minSyncPeriodMs = f['iptables-min-sync-period'];
  if (set('iptables-sync-period')) cfg.iptables.syncPeriodMs = cfg.nftables.syncPeriodMs = f['iptables-sync-period'];
  if (set('iptables-masquerade-bit')) cfg.iptables.masqueradeBit = cfg.nftables.masqueradeBit = f['iptables-masquerade-bit'];
  if (set('iptables-localhost-nodeports')) cfg.iptables.localhostNodePorts = f['iptables-localhost-nodeports'];
  if (set('masquerade-all')) cfg.iptables.masqueradeAll = cfg.nftables.masqueradeAll = f['masquerade-all'];
  if (set('ipvs-scheduler')) cfg.ipvs.scheduler = f['ipvs-scheduler'];
  if (set('ipvs-min-sync-period')) cfg.ipvs.minSyncPeriodMs = f['ipvs-min-sync-period'];
  if (set('ipvs-sync-period')) cfg.ipvs.syncPeriodMs = f['ipvs-sync-period'];
  if (f.apply !== 'auto' && f.apply !== 'never') throw new Error(`invalid argument "${f.apply}" for "--apply" flag: want auto or never`);
  return {
    config: cfg,
    nodeName: (cfg.hostnameOverride || hostname()).toLowerCase(),
    apiserverAddress: apiserverAddressFrom(f),
    kubeconfig: f.kubeconfig,
    serviceCIDR: f['service-cluster-ip-range'],
    apply: f.apply,
    socketLbDir: f['socket-lb-dir'],
    natsUrl: f['nats-url'],
    natsTlsFiles: { caFile: f['nats-ca-file'], certFile: f['nats-cert-file'], keyFile: f['nats-key-file'] },
    nodeIPs: localIPv4Addresses(),
    tracing: tracingOptionsFromFlags(f),
    ...(f['write-config-to'] ? { writeConfigTo: f['write-config-to'] } : {}),
  };
}

function readConfig(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read config file "${path}": ${(err as Error).message}`, { cause: err });
  }
}

/** The node's non-loopback IPv4 addresses (where NodePorts are served). */
export function localIPv4Addresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}
