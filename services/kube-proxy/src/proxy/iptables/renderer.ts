// The iptables backend as a pure function (upstream pkg/proxy/iptables/proxier.go
// syncProxyRules): snapshot + config → the `iptables-restore --noflush` input for
// the filter and nat tables, plus the jump rules from the built-in chains that
// upstream ensures separately (they cannot be part of a --noflush restore
// without duplicating them).
//
// The nat rules come in two parts, as upstream's partial sync needs them:
// the top-level chains (KUBE-SERVICES, KUBE-NODEPORTS, KUBE-POSTROUTING,
// KUBE-MARK-MASQ), always rewritten, and one unit per service port (its
// KUBE-SVC/SVL/EXT/SEP chains), rewritten only when the Service or its
// endpoints changed (MinimizeIPTablesRestore).

import { categorizeEndpoints } from '../endpoints.js';
import { externallyAccessible, masqueradeMark, usesClusterEndpoints, usesLocalEndpoints, type ProxyConfig, type ProxySnapshot } from '../types.js';
import {
  KUBE_EXTERNAL_SERVICES,
  KUBE_FIREWALL,
  KUBE_FORWARD,
  KUBE_MARK_MASQ,
  KUBE_NODEPORTS,
  KUBE_POSTROUTING,
  KUBE_PROXY_FIREWALL,
  KUBE_SERVICES,
  chainsFor,
  endpointChainFor,
  isServiceChainName,
} from './chains.js';

export type IptablesTable = 'filter' | 'nat';

/** A rule in a built-in chain that jumps to one of ours (iptablesJumpChains). */
export interface IptablesJump {
  table: IptablesTable;
  /** Built-in chain holding the rule (INPUT, PREROUTING, ...). */
  chain: string;
  /** The rule's arguments as argv (no shell quoting), ending in `-j TARGET`. */
  args: string[];
}

/** The nat chains and rules of one service port: what a partial sync rewrites when the Service changed. */
export interface IptablesUnit {
  /** `namespace/name` of the Service. */
  service: string;
  /** Chains in declaration order (EXT, SVC, SVL, SEPs). */
  chains: string[];
  /** `-A` lines of those chains. */
  rules: string[];
}

export interface IptablesRuleset {
  /** The full iptables-restore input (filter then nat, each ending in COMMIT); built on first use. */
  readonly restore: string;
  jumps: IptablesJump[];
  /** Chains written, per table, in declaration order. */
  chains: Record<IptablesTable, string[]>;
  /** Rule lines per table (upstream's sync_proxy_rules_iptables_total). */
  ruleCount: Record<IptablesTable, number>;
  /** Stale service chains the restore deletes. */
  deletedChains: string[];
  /** The filter table: chains and rules, always written whole. */
  filter: { chains: string[]; rules: string[] };
  /** The nat table's top-level chains and their rules, always written whole. */
  natTop: { chains: string[]; rules: string[] };
  /** Per service port nat chains, in service-port order. */
  units: IptablesUnit[];
}

/** Endpoint total above which comments are dropped to keep the ruleset small (largeClusterEndpointsThreshold). */
export const LARGE_CLUSTER_ENDPOINTS_THRESHOLD = 1000;

function jump(table: IptablesTable, chain: string, target: string, comment: string, extra: string[] = []): IptablesJump {
  const args = [...extra];
  if (comment) args.push('-m', 'comment', '--comment', comment);
  args.push('-j', target);
  return { table, chain, args };
}

