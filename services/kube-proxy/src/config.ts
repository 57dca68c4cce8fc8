// KubeProxyConfiguration (kubeproxy.config.k8s.io/v1alpha1): the `--config`
// file and the `config.conf` key of ConfigMap kube-system/kube-proxy, which
// the cluster publishes so `kubectl -n kube-system get cm kube-proxy -o yaml`
// shows the mode, as on a kubeadm cluster.

import { parse as parseYAML } from 'yaml';
import { parseDuration, formatDuration } from '@kubelab/component-base';

export const PROXY_MODES = ['iptables', 'ipvs', 'nftables'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

/** The subset of KubeProxyConfiguration kubelab reads, with defaults applied. */
export interface KubeProxyConfiguration {
  mode: ProxyMode;
  clusterCIDR: string;
  hostnameOverride: string;
  bindAddress: string;
  healthzBindAddress: string;
  metricsBindAddress: string;
  iptables: { masqueradeAll: boolean; masqueradeBit: number; minSyncPeriodMs: number; syncPeriodMs: number; localhostNodePorts: boolean };
  ipvs: { scheduler: string; minSyncPeriodMs: number; syncPeriodMs: number };
  nftables: { masqueradeAll: boolean; masqueradeBit: number; minSyncPeriodMs: number; syncPeriodMs: number };
}

export const CONFIG_API_VERSION = 'kubeproxy.config.k8s.io/v1alpha1';
export const CONFIG_KIND = 'KubeProxyConfiguration';
/** The ConfigMap kubeadm creates, and its key. */
export const CONFIGMAP_NAMESPACE = 'kube-system';
export const CONFIGMAP_NAME = 'kube-proxy';
export const CONFIGMAP_KEY = 'config.conf';

export function defaultKubeProxyConfiguration(): KubeProxyConfiguration {
  return {
    mode: 'iptables',
    clusterCIDR: '10.244.0.0/16',
    hostnameOverride: '',
    bindAddress: '0.0.0.0',
    healthzBindAddress: '0.0.0.0:10256',
    metricsBindAddress: '127.0.0.1:10249',
    iptables: { masqueradeAll: false, masqueradeBit: 14, minSyncPeriodMs: 1000, syncPeriodMs: 30_000, localhostNodePorts: true },
    ipvs: { scheduler: 'rr', minSyncPeriodMs: 0, syncPeriodMs: 30_000 },
    nftables: { masqueradeAll: false, masqueradeBit: 14, minSyncPeriodMs: 1000, syncPeriodMs: 30_000 },
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`KubeProxyConfiguration.${field}: ${message}`);
  }
}

function obj(v: unknown, field: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(field, `Invalid value: must be an object`);
  return v as Record<string, unknown>;
}

function str(o: Record<string, unknown>, k: string, field: string, def: string): string {
  const v = o[k];
  if (v === undefined || v === null || v === '') return def;
  if (typeof v !== 'string') throw new ConfigError(`${field}${k}`, `Invalid value: ${JSON.stringify(v)}: must be a string`);
  return v;
}

function bool(o: Record<string, unknown>, k: string, field: string, def: boolean): boolean {
  const v = o[k];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'boolean') throw new ConfigError(`${field}${k}`, `Invalid value: ${JSON.stringify(v)}: must be a boolean`);
  return v;
}

function int(o: Record<string, unknown>, k: string, field: string, def: number): number {
  const v = o[k];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new ConfigError(`${field}${k}`, `Invalid value: ${JSON.stringify(v)}: must be an integer`);
  return v;
}

/** A metav1.Duration field; `0s` / unset take the default, as upstream's defaulting does. */
function dur(o: Record<string, unknown>, k: string, field: string, def: number): number {
  const v = o[k];
  if (v === undefined || v === null || v === '' || v === '0s' || v === 0) return def;
  if (typeof v !== 'string') throw new ConfigError(`${field}${k}`, `Invalid value: ${JSON.stringify(v)}: must be a duration such as "30s"`);
  try {
    return parseDuration(v);
  } catch (e) {
    throw new ConfigError(`${field}${k}`, `Invalid value: "${v}": ${(e as Error).message}`);
  }
}

