// The policy renderer: one node's NetworkPolicy enforcement as iptables
// chains in the filter table, a pure function of the pods, namespaces and
// policies the informers hold (kube-network-policies' role; the chain names
// follow kube-router's KUBE-NWPLCY-<hash> style).
//
// The data path it is written for (kubelab's compose nodes): a pod's address
// is a local address of its node's network namespace, so traffic to a pod
// arrives by INPUT (from other nodes over VXLAN, from pods of this node over
// lo) and a pod's own traffic leaves by OUTPUT with the pod IP as source;
// FORWARD is hooked too, for pods in network namespaces of their own. Services
// are already DNATed to pod IPs before the filter hooks.
//
//   KUBE-NWPLCY-INGRESS   replies pass; the node's own traffic passes (the
//                         NetworkPolicy spec); -d <isolated pod> → its chain
//   KUBE-NWPLCY-EGRESS    replies pass; -s <isolated pod> → its chain
//   pod chain             per policy rule: its ports (named ports resolved on
//                         this pod) → ACCEPT or the rule's peer chain; DROP last
//   rule chain            ingress: -s <peer> -j ACCEPT; egress: -d <peer> and
//                         the rule's ports -j ACCEPT
//   ipBlock chain         -s/-d <except> -j RETURN, then ACCEPT

import { createHash } from 'node:crypto';
import type { Namespace, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort, Pod } from '@kubelab/api';
import { cidrArg, PolicySelection, resolvePort, type Direction } from './resolve.js';

export const INGRESS_CHAIN = 'KUBE-NWPLCY-INGRESS';
export const EGRESS_CHAIN = 'KUBE-NWPLCY-EGRESS';
export const CHAIN_PREFIX = 'KUBE-NWPLCY-';

/** The built-in chains' jumps into the dispatch chains. */
export const POLICY_JUMPS: readonly { from: string; to: string }[] = [
  { from: 'INPUT', to: INGRESS_CHAIN },
  { from: 'FORWARD', to: EGRESS_CHAIN },
  { from: 'FORWARD', to: INGRESS_CHAIN },
  { from: 'OUTPUT', to: EGRESS_CHAIN },
];
export const JUMP_COMMENT = 'kubernetes network policies';

export interface PolicyInputs {
  nodeName: string;
  /** The pod network (--cluster-cidr): sources outside it that are local addresses are the node itself. */
  clusterCIDR: string;
  pods: readonly Pod[];
  namespaces: readonly Namespace[];
  policies: readonly NetworkPolicy[];
}

export interface Chain {
  name: string;
  /** Each rule's arguments after `-A <chain> `, as iptables-save prints them. */
  rules: string[];
}

export interface PolicyRuleset {
  /** Dispatch chains first, then the others by name. */
  chains: Chain[];
  ruleCount: number;
  /** Local pods isolated for ingress / egress. */
  isolated: { ingress: number; egress: number };
}

/** KUBE-NWPLCY- and 16 characters of a hash of what the chain is for (28 bytes, iptables' limit). */
export function policyChainName(what: string): string {
  return CHAIN_PREFIX + createHash('sha256').update(what).digest('hex').slice(0, 16).toUpperCase();
}

const quote = (comment: string) => `-m comment --comment "${comment.replace(/"/g, "'")}"`;
const podKey = (p: Pod) => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;

const PROTOCOL_ARG: Record<string, string> = { TCP: 'tcp', UDP: 'udp', SCTP: 'sctp' };

/** A port entry's matches (`-p tcp -m tcp --dport 80`), a named port resolved on `pod`; [] when it cannot match. */
function portMatches(port: NetworkPolicyPort, pod: Pod | undefined): string[] {
  return resolvePort(port, pod).map((s) => {
    const proto = PROTOCOL_ARG[s.protocol]!;
    if (s.port === undefined) return `-p ${proto}`;
    return `-p ${proto} -m ${proto} --dport ${s.endPort !== undefined ? `${s.port}:${s.endPort}` : s.port}`;
  });
}

