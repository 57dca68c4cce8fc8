// A pod's DNS configuration per dnsPolicy (upstream pkg/kubelet/network/dns
// Configurer.GetPodDNS): what the kubelet sends in PodSandboxConfig.dns_config
// and the runtime writes as the containers' /etc/resolv.conf.

import { readFileSync } from 'node:fs';
import type { Pod } from '@kubelab/api';
import type { Recorder } from '../events.js';
import { podRef } from '../events.js';

/** runtime.v1 DNSConfig. */
export interface DNSConfig {
  servers: string[];
  searches: string[];
  options: string[];
}

/** Upstream validation.MaxDNSNameservers, MaxDNSSearchPaths, MaxDNSSearchListChars. */
export const MAX_DNS_NAMESERVERS = 3;
export const MAX_DNS_SEARCH_PATHS = 32;
export const MAX_DNS_SEARCH_LIST_CHARS = 2048;
/** A search path longer than a DNS-1123 subdomain aborts some resolvers (glibc 2.28): dropped. */
const MAX_SEARCH_PATH_LENGTH = 253;

export const REASON_DNS_CONFIG_FORMING = 'DNSConfigForming';
export const REASON_MISSING_CLUSTER_DNS = 'MissingClusterDNS';

/** The node's resolver configuration as resolv.conf(5) says it (upstream parseResolvConf). */
export function parseResolvConf(text: string): DNSConfig {
  const out: DNSConfig = { servers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const [key, ...fields] = line.split(/\s+/);
    if (key === 'nameserver' && fields[0]) out.servers.push(fields[0]);
    // The last search (or domain) line wins; a trailing dot is dropped so one domain counts once.
    if ((key === 'search' || key === 'domain') && fields.length) out.searches = fields.filter((s) => s !== '.').map((s) => s.replace(/\.$/, ''));
    if (key === 'options') out.options.push(...fields);
  }
  return out;
}

const omitDuplicates = (xs: string[]) => [...new Set(xs)];

/** Options of dnsConfig override same-named ones (upstream mergeDNSOptions; insertion order kept). */
export function mergeDNSOptions(existing: string[], extra: { name?: string; value?: string }[]): string[] {
  const byName = new Map<string, string>();
  for (const op of existing) {
    const i = op.indexOf(':');
    if (i < 0) byName.set(op, '');
    else byName.set(op.slice(0, i), op.slice(i + 1));
  }
  for (const op of extra) byName.set(op.name ?? '', op.value ?? '');
  return [...byName].map(([n, v]) => (v ? `${n}:${v}` : n));
}

export interface DNSLimitsResult {
  config: DNSConfig;
  /** Upstream's DNSConfigForming event texts, one per trimmed line. */
  warnings: string[];
}

/** Trims searches and nameservers to upstream's limits (formDNSConfigFitsLimits). */
export function fitLimits(c: DNSConfig): DNSLimitsResult {
  const warnings: string[] = [];
  let searches = c.searches;
  let exceeded = false;
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    searches = searches.slice(0, MAX_DNS_SEARCH_PATHS);
    exceeded = true;
  }
  const short = searches.filter((s) => s.length <= MAX_SEARCH_PATH_LENGTH);
  if (short.length !== searches.length) exceeded = true;
  searches = short;
  const lineLength = searches.join(' ').length;
  if (lineLength > MAX_DNS_SEARCH_LIST_CHARS) {
    // Drop from the end until the line fits.
    let cut = 0;
    let cutLength = 0;
    for (let i = searches.length - 1; i >= 0; i--) {
      cutLength += searches[i]!.length + 1;
      cut++;
      if (lineLength - cutLength <= MAX_DNS_SEARCH_LIST_CHARS) break;
    }
    searches = searches.slice(0, searches.length - cut);
    exceeded = true;
  }
  if (exceeded) warnings.push(`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${searches.join(' ')}`);
  let servers = c.servers;
  if (servers.length > MAX_DNS_NAMESERVERS) {
    servers = servers.slice(0, MAX_DNS_NAMESERVERS);
    warnings.push(`Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${servers.join(' ')}`);
  }
  return { config: { servers, searches, options: c.options }, warnings };
}

export interface DNSSettings {
  /** KubeletConfiguration clusterDNS (--cluster-dns). */
  clusterDNS: string[];
  /** KubeletConfiguration clusterDomain (--cluster-domain). */
  clusterDomain: string;
  /** KubeletConfiguration resolvConf (--resolv-conf): '' means no host DNS. */
  resolvConf: string;
  /** The node's resolv.conf as parsed (from `resolvConf`). */
  host: DNSConfig;
  nodeIPs: string[];
}

export interface PodDNSResult extends DNSLimitsResult {
  /** ClusterFirst without clusterDNS: upstream's MissingClusterDNS text (recorded on the node and the pod). */
  missingClusterDNS?: string;
}

