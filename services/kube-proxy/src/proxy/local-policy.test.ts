// internalTrafficPolicy / externalTrafficPolicy Local in all three modes
// (upstream CategorizeEndpoints and the KUBE-SVL / local- chains): Local
// traffic goes only to this node's endpoints; with none here it is dropped
// ("has no local endpoints"), while pods and the node itself still reach the
// Service through the cluster-wide chain (short-circuit rules).

import { describe, expect, it } from 'vitest';
import { localScenario } from '../testing/fixtures.js';
import { buildSnapshot } from './changetracker.js';
import { categorizeEndpoints } from './endpoints.js';
import { parseRestore } from './iptables/parse.js';
import { renderIptables } from './iptables/renderer.js';
import { toIptablesSave } from './iptables/save.js';
import { traceNat } from './iptables/trace.js';
import { renderIpvs, toIpvsadmList } from './ipvs/renderer.js';
import { toNftScript } from './nftables/model.js';
import { renderNftables } from './nftables/renderer.js';
import { defaultProxyConfig, type EndpointInfo } from './types.js';

const snap = () => {
  const s = localScenario();
  return buildSnapshot(s.services, s.slices, 'node-1');
};
const cfg = defaultProxyConfig();
const lines = (text: string) => text.split('\n');

describe('categorizeEndpoints', () => {
  const ep = (ip: string, isLocal: boolean, cond: Partial<EndpointInfo> = {}): EndpointInfo => ({
    ip,
    port: 80,
    endpoint: `${ip}:80`,
    ready: true,
    serving: true,
    terminating: false,
    isLocal,
    ...cond,
  });
  const svc = (itp: 'Cluster' | 'Local', etp: 'Cluster' | 'Local', nodePort = 0) => ({
    ...snap().services[0]!,
    internalTrafficPolicy: itp,
    externalTrafficPolicy: etp,
    nodePort,
    externalIPs: [],
    loadBalancerIPs: [],
  });

  it('uses local ready endpoints, else local serving+terminating ones, and knows endpoints exist elsewhere', () => {
    const all = [ep('10.0.0.1', true), ep('10.0.0.2', false)];
    expect(categorizeEndpoints(svc('Local', 'Cluster'), all)).toMatchObject({ cluster: [], local: [all[0]], allReachable: [all[0]], hasAny: true });
    const remoteOnly = [ep('10.0.0.2', false)];
    expect(categorizeEndpoints(svc('Local', 'Cluster'), remoteOnly)).toMatchObject({ local: [], allReachable: [], hasAny: true });
    const draining = [ep('10.0.0.1', true, { ready: false, terminating: true }), ep('10.0.0.2', false)];
    const c = categorizeEndpoints(svc('Cluster', 'Local', 30000), draining);
    expect(c.cluster.map((e) => e.ip)).toEqual(['10.0.0.2']);
    expect(c.local.map((e) => e.ip)).toEqual(['10.0.0.1']);
    expect(c.allReachable.map((e) => e.ip)).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('ignores externalTrafficPolicy Local on a Service nobody reaches from outside', () => {
    expect(snap().services.find((s) => s.name === 'default/itp:http')!.externalTrafficPolicy).toBe('Cluster');
    expect(snap().services.find((s) => s.name === 'default/etp-remote:http')!.healthCheckNodePort).toBe(32000);
  });
});

describe('iptables: traffic policy Local', () => {
  const rs = () => renderIptables(snap(), cfg);

  it("sends internalTrafficPolicy Local ClusterIP traffic to KUBE-SVL with only this node's endpoint", () => {
    const r = lines(rs().restore);
    expect(r).toContain('-A KUBE-SERVICES -m comment --comment "default/itp:http cluster IP" -m tcp -p tcp -d 10.96.0.20 --dport 80 -j KUBE-SVL-GJXMCQ2OIWJ5LBVO');
    expect(r.filter((l) => l.startsWith('-A KUBE-SVL-GJXMCQ2OIWJ5LBVO'))).toEqual([
      '-A KUBE-SVL-GJXMCQ2OIWJ5LBVO -m comment --comment "default/itp:http cluster IP" -m tcp -p tcp -d 10.96.0.20 --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ',
      '-A KUBE-SVL-GJXMCQ2OIWJ5LBVO -m comment --comment "default/itp:http -> 10.244.1.20:8080" -j KUBE-SEP-S7O6L7XAM67EFATA',
    ]);
    expect(rs().restore).not.toContain('10.244.2.21');
  });

  it('drops ClusterIP traffic of an internalTrafficPolicy Local Service with no local endpoints', () => {
    expect(lines(rs().restore)).toContain('-A KUBE-SERVICES -m comment --comment "default/itp-remote:http has no local endpoints" -m tcp -p tcp -d 10.96.0.21 --dport 80 -j DROP');
    expect(rs().restore).not.toContain('10.244.2.22');
  });

  it('writes the externalTrafficPolicy Local EXT chain: pod and node traffic short-circuit, the rest goes to KUBE-SVL', () => {
    expect(lines(rs().restore).filter((l) => l.startsWith('-A KUBE-EXT-2NVNINRDTAXBHMUX'))).toEqual([
      '-A KUBE-EXT-2NVNINRDTAXBHMUX -m comment --comment "pod traffic for default/etp:http external destinations" -s 10.244.0.0/16 -j KUBE-SVC-2NVNINRDTAXBHMUX',
      '-A KUBE-EXT-2NVNINRDTAXBHMUX -m comment --comment "masquerade LOCAL traffic for default/etp:http external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ',
      '-A KUBE-EXT-2NVNINRDTAXBHMUX -m comment --comment "route LOCAL traffic for default/etp:http external destinations" -m addrtype --src-type LOCAL -j KUBE-SVC-2NVNINRDTAXBHMUX',
      '-A KUBE-EXT-2NVNINRDTAXBHMUX -j KUBE-SVL-2NVNINRDTAXBHMUX',
    ]);
  });

  it('drops external traffic without local endpoints in the filter table and opens the health check node port', () => {
    const r = lines(rs().restore);
    expect(r).toContain('-A KUBE-EXTERNAL-SERVICES -m comment --comment "default/etp-remote:http has no local endpoints" -m tcp -p tcp -d 192.0.2.10 --dport 80 -j DROP');
    expect(r).toContain('-A KUBE-EXTERNAL-SERVICES -m comment --comment "default/etp-remote:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 30091 -j DROP');
    expect(r).toContain('-A KUBE-NODEPORTS -m comment --comment "default/etp-remote:http health check node port" -m tcp -p tcp --dport 32000 -j ACCEPT');
    // The EXT chain exists for the short-circuit rules but has no jump to a policy chain.
    expect(r.filter((l) => l.startsWith('-A KUBE-EXT-UPA6WHXWTBSIBUSG')).map((l) => l.split(' -j ')[1])).toEqual(['KUBE-SVC-UPA6WHXWTBSIBUSG', 'KUBE-MARK-MASQ', 'KUBE-SVC-UPA6WHXWTBSIBUSG']);
  });

  // Packets traced through the nat table as iptables-save prints it.
  const nat = () => parseRestore(toIptablesSave(rs())).get('nat')!;
  const trace = (src: string, dst: string, dport: number, start: 'PREROUTING' | 'OUTPUT' = 'PREROUTING') =>
    traceNat(nat(), { src, dst, protocol: 'tcp', dport, localAddresses: ['192.168.50.2'] }, start)
      .map((o) => ({ to: o.to, p: Number(o.probability.toFixed(3)), masq: o.masquerade }))
      .sort((a, b) => String(a.to).localeCompare(String(b.to)));

  it("keeps a client's source IP on a NodePort with externalTrafficPolicy Local and uses only the local endpoint", () => {
    expect(trace('203.0.113.7', '192.168.50.2', 30090)).toEqual([{ to: '10.244.1.22:8080', p: 1, masq: false }]);
    // The node itself reaching its own NodePort: masqueraded, all endpoints.
    expect(trace('192.168.50.2', '192.168.50.2', 30090, 'OUTPUT')).toEqual([
      { to: '10.244.1.22:8080', p: 0.5, masq: true },
      { to: '10.244.2.23:8080', p: 0.5, masq: true },
    ]);
  });

  it('lets nothing from outside through a Local NodePort without local endpoints (the filter table drops it)', () => {
    expect(trace('203.0.113.7', '192.168.50.2', 30091)).toEqual([{ to: undefined, p: 1, masq: false }]);
  });

  it('lets a pod reach an externalTrafficPolicy Local NodePort through all endpoints', () => {
    expect(trace('10.244.1.100', '192.168.50.2', 30090)).toEqual([
      { to: '10.244.1.22:8080', p: 0.5, masq: false },
      { to: '10.244.2.23:8080', p: 0.5, masq: false },
    ]);
  });

  it("sends a pod's internalTrafficPolicy Local ClusterIP traffic only to the endpoint on this node", () => {
    expect(trace('10.244.1.100', '10.96.0.20', 80)).toEqual([{ to: '10.244.1.20:8080', p: 1, masq: false }]);
  });
});

describe('nftables: traffic policy Local', () => {
  const script = () => lines(toNftScript(renderNftables(snap(), cfg)));

  it("maps an internalTrafficPolicy Local ClusterIP to the local- chain with only this node's endpoint", () => {
    expect(script()).toContain('add element ip kube-proxy service-ips { 10.96.0.20 . tcp . 80 : goto local-J53PG4IO-default/itp/tcp/http }');
    expect(script()).toContain('add rule ip kube-proxy local-J53PG4IO-default/itp/tcp/http numgen random mod 1 vmap { 0 : goto endpoint-VA65X5CL-default/itp/tcp/http__10.244.1.20/8080 }');
    expect(script().join('\n')).not.toContain('10.244.2.21');
  });

  it('drops traffic for Local policies without local endpoints through no-endpoint-services / -nodeports', () => {
    expect(script()).toContain('add element ip kube-proxy no-endpoint-services { 10.96.0.21 . tcp . 80 comment "default/itp-remote:http" : drop }');
    expect(script()).toContain('add element ip kube-proxy no-endpoint-services { 192.0.2.10 . tcp . 80 comment "default/etp-remote:http" : drop }');
    expect(script()).toContain('add element ip kube-proxy no-endpoint-nodeports { tcp . 30091 comment "default/etp-remote:http" : drop }');
  });

  it('short-circuits pod and node traffic in the external- chain and sends the rest to local-', () => {
    expect(script().filter((l) => l.startsWith('add rule ip kube-proxy external-376C4U7L-default/etp/tcp/http '))).toEqual([
      'add rule ip kube-proxy external-376C4U7L-default/etp/tcp/http ip saddr 10.244.0.0/16 goto service-376C4U7L-default/etp/tcp/http comment "short-circuit pod traffic"',
      'add rule ip kube-proxy external-376C4U7L-default/etp/tcp/http fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"',
      'add rule ip kube-proxy external-376C4U7L-default/etp/tcp/http fib saddr type local goto service-376C4U7L-default/etp/tcp/http comment "short-circuit local traffic"',
      'add rule ip kube-proxy external-376C4U7L-default/etp/tcp/http goto local-376C4U7L-default/etp/tcp/http',
    ]);
    expect(script()).toContain('add rule ip kube-proxy local-376C4U7L-default/etp/tcp/http numgen random mod 1 vmap { 0 : goto endpoint-RCD6HTHO-default/etp/tcp/http__10.244.1.22/8080 }');
  });
});

describe('ipvs: traffic policy Local', () => {
  it("gives Local virtual servers only this node's endpoints, and none when there are none here", () => {
    const list = toIpvsadmList(renderIpvs(snap(), defaultProxyConfig({ nodeIPs: ['192.168.50.2'] })));
    const block = (vs: string) => {
      const l = lines(list);
      const i = l.findIndex((x) => x.startsWith(`TCP  ${vs} `));
      const out: string[] = [];
      for (let j = i + 1; j < l.length && l[j]!.startsWith('  ->'); j++) out.push(l[j]!.trim().split(/\s+/)[1]!);
      return out;
    };
    expect(block('10.96.0.20:80')).toEqual(['10.244.1.20:8080']);
    expect(block('10.96.0.21:80')).toEqual([]);
    // ClusterIP of an eTP=Local service stays cluster-wide; its NodePort is local only.
    expect(block('10.96.0.22:80')).toEqual(['10.244.1.22:8080', '10.244.2.23:8080']);
    expect(block('192.168.50.2:30090')).toEqual(['10.244.1.22:8080']);
    expect(block('192.0.2.10:80')).toEqual([]);
    expect(block('192.168.50.2:30091')).toEqual([]);
  });
});