/** Parses a KubeProxyConfiguration from YAML or JSON text; errors name the field. */
export function parseKubeProxyConfiguration(text: string): KubeProxyConfiguration {
  let doc: unknown;
  try {
    doc = parseYAML(text);
  } catch (e) {
    throw new ConfigError('', `cannot parse: ${(e as Error).message}`);
  }
  const root = obj(doc, '');
  if (root.apiVersion !== undefined && root.apiVersion !== CONFIG_API_VERSION) {
    throw new ConfigError('apiVersion', `Unsupported value: ${JSON.stringify(root.apiVersion)}: supported values: "${CONFIG_API_VERSION}"`);
  }
  if (root.kind !== undefined && root.kind !== CONFIG_KIND) {
    throw new ConfigError('kind', `Unsupported value: ${JSON.stringify(root.kind)}: supported values: "${CONFIG_KIND}"`);
  }
  const d = defaultKubeProxyConfiguration();
  const mode = str(root, 'mode', '', d.mode);
  if (!(PROXY_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError('mode', `Unsupported value: "${mode}": supported values: ${PROXY_MODES.map((m) => `"${m}"`).join(', ')}`);
  }
  const ipt = obj(root.iptables, 'iptables');
  const ipvs = obj(root.ipvs, 'ipvs');
  const nft = obj(root.nftables, 'nftables');
  const cfg: KubeProxyConfiguration = {
    mode: mode as ProxyMode,
    clusterCIDR: str(root, 'clusterCIDR', '', d.clusterCIDR),
    hostnameOverride: str(root, 'hostnameOverride', '', d.hostnameOverride),
    bindAddress: str(root, 'bindAddress', '', d.bindAddress),
    healthzBindAddress: str(root, 'healthzBindAddress', '', d.healthzBindAddress),
    metricsBindAddress: str(root, 'metricsBindAddress', '', d.metricsBindAddress),
    iptables: {
      masqueradeAll: bool(ipt, 'masqueradeAll', 'iptables.', d.iptables.masqueradeAll),
      masqueradeBit: int(ipt, 'masqueradeBit', 'iptables.', d.iptables.masqueradeBit),
      minSyncPeriodMs: dur(ipt, 'minSyncPeriod', 'iptables.', d.iptables.minSyncPeriodMs),
      syncPeriodMs: dur(ipt, 'syncPeriod', 'iptables.', d.iptables.syncPeriodMs),
      localhostNodePorts: bool(ipt, 'localhostNodePorts', 'iptables.', d.iptables.localhostNodePorts),
    },
    ipvs: {
      scheduler: str(ipvs, 'scheduler', 'ipvs.', d.ipvs.scheduler),
      minSyncPeriodMs: dur(ipvs, 'minSyncPeriod', 'ipvs.', d.ipvs.minSyncPeriodMs),
      syncPeriodMs: dur(ipvs, 'syncPeriod', 'ipvs.', d.ipvs.syncPeriodMs),
    },
    nftables: {
      masqueradeAll: bool(nft, 'masqueradeAll', 'nftables.', d.nftables.masqueradeAll),
      masqueradeBit: int(nft, 'masqueradeBit', 'nftables.', d.nftables.masqueradeBit),
      minSyncPeriodMs: dur(nft, 'minSyncPeriod', 'nftables.', d.nftables.minSyncPeriodMs),
      syncPeriodMs: dur(nft, 'syncPeriod', 'nftables.', d.nftables.syncPeriodMs),
    },
  };
  for (const [f, bit] of [
    ['iptables.masqueradeBit', cfg.iptables.masqueradeBit],
    ['nftables.masqueradeBit', cfg.nftables.masqueradeBit],
  ] as const) {
    if (bit < 0 || bit > 31) throw new ConfigError(f, `Invalid value: ${bit}: must be within the range [0, 31]`);
  }
  if (cfg.iptables.syncPeriodMs <= 0) throw new ConfigError('iptables.syncPeriod', 'Invalid value: must be greater than 0');
  if (cfg.iptables.minSyncPeriodMs > cfg.iptables.syncPeriodMs) {
    throw new ConfigError('iptables.minSyncPeriod', `Invalid value: "${formatDuration(cfg.iptables.minSyncPeriodMs)}": must be less than or equal to iptables.syncPeriod`);
  }
  return cfg;
}

/**
 * The `config.conf` text the cluster publishes in ConfigMap kube-system/kube-proxy:
 * the defaults as kubeadm writes them (keys sorted, durations in Go form).
 */
export function renderKubeProxyConfig(overrides: Partial<Pick<KubeProxyConfiguration, 'mode' | 'clusterCIDR'>> & { scheduler?: string } = {}): string {
  const c = defaultKubeProxyConfiguration();
  const mode = overrides.mode ?? c.mode;
  const clusterCIDR = overrides.clusterCIDR ?? c.clusterCIDR;
  const d = formatDuration;
  return [
    `apiVersion: ${CONFIG_API_VERSION}`,
    `bindAddress: ${c.bindAddress}`,
    'clientConnection:',
    '  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf',
    `clusterCIDR: ${clusterCIDR}`,
    'configSyncPeriod: 15m0s',
    `healthzBindAddress: ${c.healthzBindAddress}`,
    'hostnameOverride: ""',
    'iptables:',
    `  localhostNodePorts: ${c.iptables.localhostNodePorts}`,
    `  masqueradeAll: ${c.iptables.masqueradeAll}`,
    `  masqueradeBit: ${c.iptables.masqueradeBit}`,
    `  minSyncPeriod: ${d(c.iptables.minSyncPeriodMs)}`,
    `  syncPeriod: ${d(c.iptables.syncPeriodMs)}`,
    'ipvs:',
    '  minSyncPeriod: 0s',
    `  scheduler: ${overrides.scheduler ?? c.ipvs.scheduler}`,
    `  syncPeriod: ${d(c.ipvs.syncPeriodMs)}`,
    `kind: ${CONFIG_KIND}`,
    `metricsBindAddress: ${c.metricsBindAddress}`,
    `mode: ${mode}`,
    'nftables:',
    `  masqueradeAll: ${c.nftables.masqueradeAll}`,
    `  masqueradeBit: ${c.nftables.masqueradeBit}`,
    `  minSyncPeriod: ${d(c.nftables.minSyncPeriodMs)}`,
    `  syncPeriod: ${d(c.nftables.syncPeriodMs)}`,
    'nodePortAddresses: null',
    '',
  ].join('\n');
}

/** The ConfigMap object the lead's bootstrap creates (kube-system/kube-proxy, key config.conf). */
export function kubeProxyConfigMap(overrides: Parameters<typeof renderKubeProxyConfig>[0] = {}) {
  return {
    apiVersion: 'v1' as const,
    kind: 'ConfigMap' as const,
    metadata: { namespace: CONFIGMAP_NAMESPACE, name: CONFIGMAP_NAME, labels: { app: 'kube-proxy' } },
    data: { [CONFIGMAP_KEY]: renderKubeProxyConfig(overrides) },
  };
}
