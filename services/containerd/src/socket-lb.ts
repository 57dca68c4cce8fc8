// The local runner's pod network, in the style of Cilium's socket-LB: no
// packets are rewritten; a container's connect() (and a UDP send) is
// translated once, at connect time, from the address it names to the
// 127.0.0.1 port where that pod's port is really served (loopback mode).
// Two maps, each a JSON file in the node's socket-LB directory (the role of
// pinned BPF maps, /run/kubelab/socket-lb under the node root):
//   pods.json      pod IP → { "80/TCP": "127.0.0.1:41234", "53/UDP": … }:
//                  every node's sandboxes, kept by this node's containerd
//                  (pod-map.ts: each runtime publishes its own on NATS and
//                  keeps the union);
//   services.json  { frontends: { "10.96.0.10:53/UDP": ["10.244.1.3:53", …] } }:
//                  the Service frontends (ClusterIP, external and
//                  load-balancer IPs) and their usable endpoints, written by
//                  this node's kube-proxy after each sync (it programs the
//                  data path; this hook is the "kernel");
//   policies.json  { ingress: { <pod IP>: [allow…] }, egress: { … } }: every
//                  pod isolated by a NetworkPolicy and what it allows
//                  (remote block with excepts, ports), resolved by this node's
//                  kube-network-policies agent; checked on the chosen
//                  endpoint (after the "DNAT", as the filter chains are) with
//                  the dialling pod's IP as the source. Denied: a timeout, as
//                  the KUBE-NWPLCY chains' DROP gives.
// A decision is what Linux gives a socket: a destination, a refusal
// (no listener: RST; a Service without endpoints: kube-proxy's REJECT) or
// a timeout (an address no route leads to; a SYN nobody answers).

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ipv4CidrContains, parseIpv4, parseIpv4Cidr } from '@kubelab/api/ipv4';

export type L4 = 'TCP' | 'UDP';
/** Pod IP → `<port>/<proto>` → `127.0.0.1:<hostPort>`. */
export type PodMap = Record<string, Record<string, string>>;
/** `<ip>:<port>/<proto>` → the endpoints (`<ip>:<port>`) it balances over. */
export type Frontends = Record<string, string[]>;

type PolicyPorts = { protocol: string; port?: number; endPort?: number }[];
/** A peer set's entry: an address or block (any port), or a block with excepts and/or the destination's ports. */
export type PolicyPeer = string | { cidr?: string; except?: string[]; ports?: PolicyPorts };
/** One entry of a pod's allow list: a peer set by name (absent: any address) and the pod's own ports (absent: any). */
export interface PolicyAllow {
  peers?: string;
  ports?: PolicyPorts;
}
/** Per pod IP isolated for that direction, what it allows (an empty list: nothing); a pod IP absent is not isolated. */
export interface PolicyMaps {
  peers?: Record<string, PolicyPeer[]>;
  ingress: Record<string, PolicyAllow[]>;
  egress: Record<string, PolicyAllow[]>;
}
export interface SocketLbView {
  pods: PodMap;
  frontends: Frontends;
  policies?: PolicyMaps;
}

export type Decision = { hostIp: string; hostPort: number; endpoint?: string } | { error: 'ECONNREFUSED' | 'ETIMEDOUT' };

export const PODS_FILE = 'pods.json';
export const SERVICES_FILE = 'services.json';
export const POLICIES_FILE = 'policies.json';

/** The key of a port in the pod map: a sandbox's `80` (TCP) or `53/UDP` as `80/TCP`, `53/UDP`. */
export function portKey(sandboxPort: string): string {
  return sandboxPort.includes('/') ? sandboxPort : `${sandboxPort}/TCP`;
}

function splitHostPort(s: string): { host: string; port: number } | undefined {
  const i = s.lastIndexOf(':');
  const port = Number(s.slice(i + 1));
  return i > 0 && Number.isInteger(port) && port > 0 && port < 65536 ? { host: s.slice(0, i), port } : undefined;
}

function inBlock(cidr: string, addr: number): boolean {
  const c = parseIpv4Cidr(cidr.includes('/') ? cidr : `${cidr}/32`);
  return !!c && ipv4CidrContains(c, addr);
}

function portsMatch(ports: unknown, port: number, proto: L4): boolean {
  if (!Array.isArray(ports)) return true;
  return ports.some((p: PolicyPorts[number]) => {
    if (typeof p !== 'object' || p === null || p.protocol !== proto) return false;
    if (typeof p.port !== 'number') return true;
    return typeof p.endPort === 'number' ? port >= p.port && port <= p.endPort : port === p.port;
  });
}

function peerMatches(e: PolicyPeer, remote: number, port: number, proto: L4): boolean {
  if (typeof e === 'string') return inBlock(e, remote);
  if (!isRecord(e)) return false;
  if (typeof e.cidr === 'string' && !inBlock(e.cidr, remote)) return false;
  if (Array.isArray(e.except) && e.except.some((x) => typeof x === 'string' && inBlock(x, remote))) return false;
  return portsMatch(e.ports, port, proto);
}

