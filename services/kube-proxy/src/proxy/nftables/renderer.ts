// The nftables backend as a pure function (upstream pkg/proxy/nftables/proxier.go
// setupNFTables + syncProxyRules): snapshot + config → table `ip kube-proxy`.
// Dispatch is by verdict maps (service-ips, service-nodeports) instead of one
// rule per service, which is why this backend scales better than iptables.

import { hashPrefix } from '../hash.js';
import { categorizeEndpoints } from '../endpoints.js';
import { externallyAccessible, masqueradeMark, usesClusterEndpoints, usesLocalEndpoints, type EndpointInfo, type ProxyConfig, type ProxySnapshot, type ServicePortInfo } from '../types.js';
import type { NftChain, NftRuleset, NftSet, NftUnit } from './model.js';

export const KUBE_PROXY_TABLE = 'kube-proxy';

/** hashAndTruncate: 8 base32 chars of sha256(name), a dash, the name. */
function hashAndTruncate(name: string): string {
  const out = `${hashPrefix(name, 8)}-${name}`;
  return out.length > 240 ? `${out.slice(0, 237)}...` : out;
}

/** `HASH-namespace/service/protocol/port`, e.g. `ULMVA6XW-ns1/svc1/tcp/p80`. */
export function servicePortChainNameBase(svc: Pick<ServicePortInfo, 'namespace' | 'service' | 'portName'>, protocol: string): string {
  return hashAndTruncate(`${svc.namespace}/${svc.service}/${protocol}/${svc.portName}`);
}

/** `HASH-namespace/service/protocol/port__ip/port`, e.g. `5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80`. */
export function servicePortEndpointChainNameBase(svc: Pick<ServicePortInfo, 'namespace' | 'service' | 'portName'>, protocol: string, endpoint: string): string {
  const i = endpoint.lastIndexOf(':');
  const ip = endpoint.slice(0, i).replaceAll(':', '.');
  return hashAndTruncate(`${svc.namespace}/${svc.service}/${protocol}/${svc.portName}__${ip}/${endpoint.slice(i + 1)}`);
}

const PRIORITY = { dstnat: -100, srcnat: 100 };

const baseCache = new WeakMap<object, string>();
const endpointBaseCache = new WeakMap<object, { svc: string; name: string }>();

/** The chain-name base of a service port, hashed once per ServicePortInfo (upstream servicePortInfo.nameString et al.). */
function baseNameFor(svc: ServicePortInfo): string {
  let b = baseCache.get(svc);
  if (b === undefined) {
    b = servicePortChainNameBase(svc, svc.protocol.toLowerCase());
    baseCache.set(svc, b);
  }
  return b;
}

/** The endpoint chain-name base, hashed once per EndpointInfo of a service port. */
function endpointBaseFor(svc: ServicePortInfo, ep: EndpointInfo): string {
  const svcBase = baseNameFor(svc);
  const hit = endpointBaseCache.get(ep);
  if (hit && hit.svc === svcBase) return hit.name;
  const name = servicePortEndpointChainNameBase(svc, svc.protocol.toLowerCase(), ep.endpoint);
  endpointBaseCache.set(ep, { svc: svcBase, name });
  return name;
}