/** The jump rules kube-proxy (and, for KUBE-FIREWALL, kubelet) puts in built-in chains. */
export const IPTABLES_JUMPS: IptablesJump[] = [
  jump('filter', 'INPUT', KUBE_EXTERNAL_SERVICES, 'kubernetes externally-visible service portals', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('filter', 'FORWARD', KUBE_EXTERNAL_SERVICES, 'kubernetes externally-visible service portals', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('filter', 'INPUT', KUBE_NODEPORTS, 'kubernetes health check service ports'),
  jump('filter', 'FORWARD', KUBE_SERVICES, 'kubernetes service portals', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('filter', 'OUTPUT', KUBE_SERVICES, 'kubernetes service portals', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('filter', 'FORWARD', KUBE_FORWARD, 'kubernetes forwarding rules'),
  jump('filter', 'INPUT', KUBE_PROXY_FIREWALL, 'kubernetes load balancer firewall', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('filter', 'OUTPUT', KUBE_PROXY_FIREWALL, 'kubernetes load balancer firewall', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('filter', 'FORWARD', KUBE_PROXY_FIREWALL, 'kubernetes load balancer firewall', ['-m', 'conntrack', '--ctstate', 'NEW']),
  jump('nat', 'OUTPUT', KUBE_SERVICES, 'kubernetes service portals'),
  jump('nat', 'PREROUTING', KUBE_SERVICES, 'kubernetes service portals'),
  jump('nat', 'POSTROUTING', KUBE_POSTROUTING, 'kubernetes postrouting rules'),
  jump('filter', 'INPUT', KUBE_FIREWALL, ''),
  jump('filter', 'OUTPUT', KUBE_FIREWALL, ''),
];

/** 1/n with ten decimals, as upstream's computeProbability (`%0.10f`), cached like upstream's precomputedProbabilities. */
const probabilities: string[] = [];
export function probability(n: number): string {
  return (probabilities[n] ??= (1 / n).toFixed(10));
}

export interface RenderIptablesOptions {
  /** nat chains the kernel holds now; service chains among them that are no longer used get deleted. */
  existingNatChains?: Iterable<string>;
}

/** A restore line's chain declaration. */
export function chainLine(chain: string): string {
  return `:${chain} - [0:0]`;
}

export function renderIptables(snap: ProxySnapshot, cfg: ProxyConfig, opts: RenderIptablesOptions = {}): IptablesRuleset {
  const mark = masqueradeMark(cfg.masqueradeBit);
  const filterChains = [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL];
  const filterRules: string[] = [];
  const topChains = [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ];
  const servicesRules: string[] = [];
  const nodePortRules: string[] = [];
  const units: IptablesUnit[] = [];

  if (cfg.localhostNodePorts) {
    // route_localnet opens 127/8 to the outside; kubelet's anti-martian rule closes it again.
    filterChains.push(KUBE_FIREWALL);
    filterRules.push(`-A ${KUBE_FIREWALL} -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP`);
  }

  let totalEndpoints = 0;
  for (const svc of snap.services) totalEndpoints += snap.endpoints.get(svc.name)?.length ?? 0;
  const largeCluster = totalEndpoints > LARGE_CLUSTER_ENDPOINTS_THRESHOLD;
  // Service names never hold spaces: a comment with a space is always quoted, one without never.
  const epComment = (name: string, ep: string) => (largeCluster ? '' : ` -m comment --comment "${name} -> ${ep}"`);
  const sepComment = (name: string) => (largeCluster ? '' : ` -m comment --comment ${name}`);
  const notLocal = cfg.clusterCIDR ? ` ! -s ${cfg.clusterCIDR}` : '';

  for (const svc of snap.services) {
    const proto = svc.protocol.toLowerCase();
    const name = svc.name;
    const ch = chainsFor(svc);
    const eps = categorizeEndpoints(svc, snap.endpoints.get(name) ?? []);
    const hasAny = eps.hasAny;
    const internalLocal = svc.internalTrafficPolicy === 'Local';
    const externalLocal = svc.externalTrafficPolicy === 'Local';
    const usesCluster = eps.cluster.length > 0 && usesClusterEndpoints(svc);
    const usesLocal = eps.local.length > 0 && usesLocalEndpoints(svc);
    const internalChain = internalLocal ? ch.svl : ch.svc;
    const hasInternal = hasAny && !(internalLocal && eps.local.length === 0);
    const externalPolicyChain = externalLocal ? ch.svl : ch.svc;
    const hasExternal = hasAny && !(externalLocal && eps.local.length === 0);
    // The EXT chain also carries the short-circuit rules, so it exists even without local endpoints.
    const usesExt = hasAny && externallyAccessible(svc);
    // No endpoints anywhere: REJECT; endpoints only elsewhere under Local policy: DROP.
    const internalVerdict = !hasAny ? `"${name} has no endpoints" ` : `"${name} has no local endpoints" `;
    const internalTarget = !hasAny ? 'REJECT' : 'DROP';
    const externalVerdict = internalVerdict;
    const externalTarget = internalTarget;
    const dport = ` --dport ${svc.port}`;
    const match = `-m ${proto} -p ${proto}`;

    // Capture the ClusterIP, or reject/drop it in the filter table.
    if (hasInternal) {
      servicesRules.push(`-A ${KUBE_SERVICES} -m comment --comment "${name} cluster IP" ${match} -d ${svc.clusterIP}${dport} -j ${internalChain}`);
    } else {
      filterRules.push(`-A ${KUBE_SERVICES} -m comment --comment ${internalVerdict}${match} -d ${svc.clusterIP}${dport} -j ${internalTarget}`);
    }
    for (const [ips, what] of [
      [svc.externalIPs, 'external IP'],
      [svc.loadBalancerIPs, 'loadbalancer IP'],
    ] as const) {
      for (const ip of ips) {
        if (hasAny) servicesRules.push(`-A ${KUBE_SERVICES} -m comment --comment "${name} ${what}" ${match} -d ${ip}${dport} -j ${ch.ext}`);
        if (!hasExternal) filterRules.push(`-A ${KUBE_EXTERNAL_SERVICES} -m comment --comment ${externalVerdict}${match} -d ${ip}${dport} -j ${externalTarget}`);
      }
    }
    if (svc.nodePort > 0) {
      if (hasAny) nodePortRules.push(`-A ${KUBE_NODEPORTS} -m comment --comment ${name} ${match} --dport ${svc.nodePort} -j ${ch.ext}`);
      if (!hasExternal) {
        filterRules.push(`-A ${KUBE_EXTERNAL_SERVICES} -m comment --comment ${externalVerdict}-m addrtype --dst-type LOCAL ${match} --dport ${svc.nodePort} -j ${externalTarget}`);
      }
    }
    if (svc.healthCheckNodePort > 0) {
      // The health check port is open whether or not this node has local endpoints.
      filterRules.push(`-A ${KUBE_NODEPORTS} -m comment --comment "${name} health check node port" -m tcp -p tcp --dport ${svc.healthCheckNodePort} -j ACCEPT`);
    }

    const unit: IptablesUnit = { service: `${svc.namespace}/${svc.service}`, chains: [], rules: [] };
    units.push(unit);
    const rules = unit.rules;

    // Traffic to the ClusterIP from outside the pod network is masqueraded (it may bounce off-node).
    if (hasInternal) {
      const clusterArgs = `-m comment --comment "${name} cluster IP" ${match} -d ${svc.clusterIP}${dport}`;
      if (cfg.masqueradeAll) rules.push(`-A ${internalChain} ${clusterArgs} -j ${KUBE_MARK_MASQ}`);
      else if (cfg.clusterCIDR) rules.push(`-A ${internalChain} ${clusterArgs}${notLocal} -j ${KUBE_MARK_MASQ}`);
    }

    if (usesExt) {
      unit.chains.push(ch.ext);
      if (!externalLocal) {
        // Cluster policy may cross nodes: masquerade so replies come back through this node.
        rules.push(`-A ${ch.ext} -m comment --comment "masquerade traffic for ${name} external destinations" -j ${KUBE_MARK_MASQ}`);
      } else {
        // Local policy keeps the client's source IP; pods and the node itself short-circuit to all endpoints.
        if (cfg.clusterCIDR) rules.push(`-A ${ch.ext} -m comment --comment "pod traffic for ${name} external destinations" -s ${cfg.clusterCIDR} -j ${ch.svc}`);
        rules.push(`-A ${ch.ext} -m comment --comment "masquerade LOCAL traffic for ${name} external destinations" -m addrtype --src-type LOCAL -j ${KUBE_MARK_MASQ}`);
        rules.push(`-A ${ch.ext} -m comment --comment "route LOCAL traffic for ${name} external destinations" -m addrtype --src-type LOCAL -j ${ch.svc}`);
      }
      if (hasExternal) rules.push(`-A ${ch.ext} -j ${externalPolicyChain}`);
    }

    const policyRules = (chain: string, endpoints: typeof eps.cluster) => {
      unit.chains.push(chain);
      const seps = endpoints.map((ep) => endpointChainFor(svc, ep));
      // Sticky clients first: a source seen recently goes back to the same endpoint.
      if (svc.sessionAffinity === 'ClientIP') {
        for (let i = 0; i < endpoints.length; i++) {
          rules.push(`-A ${chain}${epComment(name, endpoints[i]!.endpoint)} -m recent --name ${seps[i]} --rcheck --seconds ${svc.stickyMaxAgeSeconds} --reap -j ${seps[i]}`);
        }
      }
      // Rule i matches with probability 1/(n-i): every endpoint gets 1/n overall.
      const n = endpoints.length;
      for (let i = 0; i < n; i++) {
        const stat = i < n - 1 ? ` -m statistic --mode random --probability ${probability(n - i)}` : '';
        rules.push(`-A ${chain}${epComment(name, endpoints[i]!.endpoint)}${stat} -j ${seps[i]}`);
      }
    };
    if (usesCluster) policyRules(ch.svc, eps.cluster);
    if (usesLocal) policyRules(ch.svl, eps.local);

    const affinity = svc.sessionAffinity === 'ClientIP';
    for (const ep of eps.allReachable) {
      const sep = endpointChainFor(svc, ep);
      unit.chains.push(sep);
      const base = `-A ${sep}${sepComment(name)}`;
      // Hairpin: a pod reaching itself through the service must be masqueraded.
      rules.push(`${base} -s ${ep.ip} -j ${KUBE_MARK_MASQ}`);
      rules.push(`${base}${affinity ? ` -m recent --name ${sep} --set` : ''} ${match} -j DNAT --to-destination ${ep.endpoint}`);
    }
  }

  // The NodePort catch-all must be the last rule of KUBE-SERVICES.
  const localOnly = cfg.localhostNodePorts ? '-m addrtype --dst-type LOCAL' : '-m addrtype --dst-type LOCAL ! -d 127.0.0.0/8';
  servicesRules.push(`-A ${KUBE_SERVICES} -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" ${localOnly} -j ${KUBE_NODEPORTS}`);

  const topRules = [
    // KUBE-POSTROUTING masquerades only what KUBE-MARK-MASQ marked, and clears the mark.
    `-A ${KUBE_POSTROUTING} -m mark ! --mark ${mark}/${mark} -j RETURN`,
    `-A ${KUBE_POSTROUTING} -j MARK --xor-mark ${mark}`,
    `-A ${KUBE_POSTROUTING} -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully`,
    `-A ${KUBE_MARK_MASQ} -j MARK --or-mark ${mark}`,
    ...servicesRules,
    ...nodePortRules,
  ];

  filterRules.push(
    `-A ${KUBE_FORWARD} -m conntrack --ctstate INVALID -j DROP`,
    `-A ${KUBE_FORWARD} -m comment --comment "kubernetes forwarding rules" -m mark --mark ${mark}/${mark} -j ACCEPT`,
    `-A ${KUBE_FORWARD} -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`,
  );

  const active = new Set<string>();
  let natRuleCount = topRules.length;
  for (const u of units) {
    for (const c of u.chains) active.add(c);
    natRuleCount += u.rules.length;
  }
  const deletedChains: string[] = [];
  for (const chain of opts.existingNatChains ?? []) if (isServiceChainName(chain) && !active.has(chain)) deletedChains.push(chain);

  const filter = { chains: filterChains, rules: filterRules };
  const natTop = { chains: topChains, rules: topRules };
  let restore: string | undefined;
  let restoreFor: string[] | undefined;
  const result: IptablesRuleset = {
    get restore() {
      // Rebuilt when apply replaced deletedChains with the stale chains it found.
      if (restore === undefined || restoreFor !== result.deletedChains) {
        restoreFor = result.deletedChains;
        restore = restoreInput({ filter, natTop, units }, { stale: restoreFor });
      }
      return restore;
    },
    jumps: cfg.localhostNodePorts ? IPTABLES_JUMPS : IPTABLES_JUMPS.filter((j) => !j.args.includes(KUBE_FIREWALL)),
    chains: { filter: filterChains, nat: [...topChains, ...active] },
    ruleCount: { filter: filterRules.length, nat: natRuleCount },
    deletedChains,
    filter,
    natTop,
    units,
  };
  return result;
}

export interface RestoreParts {
  filter?: { chains: string[]; rules: string[] };
  natTop?: { chains: string[]; rules: string[] };
  units: IptablesUnit[];
}

/**
 * iptables-restore input for the given parts: declaring a chain flushes it
 * (--noflush leaves every chain not named alone), `-X` deletes stale ones
 * after all of them were flushed. Joined piecewise: a large cluster has too
 * many lines to spread into one call.
 */
export function restoreInput(parts: RestoreParts, opts: { stale?: string[]; natPrelude?: string[] } = {}): string {
  const out: string[] = [];
  if (parts.filter) {
    out.push('*filter');
    for (const c of parts.filter.chains) out.push(chainLine(c));
    for (const r of parts.filter.rules) out.push(r);
    out.push('COMMIT');
  }
  out.push('*nat');
  for (const c of parts.natTop?.chains ?? []) out.push(chainLine(c));
  for (const u of parts.units) for (const c of u.chains) out.push(chainLine(c));
  for (const c of opts.stale ?? []) out.push(chainLine(c));
  for (const r of opts.natPrelude ?? []) out.push(r);
  for (const r of parts.natTop?.rules ?? []) out.push(r);
  for (const u of parts.units) for (const r of u.rules) out.push(r);
  for (const c of opts.stale ?? []) out.push(`-X ${c}`);
  out.push('COMMIT', '');
  return out.join('\n');
}
