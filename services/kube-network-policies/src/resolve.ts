// Which peers and ports a NetworkPolicy allows, resolved from the informers'
// pods, namespaces and policies: the pure selection step both data paths
// share. The iptables renderer (render.ts) turns it into chains for the
// compose nodes; for the local runner, decisionInput flattens it into the
// per-pod allow lists the runtime's connect hook matches (policies.json in
// the socket-LB directory, as Cilium's agent fills the policy maps its
// datapath consults).

import { formatIpv4Cidr, labelSelectorAsSelector, parseIpv4Cidr, type Namespace, type NetworkPolicy, type NetworkPolicyPeer, type NetworkPolicyPort, type Pod } from '@kubelab/api';

export type Direction = 'ingress' | 'egress';

/** One port entry as the data path matches it: a protocol, and a port or range (none: every port). */
export interface PortSpec {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  port?: number;
  endPort?: number;
}

const PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP']);

/** Pods that have their own address on the pod network: running or pending with an IP, not hostNetwork. */
export function hasPodIP(p: Pod): boolean {
  return !!p.status?.podIP && !p.spec?.hostNetwork && p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed';
}

export function selectorOf(sel: Parameters<typeof labelSelectorAsSelector>[0]): { matches(labels: Record<string, string> | undefined): boolean } {
  try {
    return labelSelectorAsSelector(sel);
  } catch {
    // Validation refuses bad selectors; one read from an older object selects nothing.
    return { matches: () => false };
  }
}

/** An address block as iptables prints it (network address; '' for /0); undefined for what iptables (IPv4) cannot hold. */
export function cidrArg(text: string): string | undefined {
  const c = parseIpv4Cidr(text.includes('/') ? text : `${text}/32`);
  if (!c) return undefined;
  return c.prefix === 0 ? '' : formatIpv4Cidr(c);
}

/** A port entry resolved on `pod` (a named port is that pod's container port of the name and protocol); [] when it cannot match. */
export function resolvePort(port: NetworkPolicyPort, pod: Pod | undefined): PortSpec[] {
  const protocol = port.protocol ?? 'TCP';
  if (!PROTOCOLS.has(protocol)) return [];
  const p = protocol as PortSpec['protocol'];
  if (port.port === undefined || port.port === null) return [{ protocol: p }];
  if (typeof port.port === 'number') {
    return [port.endPort !== undefined && port.endPort !== null && port.endPort > port.port ? { protocol: p, port: port.port, endPort: port.endPort } : { protocol: p, port: port.port }];
  }
  const numbers = new Set<number>();
  for (const c of pod?.spec?.containers ?? []) {
    for (const cp of c.ports ?? []) if (cp.name === port.port && (cp.protocol ?? 'TCP') === protocol) numbers.add(cp.containerPort);
  }
  return [...numbers].sort((a, b) => a - b).map((n) => ({ protocol: p, port: n }));
}

export function policyTypesOf(np: NetworkPolicy): { ingress: boolean; egress: boolean } {
  const types = np.spec?.policyTypes?.length ? np.spec.policyTypes : np.spec?.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
  return { ingress: types.includes('Ingress'), egress: types.includes('Egress') };
}