export function renderPolicies(input: PolicyInputs): PolicyRuleset {
  const sel = new PolicySelection(input);
  const local = sel.pods.filter((p) => p.spec?.nodeName === input.nodeName);

  const chains = new Map<string, Chain>();
  const addChain = (name: string, rules: string[]) => {
    if (!chains.has(name)) chains.set(name, { name, rules });
    return name;
  };

  /** An ipBlock's chain: its excepts return, the rest of the block is accepted. */
  const ipBlockChain = (what: string, flag: '-s' | '-d', cidr: string, except: string[], ports: string[]) => {
    const rules: string[] = [];
    for (const e of except) {
      const arg = cidrArg(e);
      if (arg) rules.push(`${flag} ${arg} -j RETURN`);
    }
    for (const pm of ports) rules.push(`${[cidr ? `${flag} ${cidr}` : '', pm, '-j ACCEPT'].filter(Boolean).join(' ')}`);
    return addChain(policyChainName(what), rules);
  };

  /**
   * A rule's peer chain: `flag` peers (and, for egress, the rule's ports, named
   * ports resolved on each destination pod) accepted. Shared by every pod the policy selects.
   */
  const ruleChain = (np: NetworkPolicy, dir: Direction, i: number, peers: NetworkPolicyPeer[], ports: NetworkPolicyPort[] | undefined): string => {
    const what = `${dir}/${np.metadata.namespace}/${np.metadata.name}/${i}`;
    const name = policyChainName(what);
    if (chains.has(name)) return name;
    const flag = dir === 'ingress' ? '-s' : '-d';
    const withPorts = (pod: Pod | undefined): string[] => (dir === 'ingress' || !ports?.length ? [''] : ports.flatMap((p) => portMatches(p, pod)));
    const rules: string[] = [];
    const seen = new Set<string>();
    const push = (r: string) => {
      if (seen.has(r)) return;
      seen.add(r);
      rules.push(r);
    };
    const ns = np.metadata.namespace ?? '';
    // Egress rules without peers reach every address; named ports only exist on pods, so those are resolved on every pod.
    const anywhere: NetworkPolicyPeer = { ipBlock: { cidr: '0.0.0.0/0' } };
    const named = (ports ?? []).some((p) => typeof p?.port === 'string');
    const list: NetworkPolicyPeer[] = peers.length ? peers : named ? [{ podSelector: {}, namespaceSelector: {} }, anywhere] : [anywhere];
    list.forEach((peer, j) => {
      for (const r of sel.resolvePeer(ns, peer)) {
        if ('pod' in r) {
          for (const m of withPorts(r.pod)) push([`${flag} ${r.pod.status!.podIP}/32`, m, '-j ACCEPT'].filter(Boolean).join(' '));
          continue;
        }
        const cidr = cidrArg(r.ipBlock.cidr);
        if (cidr === undefined) continue;
        const pm = withPorts(undefined);
        if (pm.length === 0) continue;
        const except = r.ipBlock.except;
        if (except.length === 0) for (const m of pm) push([cidr ? `${flag} ${cidr}` : '', m, '-j ACCEPT'].filter(Boolean).join(' '));
        else push(`${cidr ? `${flag} ${cidr} ` : ''}-j ${ipBlockChain(`${what}/ipblock/${j}`, flag, cidr, except, pm)}`);
      }
    });
    return addChain(name, rules);
  };

  /** A local pod's chain for one direction, or undefined when no policy of that type selects it. */
  const podChain = (pod: Pod, dir: Direction): string | undefined => {
    const resolved = sel.rulesFor(pod, dir);
    if (!resolved) return undefined;
    const rules: string[] = [];
    for (const { policy: np, index: i, ports, peers } of resolved) {
      const comment = quote(`${np.metadata.namespace}/${np.metadata.name} ${dir} rule ${i}`);
      if (dir === 'ingress') {
        // Ingress ports are this pod's (named ports resolved here); the peers are the rule's chain.
        const pm = ports.length ? ports.flatMap((p) => portMatches(p, pod)) : [''];
        const target = peers.length ? ruleChain(np, dir, i, peers, ports) : 'ACCEPT';
        for (const m of pm) rules.push([m, comment, `-j ${target}`].filter(Boolean).join(' '));
      } else if (peers.length === 0 && ports.length === 0) {
        rules.push(`${comment} -j ACCEPT`);
      } else {
        rules.push(`${comment} -j ${ruleChain(np, dir, i, peers, ports)}`);
      }
    }
    rules.push(`${quote(`${podKey(pod)} has no NetworkPolicy allowing this ${dir}`)} -j DROP`);
    return addChain(policyChainName(`pod-${dir}/${podKey(pod)}`), rules);
  };

  const ingress: string[] = ['-m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT'];
  const nodeSource = cidrArg(input.clusterCIDR);
  // Traffic from the pod's own node is always allowed (kubelet probes); in compose pod IPs are local addresses too, so they are excluded.
  ingress.push(`${nodeSource ? `! -s ${nodeSource} ` : ''}-m addrtype --src-type LOCAL ${quote('the node may always reach its pods')} -j ACCEPT`);
  const egress: string[] = ['-m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT'];
  let isoIn = 0;
  let isoOut = 0;
  for (const pod of local) {
    const ip = pod.status!.podIP!;
    const inChain = podChain(pod, 'ingress');
    if (inChain) {
      isoIn++;
      ingress.push(`-d ${ip}/32 ${quote(`${podKey(pod)} ingress`)} -j ${inChain}`);
    }
    const outChain = podChain(pod, 'egress');
    if (outChain) {
      isoOut++;
      egress.push(`-s ${ip}/32 ${quote(`${podKey(pod)} egress`)} -j ${outChain}`);
    }
  }
  const rest = [...chains.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const all = [{ name: INGRESS_CHAIN, rules: ingress }, { name: EGRESS_CHAIN, rules: egress }, ...rest];
  return { chains: all, ruleCount: all.reduce((n, c) => n + c.rules.length, 0), isolated: { ingress: isoIn, egress: isoOut } };
}

/**
 * The ruleset as `iptables-save -t filter` prints our part of it (checked
 * against iptables 1.8.9): the built-in chains, ours by name, the jumps, then
 * each chain's rules.
 */
export function toIptablesSave(rs: PolicyRuleset): string {
  const lines = ['*filter', ':INPUT ACCEPT [0:0]', ':FORWARD ACCEPT [0:0]', ':OUTPUT ACCEPT [0:0]'];
  const sorted = [...rs.chains].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const c of sorted) lines.push(`:${c.name} - [0:0]`);
  for (const j of POLICY_JUMPS) lines.push(`-A ${j.from} ${quote(JUMP_COMMENT)} -j ${j.to}`);
  for (const c of sorted) for (const r of c.rules) lines.push(`-A ${c.name} ${r}`);
  lines.push('COMMIT');
  return lines.join('\n') + '\n';
}

