// The ipvs backend as a pure function (upstream pkg/proxy/ipvs/proxier.go):
// every service IP is bound to the dummy interface kube-ipvs0 so the kernel
// accepts packets for it, and each IP:port is an IPVS virtual server whose
// real servers are the endpoints, balanced by a scheduler (rr by default).
// Upstream additionally keeps ipset/iptables rules for masquerading; kubelab
// renders the IPVS part, the one this mode is about.

import { parseIpv4 } from '@kubelab/api';
import { categorizeEndpoints } from '../endpoints.js';
import type { EndpointInfo, ProxyConfig, ProxySnapshot } from '../types.js';

export const KUBE_IPVS_INTERFACE = 'kube-ipvs0';

export interface RealServer {
  ip: string;
  port: number;
  /** 1 for serving endpoints; 0 drains a terminating one (graceful termination). */
  weight: number;
}

export interface VirtualServer {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  address: string;
  port: number;
  scheduler: string;
  /** Persistence timeout in seconds for sessionAffinity ClientIP. */
  persistentSeconds?: number;
  /** The ServicePortName this virtual server belongs to. */
  service: string;
  realServers: RealServer[];
}

export interface IpvsRuleset {
  interface: string;
  /** Addresses bound to kube-ipvs0 (ClusterIPs, external IPs), sorted. */
  addresses: string[];
  virtualServers: VirtualServer[];
  ruleCount: number;
}

/** Numeric order of addresses (10.0.0.9 before 10.0.0.10); anything not IPv4 first. */
function ipKey(ip: string): number {
  return parseIpv4(ip) ?? -1;
}

export function renderIpvs(snap: ProxySnapshot, cfg: ProxyConfig): IpvsRuleset {
  const addresses = new Set<string>();
  const vss: VirtualServer[] = [];
  for (const svc of snap.services) {
    const eps = categorizeEndpoints(svc, snap.endpoints.get(svc.name) ?? []);
    // Terminating endpoints stay as weight-0 real servers: no new connections.
    const reals = (list: EndpointInfo[]) => list.map((e) => ({ ip: e.ip, port: e.port, weight: e.terminating ? 0 : 1 }));
    // Local policy: only this node's endpoints (upstream syncEndpoint with onlyNodeLocalEndpoints).
    const internal = reals(svc.internalTrafficPolicy === 'Local' ? eps.local : eps.cluster);
    const external = reals(svc.externalTrafficPolicy === 'Local' ? eps.local : eps.cluster);
    const vs = (address: string, port: number, realServers: RealServer[]): VirtualServer => ({
      protocol: svc.protocol,
      address,
      port,
      scheduler: cfg.ipvsScheduler,
      ...(svc.sessionAffinity === 'ClientIP' ? { persistentSeconds: svc.stickyMaxAgeSeconds } : {}),
      service: svc.name,
      realServers,
    });
    addresses.add(svc.clusterIP);
    vss.push(vs(svc.clusterIP, svc.port, internal));
    for (const ip of [...svc.externalIPs, ...svc.loadBalancerIPs]) {
      addresses.add(ip);
      vss.push(vs(ip, svc.port, external));
    }
    if (svc.nodePort > 0) for (const ip of cfg.nodeIPs) vss.push(vs(ip, svc.nodePort, external));
  }
  vss.sort((a, b) => ipKey(a.address) - ipKey(b.address) || a.port - b.port || a.protocol.localeCompare(b.protocol));
  const ruleCount = vss.reduce((n, v) => n + 1 + v.realServers.length, 0);
  return { interface: KUBE_IPVS_INTERFACE, addresses: [...addresses].sort((a, b) => ipKey(a) - ipKey(b)), virtualServers: vss, ruleCount };
}

const FLAG: Record<string, string> = { TCP: '-t', UDP: '-u', SCTP: '--sctp-service' };

/** The commands that program this ruleset from scratch (`ip` and `ipvsadm`). */
export function toIpvsCommands(rs: IpvsRuleset): string[][] {
  const cmds: string[][] = [['ip', 'link', 'add', rs.interface, 'type', 'dummy']];
  for (const a of rs.addresses) cmds.push(['ip', 'addr', 'add', `${a}/32`, 'dev', rs.interface]);
  cmds.push(['ipvsadm', '-C']);
  for (const vs of rs.virtualServers) {
    const svc = [FLAG[vs.protocol]!, `${vs.address}:${vs.port}`];
    cmds.push(['ipvsadm', '-A', ...svc, '-s', vs.scheduler, ...(vs.persistentSeconds ? ['-p', String(vs.persistentSeconds)] : [])]);
    for (const r of vs.realServers) cmds.push(['ipvsadm', '-a', ...svc, '-r', `${r.ip}:${r.port}`, '-m', '-w', String(r.weight)]);
  }
  return cmds;
}

/** The commands as a shell script a learner can read. */
export function toIpvsScript(rs: IpvsRuleset): string {
  return (
    toIpvsCommands(rs)
      .map((c) => c.join(' '))
      .join('\n') + '\n'
  );
}

/** The table as `ipvsadm -Ln` prints it (connection counters at 0). */
export function toIpvsadmList(rs: IpvsRuleset): string {
  const out = ['IP Virtual Server version 1.2.1 (size=4096)', 'Prot LocalAddress:Port Scheduler Flags', '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn'];
  for (const vs of rs.virtualServers) {
    const proto = vs.protocol === 'SCTP' ? 'SCTP' : vs.protocol;
    out.push(`${proto.padEnd(4)} ${`${vs.address}:${vs.port}`} ${vs.scheduler}${vs.persistentSeconds ? ` persistent ${vs.persistentSeconds}` : ''}`);
    for (const r of vs.realServers) {
      out.push(`  -> ${`${r.ip}:${r.port}`.padEnd(28)} ${'Masq'.padEnd(7)} ${String(r.weight).padEnd(6)} ${'0'.padEnd(10)} 0`);
    }
  }
  return out.join('\n') + '\n';
}