const byKey = <T extends { metadata: { namespace?: string; name?: string } }>(a: T, b: T) => {
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`;
  const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** A policy rule's peers after selection: address blocks, and the pods the selectors pick. */
export type ResolvedPeer = { ipBlock: { cidr: string; except: string[] } } | { pod: Pod };

export interface ResolvedRule {
  policy: NetworkPolicy;
  index: number;
  /** The rule's port entries (unresolved: ingress resolves them on the selected pod, egress on each destination pod). */
  ports: NetworkPolicyPort[];
  /** The rule's peers; [] when it names none (every source / destination). */
  peers: NetworkPolicyPeer[];
}

/** Selection over one snapshot of the informers: the pods with addresses, the policies, namespace labels. */
export class PolicySelection {
  readonly pods: Pod[];
  readonly policies: NetworkPolicy[];
  private readonly nsLabels = new Map<string, Record<string, string>>();

  constructor(input: { pods: readonly Pod[]; namespaces: readonly Namespace[]; policies: readonly NetworkPolicy[] }) {
    this.pods = input.pods.filter(hasPodIP).sort(byKey);
    this.policies = [...input.policies].sort(byKey);
    for (const ns of input.namespaces) {
      const name = ns.metadata.name ?? '';
      this.nsLabels.set(name, { 'kubernetes.io/metadata.name': name, ...(ns.metadata.labels ?? {}) });
    }
  }

  private labelsOfNs(name: string): Record<string, string> {
    return this.nsLabels.get(name) ?? { 'kubernetes.io/metadata.name': name };
  }

  /** The pods a peer's selectors pick, for a policy in namespace `ns`. */
  peerPods(ns: string, peer: NetworkPolicyPeer): Pod[] {
    const podSel = peer.podSelector ? selectorOf(peer.podSelector) : undefined;
    const nsSel = peer.namespaceSelector ? selectorOf(peer.namespaceSelector) : undefined;
    return this.pods.filter((p) => {
      const pns = p.metadata.namespace ?? '';
      if (nsSel ? !nsSel.matches(this.labelsOfNs(pns)) : pns !== ns) return false;
      return podSel ? podSel.matches(p.metadata.labels) : true;
    });
  }

  /** A peer's addresses: its ipBlock, or each selected pod. */
  resolvePeer(ns: string, peer: NetworkPolicyPeer): ResolvedPeer[] {
    if (peer.ipBlock) return [{ ipBlock: { cidr: peer.ipBlock.cidr, except: peer.ipBlock.except ?? [] } }];
    return this.peerPods(ns, peer).map((pod) => ({ pod }));
  }

  /** The rules of the policies of type `dir` that select `pod`; undefined when none selects it (not isolated). */
  rulesFor(pod: Pod, dir: Direction): ResolvedRule[] | undefined {
    const selecting = this.policies.filter((np) => np.metadata.namespace === pod.metadata.namespace && policyTypesOf(np)[dir] && selectorOf(np.spec?.podSelector ?? {}).matches(pod.metadata.labels));
    if (selecting.length === 0) return undefined;
    const out: ResolvedRule[] = [];
    for (const np of selecting) {
      const list = dir === 'ingress' ? (np.spec?.ingress ?? []) : (np.spec?.egress ?? []);
      list.forEach((rule, index) => {
        const peers = ((dir === 'ingress' ? (rule as { from?: NetworkPolicyPeer[] }).from : (rule as { to?: NetworkPolicyPeer[] }).to) ?? []).filter(Boolean);
        out.push({ policy: np, index, ports: (rule?.ports ?? []).filter(Boolean), peers });
      });
    }
    return out;
  }
}

/** A peer set's entry: an address or block (any port), or a block with excepts and/or the destination's ports (egress). */
export type PeerEntry = string | { cidr: string; except?: string[]; ports?: PortSpec[] };

/** One allow entry of a pod's list: a peer set (absent: any remote address) and the pod's own ports (absent: any). */
export interface AllowEntry {
  peers?: string;
  ports?: PortSpec[];
}

/**
 * The connect hook's input: per pod IP isolated for a direction, what it
 * allows (ingress: from which sources to which of its ports; egress: to which
 * destinations and their ports). A pod IP absent from a direction is not
 * isolated there; an empty list allows nothing. Peer sets are per policy
 * rule (`ingress/<ns>/<name>/<i>`), shared by every pod the policy selects,
 * as the renderer's rule chains (and ipsets) are.
 */
export interface PolicyDecisionInput {
  peers: Record<string, PeerEntry[]>;
  ingress: Record<string, AllowEntry[]>;
  egress: Record<string, AllowEntry[]>;
}

/** Every pod's allow lists (not only this node's: in the local runner the client's node judges the server's ingress too). Pure. */
export function decisionInput(input: { pods: readonly Pod[]; namespaces: readonly Namespace[]; policies: readonly NetworkPolicy[] }): PolicyDecisionInput {
  const sel = new PolicySelection(input);
  const out: PolicyDecisionInput = { peers: {}, ingress: {}, egress: {} };
  const block = (cidr: string, except: string[], ports: PortSpec[] | undefined): PeerEntry | undefined => {
    const c = cidrArg(cidr);
    if (c === undefined) return undefined;
    const ex = except.map(cidrArg).flatMap((e) => (e === undefined ? [] : [e || '0.0.0.0/0']));
    return ex.length || ports ? { cidr: c || '0.0.0.0/0', ...(ex.length ? { except: ex } : {}), ...(ports ? { ports } : {}) } : c || '0.0.0.0/0';
  };
  /** A rule's peer set; egress entries carry each destination's ports (named ones resolved there, none on an ipBlock). */
  const peerSet = (rule: ResolvedRule, dir: Direction): string => {
    const id = `${dir}/${rule.policy.metadata.namespace ?? ''}/${rule.policy.metadata.name ?? ''}/${rule.index}`;
    if (out.peers[id]) return id;
    const ns = rule.policy.metadata.namespace ?? '';
    const named = rule.ports.some((p) => typeof p.port === 'string');
    // Egress rules without peers reach every address; named ports exist only on pods, so those are resolved on every pod.
    const peers: NetworkPolicyPeer[] = rule.peers.length ? rule.peers : named ? [{ podSelector: {}, namespaceSelector: {} }, { ipBlock: { cidr: '0.0.0.0/0' } }] : [{ ipBlock: { cidr: '0.0.0.0/0' } }];
    const entries: PeerEntry[] = [];
    for (const peer of peers) {
      for (const r of sel.resolvePeer(ns, peer)) {
        const ports = dir === 'egress' && rule.ports.length ? rule.ports.flatMap((p) => resolvePort(p, 'pod' in r ? r.pod : undefined)) : undefined;
        if (ports && ports.length === 0) continue;
        const e = 'pod' in r ? (ports ? { cidr: `${r.pod.status!.podIP}/32`, ports } : r.pod.status!.podIP!) : block(r.ipBlock.cidr, r.ipBlock.except, ports);
        if (e !== undefined) entries.push(e);
      }
    }
    out.peers[id] = entries;
    return id;
  };
  for (const pod of sel.pods) {
    const ip = pod.status!.podIP!;
    for (const dir of ['ingress', 'egress'] as const) {
      const rules = sel.rulesFor(pod, dir);
      if (!rules) continue;
      const allow: AllowEntry[] = [];
      for (const rule of rules) {
        if (dir === 'ingress') {
          // Ingress ports are this pod's (named ports resolved here).
          const ports = rule.ports.length ? rule.ports.flatMap((p) => resolvePort(p, pod)) : undefined;
          if (ports && ports.length === 0) continue;
          allow.push({ ...(rule.peers.length ? { peers: peerSet(rule, dir) } : {}), ...(ports ? { ports } : {}) });
        } else {
          allow.push(rule.peers.length || rule.ports.length ? { peers: peerSet(rule, dir) } : {});
        }
      }
      out[dir][ip] = allow;
    }
  }
  return out;
}