/**
 * iptables-restore --noflush input for one atomic sync: our chains declared
 * (which flushes them) and refilled, chains no longer rendered flushed and
 * deleted, and the jumps `present` does not hold yet inserted first.
 */
export function restoreInput(rs: PolicyRuleset, stale: readonly string[], present: ReadonlySet<string>): string {
  const lines = ['*filter'];
  for (const c of rs.chains) lines.push(`:${c.name} - [0:0]`);
  for (const s of stale) lines.push(`:${s} - [0:0]`);
  for (const c of rs.chains) for (const r of c.rules) lines.push(`-A ${c.name} ${r}`);
  for (const s of stale) lines.push(`-X ${s}`);
  // Inserted last-first, so each built-in chain ends up listing them in POLICY_JUMPS' order.
  for (const j of [...POLICY_JUMPS].reverse()) if (!present.has(`${j.from}>${j.to}`)) lines.push(`-I ${j.from} 1 ${quote(JUMP_COMMENT)} -j ${j.to}`);
  lines.push('COMMIT');
  return lines.join('\n') + '\n';
}

/** From `iptables-save -t filter`: our chains, and which jumps from built-in chains exist. */
export function parseSaved(save: string): { chains: string[]; jumps: Set<string> } {
  const chains: string[] = [];
  const jumps = new Set<string>();
  for (const l of save.split('\n')) {
    if (l.startsWith(`:${CHAIN_PREFIX}`)) chains.push(l.slice(1, l.indexOf(' ')));
    const m = /^-A (INPUT|FORWARD|OUTPUT) .*-j (KUBE-NWPLCY-\S+)$/.exec(l);
    if (m) jumps.add(`${m[1]}>${m[2]}`);
  }
  return { chains, jumps };
}

/** Our part of a kernel's `iptables-save -t filter`: the built-in chains' jumps to ours and our chains (what /rules shows in apply mode). */
export function policyPartOfSave(save: string): string {
  const out: string[] = [];
  for (const l of save.split('\n')) {
    if (l.startsWith('#')) continue;
    if (
      l === '*filter' ||
      l === 'COMMIT' ||
      /^:(INPUT|FORWARD|OUTPUT) /.test(l) ||
      l.startsWith(`:${CHAIN_PREFIX}`) ||
      l.startsWith(`-A ${CHAIN_PREFIX}`) ||
      /^-A (INPUT|FORWARD|OUTPUT) .*-j KUBE-NWPLCY-/.test(l)
    ) {
      out.push(l.replace(/^(:(INPUT|FORWARD|OUTPUT) ACCEPT) \[\d+:\d+\]$/, '$1 [0:0]'));
    }
  }
  return out.join('\n') + '\n';
}