type PodDNSType = 'cluster' | 'host' | 'none';

/** Upstream getPodDNSType: ClusterFirst on the host network falls back to Default. */
function podDNSType(pod: Pod): PodDNSType {
  switch (pod.spec?.dnsPolicy ?? 'ClusterFirst') {
    case 'None':
      return 'none';
    case 'ClusterFirstWithHostNet':
      return 'cluster';
    case 'Default':
      return 'host';
    default:
      return pod.spec?.hostNetwork ? 'host' : 'cluster';
  }
}

/** The pod's DNS configuration (upstream GetPodDNS), a pure function of the pod and the kubelet's settings. */
export function podDNS(pod: Pod, s: DNSSettings): PodDNSResult {
  let config: DNSConfig = { servers: [...s.host.servers], searches: [...s.host.searches], options: [...s.host.options] };
  let missingClusterDNS: string | undefined;
  let type = podDNSType(pod);
  if (type === 'none') config = { servers: [], searches: [], options: [] };
  if (type === 'cluster') {
    if (s.clusterDNS.length) {
      const ns = pod.metadata.namespace ?? 'default';
      const cluster = s.clusterDomain ? [`${ns}.svc.${s.clusterDomain}`, `svc.${s.clusterDomain}`, s.clusterDomain] : [];
      config = { servers: [...s.clusterDNS], searches: omitDuplicates([...cluster, ...s.host.searches]), options: ['ndots:5'] };
    } else {
      missingClusterDNS = `kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.`;
      type = 'host';
    }
  }
  if (type === 'host' && s.resolvConf === '') {
    // No host resolv.conf: the local machine's nameserver, as bind documents for an empty list.
    config.servers = s.nodeIPs.length ? s.nodeIPs.map((ip) => (ip.includes(':') ? '::1' : '127.0.0.1')) : ['127.0.0.1'];
    config.searches = ['.'];
  }
  const extra = pod.spec?.dnsConfig;
  if (extra) {
    config = {
      servers: omitDuplicates([...config.servers, ...(extra.nameservers ?? [])]),
      searches: omitDuplicates([...config.searches, ...(extra.searches ?? [])]),
      options: mergeDNSOptions(config.options, extra.options ?? []),
    };
  }
  return { ...fitLimits(config), ...(missingClusterDNS ? { missingClusterDNS } : {}) };
}

/** podDNS with its events recorded as upstream's Configurer does. */
export function podDNSRecorded(pod: Pod, s: DNSSettings, recorder: Recorder, nodeName: string): DNSConfig {
  const r = podDNS(pod, s);
  if (r.missingClusterDNS) {
    recorder.event({ kind: 'Node', name: nodeName, uid: nodeName }, 'Warning', REASON_MISSING_CLUSTER_DNS, r.missingClusterDNS);
    recorder.event(podRef(pod), 'Warning', REASON_MISSING_CLUSTER_DNS, `pod: "${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})". ${r.missingClusterDNS}`);
  }
  for (const w of r.warnings) recorder.event(podRef(pod), 'Warning', REASON_DNS_CONFIG_FORMING, w);
  return r.config;
}

/** The pod's hostname and domain (upstream GeneratePodHostNameAndDomain): the name cut to 63 characters, and `<subdomain>.<ns>.svc.<clusterDomain>`. */
export function podHostnameAndDomain(pod: Pod, clusterDomain: string): { hostname: string; domain: string } {
  const hostname = pod.spec?.hostname || truncateHostname(pod.metadata.name ?? '');
  const sub = pod.spec?.subdomain;
  const domain = sub && clusterDomain ? `${sub}.${pod.metadata.namespace ?? 'default'}.svc.${clusterDomain}` : '';
  return { hostname, domain };
}

/** Upstream truncatePodHostnameIfNeeded: at most 63 characters, no trailing '-' or '.'. */
function truncateHostname(name: string): string {
  if (name.length <= 63) return name;
  return name.slice(0, 63).replace(/[-.]+$/, '');
}

/** The settings from the kubelet's configuration; the node's resolv.conf is read on each call, as upstream's getHostDNSConfig does. */
export function dnsSettings(c: { clusterDNS?: string[]; clusterDomain?: string; resolvConf?: string; nodeIP: string }): DNSSettings {
  const resolvConf = c.resolvConf ?? '/etc/resolv.conf';
  let host: DNSConfig = { servers: [], searches: [], options: [] };
  if (resolvConf) {
    try {
      host = parseResolvConf(readFileSync(resolvConf, 'utf8'));
    } catch {
      // Upstream fails the pod's sync on an unreadable file; an absent one here means no host DNS.
    }
  }
  return { clusterDNS: c.clusterDNS ?? [], clusterDomain: c.clusterDomain ?? '', resolvConf, host, nodeIPs: c.nodeIP ? [c.nodeIP] : [] };
}