export function renderNftables(snap: ProxySnapshot, cfg: ProxyConfig): NftRuleset {
  const mark = masqueradeMark(cfg.masqueradeBit);
  const chains = new Map<string, NftChain>();
  const chain = (name: string, extra: Partial<NftChain> = {}): NftChain => {
    let c = chains.get(name);
    if (!c) {
      c = { name, rules: [], ...extra };
      chains.set(name, c);
    }
    return c;
  };
  const add = (name: string, rule: string, comment?: string) => chain(name).rules.push(comment ? { rule, comment } : { rule });

  // Base chains: filtering runs before DNAT so it sees the service IP.
  chain('filter-prerouting', { base: { type: 'filter', hook: 'prerouting', priority: PRIORITY.dstnat - 10 } });
  chain('filter-input', { base: { type: 'filter', hook: 'input', priority: PRIORITY.dstnat - 10 } });
  chain('filter-forward', { base: { type: 'filter', hook: 'forward', priority: PRIORITY.dstnat - 10 } });
  chain('filter-output', { base: { type: 'filter', hook: 'output', priority: PRIORITY.dstnat - 10 } });
  chain('filter-output-post-dnat', { base: { type: 'filter', hook: 'output', priority: PRIORITY.dstnat + 10 } });
  chain('nat-prerouting', { base: { type: 'nat', hook: 'prerouting', priority: PRIORITY.dstnat } });
  chain('nat-output', { base: { type: 'nat', hook: 'output', priority: PRIORITY.dstnat } });
  chain('nat-postrouting', { base: { type: 'nat', hook: 'postrouting', priority: PRIORITY.srcnat } });

  // Jumps from base chains to the top-level regular chains (nftablesJumpChains).
  for (const [dst, src, extra] of [
    ['nodeport-endpoints-check', 'filter-input', 'ct state new'],
    ['service-endpoints-check', 'filter-input', 'ct state new'],
    ['service-endpoints-check', 'filter-forward', 'ct state new'],
    ['service-endpoints-check', 'filter-output', 'ct state new'],
    ['firewall-check', 'filter-prerouting', 'ct state new'],
    ['firewall-check', 'filter-output', 'ct state new'],
    ['services', 'nat-output', ''],
    ['services', 'nat-prerouting', ''],
    ['masquerading', 'nat-postrouting', ''],
    ['cluster-ips-check', 'filter-forward', 'ct state new'],
    ['cluster-ips-check', 'filter-output-post-dnat', 'ct state new'],
  ] as const) {
    chain(dst);
    add(src, `${extra ? `${extra} ` : ''}jump ${dst}`);
  }
  for (const c of ['services', 'cluster-ips-check', 'masquerading', 'mark-for-masquerade']) chain(c);

  add('mark-for-masquerade', `mark set mark or ${mark}`);
  add('masquerading', `mark and ${mark} == 0 return`);
  add('masquerading', `mark set mark xor ${mark}`);
  add('masquerading', 'masquerade fully-random');

  const set = (kind: NftSet['kind'], name: string, type: string, comment?: string, extra: Partial<NftSet> = {}): NftSet => ({
    kind,
    name,
    type,
    ...(comment ? { comment } : {}),
    elements: [],
    ...extra,
  });
  const clusterIPs = set('set', 'cluster-ips', 'ipv4_addr', 'Active ClusterIPs');
  add('cluster-ips-check', 'ip daddr @cluster-ips reject', 'Reject traffic to invalid ports of ClusterIPs');
  if (cfg.serviceCIDR) add('cluster-ips-check', `ip daddr { ${cfg.serviceCIDR} } drop`, 'Drop traffic to unallocated ClusterIPs');

  const noEndpointServices = set('map', 'no-endpoint-services', 'ipv4_addr . inet_proto . inet_service : verdict', 'vmap to drop or reject packets to services with no endpoints');
  const noEndpointNodePorts = set('map', 'no-endpoint-nodeports', 'inet_proto . inet_service : verdict', 'vmap to drop or reject packets to service nodeports with no endpoints');
  chain('reject-chain', { comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' });
  add('reject-chain', 'reject');
  add('service-endpoints-check', 'ip daddr . meta l4proto . th dport vmap @no-endpoint-services');
  add('nodeport-endpoints-check', 'ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @no-endpoint-nodeports');

  const firewallIPs = set('map', 'firewall-ips', 'ipv4_addr . inet_proto . inet_service : verdict', 'destinations that are subject to LoadBalancerSourceRanges');
  add('firewall-check', 'ip daddr . meta l4proto . th dport vmap @firewall-ips');

  const serviceIPs = set('map', 'service-ips', 'ipv4_addr . inet_proto . inet_service : verdict', 'ClusterIP, ExternalIP and LoadBalancer IP traffic');
  const serviceNodePorts = set('map', 'service-nodeports', 'inet_proto . inet_service : verdict', 'NodePort traffic');
  add('services', 'ip daddr . meta l4proto . th dport vmap @service-ips');
  add('services', 'fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports');

  const sets: NftSet[] = [clusterIPs, noEndpointServices, noEndpointNodePorts, firewallIPs, serviceIPs, serviceNodePorts];
  const seenClusterIPs = new Set<string>();
  let ruleCount = 0;

  const units: NftUnit[] = [];
  const localSaddr = cfg.clusterCIDR ? `ip saddr ${cfg.clusterCIDR}` : '';

  for (const svc of snap.services) {
    const proto = svc.protocol.toLowerCase();
    const base = baseNameFor(svc);
    const clusterChain = `service-${base}`;
    const localChain = `local-${base}`;
    const extChain = `external-${base}`;
    const eps = categorizeEndpoints(svc, snap.endpoints.get(svc.name) ?? []);
    const hasAny = eps.hasAny;
    const internalLocal = svc.internalTrafficPolicy === 'Local';
    const externalLocal = svc.externalTrafficPolicy === 'Local';
    const usesCluster = eps.cluster.length > 0 && usesClusterEndpoints(svc);
    const usesLocal = eps.local.length > 0 && usesLocalEndpoints(svc);
    const internalChain = internalLocal ? localChain : clusterChain;
    const hasInternal = hasAny && !(internalLocal && eps.local.length === 0);
    const externalPolicyChain = externalLocal ? localChain : clusterChain;
    const hasExternal = hasAny && !(externalLocal && eps.local.length === 0);
    const usesExt = hasAny && externallyAccessible(svc);
    // No endpoints anywhere: reject; endpoints only on other nodes under Local policy: drop.
    const internalVerdict = hasAny ? 'drop' : 'goto reject-chain';
    const externalVerdict = internalVerdict;
    const key = (ip: string) => `${ip} . ${proto} . ${svc.port}`;
    const unit: NftUnit = { service: `${svc.namespace}/${svc.service}`, chains: [], sets: [] };
    units.push(unit);
    const unitChain = (name: string) => {
      chain(name);
      unit.chains.push(name);
    };

    if (!seenClusterIPs.has(svc.clusterIP)) {
      seenClusterIPs.add(svc.clusterIP);
      clusterIPs.elements.push({ key: svc.clusterIP });
    }
    if (hasInternal) serviceIPs.elements.push({ key: key(svc.clusterIP), value: `goto ${internalChain}` });
    else noEndpointServices.elements.push({ key: key(svc.clusterIP), value: internalVerdict, comment: svc.name });
    for (const ip of [...svc.externalIPs, ...svc.loadBalancerIPs]) {
      if (hasAny) serviceIPs.elements.push({ key: key(ip), value: `goto ${extChain}` });
      if (!hasExternal) noEndpointServices.elements.push({ key: key(ip), value: externalVerdict, comment: svc.name });
    }
    if (svc.nodePort > 0) {
      if (hasAny) serviceNodePorts.elements.push({ key: `${proto} . ${svc.nodePort}`, value: `goto ${extChain}` });
      if (!hasExternal) noEndpointNodePorts.elements.push({ key: `${proto} . ${svc.nodePort}`, value: externalVerdict, comment: svc.name });
    }
    if (!hasAny) continue;

    const epBases = eps.allReachable.map((ep) => endpointBaseFor(svc, ep));
    const epChainOf = new Map(eps.allReachable.map((ep, i) => [ep.endpoint, `endpoint-${epBases[i]!}`]));
    const affinity = svc.sessionAffinity === 'ClientIP';
    if (usesCluster) unitChain(clusterChain);
    if (usesLocal) unitChain(localChain);
    if (usesExt) unitChain(extChain);
    for (const c of epChainOf.values()) unitChain(c);

    if (hasInternal) {
      if (cfg.masqueradeAll) add(internalChain, `ip daddr ${svc.clusterIP} ${proto} dport ${svc.port} jump mark-for-masquerade`);
      else if (cfg.clusterCIDR) add(internalChain, `ip daddr ${svc.clusterIP} ${proto} dport ${svc.port} ip saddr != ${cfg.clusterCIDR} jump mark-for-masquerade`);
    }
    if (usesExt) {
      if (!externalLocal) {
        // Cluster policy may cross nodes: masquerade so replies come back through this node.
        add(extChain, 'jump mark-for-masquerade');
      } else {
        // Local policy keeps the client's source IP; pods and the node itself short-circuit to all endpoints.
        if (localSaddr) add(extChain, `${localSaddr} goto ${clusterChain}`, 'short-circuit pod traffic');
        add(extChain, 'fib saddr type local jump mark-for-masquerade', 'masquerade local traffic');
        add(extChain, `fib saddr type local goto ${clusterChain}`, 'short-circuit local traffic');
      }
      if (hasExternal) add(extChain, `goto ${externalPolicyChain}`);
    }
    if (affinity) {
      // One timed set per endpoint remembers recent clients (the iptables `recent` list); kept across syncs.
      for (const b of epBases) {
        sets.push(set('set', `affinity-${b}`, 'ipv4_addr', undefined, { flags: ['dynamic', 'timeout'], timeout: svc.stickyMaxAgeSeconds }));
        unit.sets.push(`affinity-${b}`);
      }
    }
    const policyRules = (policyChain: string, endpoints: EndpointInfo[]) => {
      const names = endpoints.map((ep) => epChainOf.get(ep.endpoint)!);
      if (affinity) names.forEach((c) => add(policyChain, `ip saddr @affinity-${c.slice('endpoint-'.length)} goto ${c}`));
      add(policyChain, `numgen random mod ${names.length} vmap { ${names.map((c, i) => `${i} : goto ${c}`).join(', ')} }`);
    };
    if (usesCluster) policyRules(clusterChain, eps.cluster);
    if (usesLocal) policyRules(localChain, eps.local);
    eps.allReachable.forEach((ep, i) => {
      const c = `endpoint-${epBases[i]!}`;
      add(c, `ip saddr ${ep.ip} jump mark-for-masquerade`);
      if (affinity) add(c, `update @affinity-${epBases[i]!} { ip saddr }`);
      add(c, `meta l4proto ${proto} dnat to ${ep.endpoint}`);
    });
  }

  for (const c of chains.values()) if (c.name.includes('/')) ruleCount += c.rules.length;
  for (const s of sets) ruleCount += s.elements.length;
  return { family: 'ip', table: KUBE_PROXY_TABLE, comment: 'rules for kube-proxy', chains: [...chains.values()], sets, ruleCount, units };
}
