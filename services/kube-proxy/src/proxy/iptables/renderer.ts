// The iptables backend as a pure function (upstream pkg/proxy/iptables/proxier.go
// syncProxyRules): snapshot + config → the `iptables-restore --noflush` input for
// the filter and nat tables, plus the jump rules from the built-in chains that
// upstream ensures separately (they cannot be part of a --noflush restore
// without duplicating them).

import { usableEndpoints } from '../endpoints.js';
import { masqueradeMark, type ProxyConfig, type ProxySnapshot } from '../types.js';
import {
  KUBE_EXTERNAL_SERVICES,
  KUBE_FIREWALL,
  KUBE_FORWARD,
  KUBE_MARK_MASQ,
  KUBE_NODEPORTS,
  KUBE_POSTROUTING,
  KUBE_PROXY_FIREWALL,
  KUBE_SERVICES,
  isServiceChainName,
  serviceExternalChainName,
  servicePortChainName,
  servicePortEndpointChainName,
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

export interface IptablesRuleset {
  /** iptables-restore input (filter then nat, each ending in COMMIT). */
  restore: string;
  jumps: IptablesJump[];
  /** Chains written, per table, in declaration order. */
  chains: Record<IptablesTable, string[]>;
  /** Rule lines per table (upstream's sync_proxy_rules_iptables_total). */
  ruleCount: Record<IptablesTable, number>;
  /** Stale service chains the restore deletes. */
  deletedChains: string[];
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

/** A comment argument as restore input wants it: quoted when it has spaces. */
function comment(text: string): string {
  return /\s/.test(text) ? `"${text}"` : text;
}

/** 1/n with ten decimals, as upstream's computeProbability (`%0.10f`). */
export function probability(n: number): string {
  return (1 / n).toFixed(10);
}

class Lines {
  readonly lines: string[] = [];
  write(...parts: string[]): void {
    this.lines.push(parts.join(' '));
  }
}

export interface RenderIptablesOptions {
  /** nat chains the kernel holds now; service chains among them that are no longer used get deleted. */
  existingNatChains?: Iterable<string>;
}

export function renderIptables(snap: ProxySnapshot, cfg: ProxyConfig, opts: RenderIptablesOptions = {}): IptablesRuleset {
  const mark = masqueradeMark(cfg.masqueradeBit);
  const filterChains = [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL];
  const natChains = [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ];
  const filterRules = new Lines();
  const natRules = new Lines();

  // KUBE-POSTROUTING masquerades only what KUBE-MARK-MASQ marked, and clears the mark.
  natRules.write('-A', KUBE_POSTROUTING, '-m mark ! --mark', `${mark}/${mark}`, '-j RETURN');
  natRules.write('-A', KUBE_POSTROUTING, '-j MARK --xor-mark', mark);
  natRules.write('-A', KUBE_POSTROUTING, '-m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully');
  natRules.write('-A', KUBE_MARK_MASQ, '-j MARK --or-mark', mark);

  if (cfg.localhostNodePorts) {
    // route_localnet opens 127/8 to the outside; kubelet's anti-martian rule closes it again.
    filterChains.push(KUBE_FIREWALL);
    filterRules.write(
      '-A',
      KUBE_FIREWALL,
      '-m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    );
  }

  let totalEndpoints = 0;
  for (const svc of snap.services) totalEndpoints += snap.endpoints.get(svc.name)?.length ?? 0;
  const largeCluster = totalEndpoints > LARGE_CLUSTER_ENDPOINTS_THRESHOLD;
  const svcComment = (text: string) => (largeCluster ? '' : ` -m comment --comment ${comment(text)}`);

  const active = new Set<string>();
  for (const svc of snap.services) {
    const proto = svc.protocol.toLowerCase();
    const name = svc.name;
    const svcChain = servicePortChainName(name, proto);
    const extChain = serviceExternalChainName(name, proto);
    const endpoints = usableEndpoints(svc, snap.endpoints.get(name) ?? []);
    const hasEndpoints = endpoints.length > 0;
    const external = svc.nodePort > 0 || svc.externalIPs.length > 0 || svc.loadBalancerIPs.length > 0;
    const dst = (ip: string, port: number) => `-m ${proto} -p ${proto} -d ${ip} --dport ${port}`;

    // Capture the ClusterIP, or reject it in the filter table when nothing serves it.
    if (hasEndpoints) {
      natRules.write('-A', KUBE_SERVICES, '-m comment --comment', comment(`${name} cluster IP`), dst(svc.clusterIP, svc.port), '-j', svcChain);
    } else {
      filterRules.write('-A', KUBE_SERVICES, '-m comment --comment', comment(`${name} has no endpoints`), dst(svc.clusterIP, svc.port), '-j REJECT');
    }
    for (const [ips, what] of [
      [svc.externalIPs, 'external IP'],
      [svc.loadBalancerIPs, 'loadbalancer IP'],
    ] as const) {
      for (const ip of ips) {
        if (hasEndpoints) natRules.write('-A', KUBE_SERVICES, '-m comment --comment', comment(`${name} ${what}`), dst(ip, svc.port), '-j', extChain);
        else filterRules.write('-A', KUBE_EXTERNAL_SERVICES, '-m comment --comment', comment(`${name} has no endpoints`), dst(ip, svc.port), '-j REJECT');
      }
    }
    if (svc.nodePort > 0) {
      if (hasEndpoints) {
        natRules.write('-A', KUBE_NODEPORTS, '-m comment --comment', comment(name), `-m ${proto} -p ${proto} --dport ${svc.nodePort}`, '-j', extChain);
      } else {
        filterRules.write(
          '-A',
          KUBE_EXTERNAL_SERVICES,
          '-m comment --comment',
          comment(`${name} has no endpoints`),
          `-m addrtype --dst-type LOCAL -m ${proto} -p ${proto} --dport ${svc.nodePort}`,
          '-j REJECT',
        );
      }
    }
    if (!hasEndpoints) continue;

    // Traffic to the ClusterIP from outside the pod network is masqueraded (it may bounce off-node).
    const clusterArgs = `-m comment --comment ${comment(`${name} cluster IP`)} ${dst(svc.clusterIP, svc.port)}`;
    if (cfg.masqueradeAll) natRules.write('-A', svcChain, clusterArgs, '-j', KUBE_MARK_MASQ);
    else if (cfg.clusterCIDR) natRules.write('-A', svcChain, clusterArgs, '! -s', cfg.clusterCIDR, '-j', KUBE_MARK_MASQ);

    if (external) {
      natChains.push(extChain);
      active.add(extChain);
      natRules.write('-A', extChain, '-m comment --comment', comment(`masquerade traffic for ${name} external destinations`), '-j', KUBE_MARK_MASQ);
      natRules.write('-A', extChain, '-j', svcChain);
    }

    natChains.push(svcChain);
    active.add(svcChain);
    const sepChains = endpoints.map((ep) => servicePortEndpointChainName(name, proto, ep.endpoint));
    // Sticky clients first: a source seen recently goes back to the same endpoint.
    if (svc.sessionAffinity === 'ClientIP') {
      endpoints.forEach((ep, i) => {
        natRules.write(
          `-A ${svcChain}${svcComment(`${name} -> ${ep.endpoint}`)}`,
          '-m recent --name',
          sepChains[i]!,
          `--rcheck --seconds ${svc.stickyMaxAgeSeconds} --reap`,
          '-j',
          sepChains[i]!,
        );
      });
    }
    // Rule i matches with probability 1/(n-i): every endpoint gets 1/n overall.
    endpoints.forEach((ep, i) => {
      const stat = i < endpoints.length - 1 ? ` -m statistic --mode random --probability ${probability(endpoints.length - i)}` : '';
      natRules.write(`-A ${svcChain}${svcComment(`${name} -> ${ep.endpoint}`)}${stat} -j ${sepChains[i]!}`);
    });

    endpoints.forEach((ep, i) => {
      const sep = sepChains[i]!;
      natChains.push(sep);
      active.add(sep);
      const base = `-A ${sep}${svcComment(name)}`;
      // Hairpin: a pod reaching itself through the service must be masqueraded.
      natRules.write(base, '-s', ep.ip, '-j', KUBE_MARK_MASQ);
      const recent = svc.sessionAffinity === 'ClientIP' ? ` -m recent --name ${sep} --set` : '';
      natRules.write(`${base}${recent} -m ${proto} -p ${proto} -j DNAT --to-destination ${ep.endpoint}`);
    });
  }

  const deletedChains: string[] = [];
  for (const chain of opts.existingNatChains ?? []) {
    if (!isServiceChainName(chain) || active.has(chain)) continue;
    natChains.push(chain);
    natRules.write('-X', chain);
    deletedChains.push(chain);
  }

  // The NodePort catch-all must be the last rule of KUBE-SERVICES.
  const localOnly = cfg.localhostNodePorts ? '-m addrtype --dst-type LOCAL' : '-m addrtype --dst-type LOCAL ! -d 127.0.0.0/8';
  natRules.write(
    '-A',
    KUBE_SERVICES,
    '-m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain"',
    localOnly,
    '-j',
    KUBE_NODEPORTS,
  );

  filterRules.write('-A', KUBE_FORWARD, '-m conntrack --ctstate INVALID -j DROP');
  filterRules.write('-A', KUBE_FORWARD, '-m comment --comment "kubernetes forwarding rules" -m mark --mark', `${mark}/${mark}`, '-j ACCEPT');
  filterRules.write('-A', KUBE_FORWARD, '-m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT');

  // Joined piecewise: a large cluster has too many lines to spread into one call.
  const chainLines = (chains: string[]) => chains.map((c) => `:${c} - [0:0]\n`).join('');
  const restore =
    `*filter\n${chainLines(filterChains)}${filterRules.lines.join('\n')}\nCOMMIT\n` +
    `*nat\n${chainLines(natChains)}${natRules.lines.join('\n')}\nCOMMIT\n`;

  return {
    restore,
    jumps: cfg.localhostNodePorts ? IPTABLES_JUMPS : IPTABLES_JUMPS.filter((j) => !j.args.includes(KUBE_FIREWALL)),
    chains: { filter: filterChains, nat: deletedChains.length ? natChains.filter((c) => !deletedChains.includes(c)) : natChains },
    ruleCount: { filter: filterRules.lines.length, nat: natRules.lines.length - deletedChains.length },
    deletedChains,
  };
}