function allowMatches(sets: Record<string, PolicyPeer[]>, a: PolicyAllow, remote: number, port: number, proto: L4): boolean {
  if (!isRecord(a) || !portsMatch(a.ports, port, proto)) return false;
  const id: unknown = a.peers;
  if (id === undefined) return true;
  const set = typeof id === 'string' ? sets[id] : undefined;
  return Array.isArray(set) && set.some((e) => peerMatches(e, remote, port, proto));
}

/**
 * Whether NetworkPolicy lets a connection from pod IP `src` reach `dst:port`:
 * the source's egress allow list (when it is isolated for egress) must match
 * the destination and its port, and the destination's ingress list (when
 * isolated for ingress) the source and the port. Pure.
 */
export function policyAllows(policies: PolicyMaps | undefined, src: string | undefined, dst: string, port: number, proto: L4): boolean {
  if (!policies) return true;
  const sets = isRecord(policies.peers) ? policies.peers : {};
  const check = (list: unknown, remote: string): boolean => {
    if (!Array.isArray(list)) return true;
    const addr = parseIpv4(remote);
    return addr !== undefined && list.some((a: PolicyAllow) => allowMatches(sets, a, addr, port, proto));
  };
  const egress = src && isRecord(policies.egress) ? policies.egress[src] : undefined;
  const ingress = isRecord(policies.ingress) ? policies.ingress[dst] : undefined;
  return check(egress, dst) && (src === undefined || check(ingress, src));
}

/** A pod's port: its loopback address, refused when nothing listens, a timeout when no pod has the IP. */
function podPort(pods: PodMap, ip: string, port: number, proto: L4): Decision {
  const ports = pods[ip];
  if (!isRecord(ports)) return { error: 'ETIMEDOUT' };
  const at = ports[`${port}/${proto}`];
  const hp = typeof at === 'string' ? splitHostPort(at) : undefined;
  return hp ? { hostIp: hp.host, hostPort: hp.port } : { error: 'ECONNREFUSED' };
}

/**
 * Where a connection to ip:port/proto from a pod goes. A Service frontend
 * picks one of its endpoints at random (kube-proxy's iptables mode, which
 * also chooses at random per connection), then that pod's port; a Service
 * without endpoints refuses. Pure: `pick` chooses an index.
 */
export function translate(maps: SocketLbView, ip: string, port: number, proto: L4, pick: (n: number) => number = (n) => Math.floor(Math.random() * n), src?: string): Decision {
  // The filter chains see the packet after the DNAT: policy applies to the endpoint chosen; a DROP is a SYN never answered.
  const denied = (dst: string, dport: number) => !policyAllows(maps.policies, src, dst, dport, proto);
  const endpoints = maps.frontends[`${ip}:${port}/${proto}`];
  if (Array.isArray(endpoints)) {
    if (!endpoints.length) return { error: 'ECONNREFUSED' };
    const endpoint = endpoints[Math.min(endpoints.length - 1, Math.max(0, pick(endpoints.length)))]!;
    const ep = typeof endpoint === 'string' ? splitHostPort(endpoint) : undefined;
    if (!ep || denied(ep.host, ep.port)) return { error: 'ETIMEDOUT' };
    // An endpoint on the host's network (the apiserver behind `kubernetes`): the local runner's nodes are 127.0.0.1.
    if (ep.host === '127.0.0.1') return { hostIp: ep.host, hostPort: ep.port, endpoint };
    const d = podPort(maps.pods, ep.host, ep.port, proto);
    return 'error' in d ? d : { ...d, endpoint };
  }
  if (denied(ip, port)) return { error: 'ETIMEDOUT' };
  return podPort(maps.pods, ip, port, proto);
}

/** Reads the two maps from a socket-LB directory, again only when a file changed; a bad or missing file counts as empty. */
export class SocketLbMaps {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; value: unknown }>();

  constructor(readonly dir: string) {}

  private read(name: string): unknown {
    const path = join(this.dir, name);
    let st;
    try {
      st = statSync(path);
    } catch {
      this.cache.delete(name);
      return undefined;
    }
    const hit = this.cache.get(name);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.value;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      // Written by rename, so a torn file is not expected; keep what was read before.
      return hit?.value;
    }
    this.cache.set(name, { mtimeMs: st.mtimeMs, size: st.size, value });
    return value;
  }

  maps(): SocketLbView {
    const pods = this.read(PODS_FILE);
    const services = this.read(SERVICES_FILE) as { frontends?: unknown } | undefined;
    const policies = this.read(POLICIES_FILE);
    return {
      pods: isRecord(pods) ? (pods as PodMap) : {},
      frontends: isRecord(services?.frontends) ? (services.frontends as Frontends) : {},
      ...(isRecord(policies) ? { policies: policies as unknown as PolicyMaps } : {}),
    };
  }

  /** `src`: the dialling pod's IP, the source NetworkPolicy sees. */
  decide(ip: string, port: number, proto: L4, src?: string): Decision {
    return translate(this.maps(), ip, port, proto, undefined, src);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
