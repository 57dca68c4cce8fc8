import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dialTcp } from './network.js';
import { policyAllows, SocketLbMaps, translate, type Decision, type L4, type PolicyMaps } from './socket-lb.js';
import { localPodMap, parsePodMapMessage, unionPodMaps } from './pod-map.js';
import { resolveHost, udpTransport } from './resolver.js';
import { startDnsFixture } from './testing/dns-fixture.js';

const maps = {
  pods: {
    '10.244.1.2': { '80/TCP': '127.0.0.1:41001' },
    '10.244.2.3': { '80/TCP': '127.0.0.1:41002', '53/UDP': '127.0.0.1:41003' },
    '10.244.2.4': {},
  },
  frontends: {
    '10.96.0.20:80/TCP': ['10.244.1.2:80', '10.244.2.3:80'],
    '10.96.0.10:53/UDP': ['10.244.2.3:53'],
    '10.96.0.30:80/TCP': [],
    '10.96.0.40:80/TCP': ['10.244.9.9:80'],
    '10.96.0.1:443/TCP': ['127.0.0.1:6443'],
    '10.250.0.1:8080/TCP': ['10.244.1.2:80'],
  },
};

describe('socket-LB translation at connect time', () => {
  it.each<[string, string, number, L4, number, Decision]>([
    ["another pod's port: its loopback port", '10.244.1.2', 80, 'TCP', 0, { hostIp: '127.0.0.1', hostPort: 41001 }],
    ["a pod's UDP port", '10.244.2.3', 53, 'UDP', 0, { hostIp: '127.0.0.1', hostPort: 41003 }],
    ['a pod IP where nothing listens: RST', '10.244.2.4', 80, 'TCP', 0, { error: 'ECONNREFUSED' }],
    ['a TCP port of a pod that serves it over UDP only', '10.244.2.3', 53, 'TCP', 0, { error: 'ECONNREFUSED' }],
    ['an address no pod has: the SYN goes unanswered', '10.244.7.7', 80, 'TCP', 0, { error: 'ETIMEDOUT' }],
    ['a ClusterIP: the first endpoint picked', '10.96.0.20', 80, 'TCP', 0, { hostIp: '127.0.0.1', hostPort: 41001, endpoint: '10.244.1.2:80' }],
    ['a ClusterIP: the second endpoint picked', '10.96.0.20', 80, 'TCP', 1, { hostIp: '127.0.0.1', hostPort: 41002, endpoint: '10.244.2.3:80' }],
    ['the cluster DNS over UDP: a CoreDNS pod', '10.96.0.10', 53, 'UDP', 0, { hostIp: '127.0.0.1', hostPort: 41003, endpoint: '10.244.2.3:53' }],
    ['the cluster DNS over TCP: no such frontend, no such pod', '10.96.0.10', 53, 'TCP', 0, { error: 'ETIMEDOUT' }],
    ["a Service without endpoints: kube-proxy's REJECT", '10.96.0.30', 80, 'TCP', 0, { error: 'ECONNREFUSED' }],
    ['a ClusterIP on a port it does not serve: no rule, no route', '10.96.0.20', 81, 'TCP', 0, { error: 'ETIMEDOUT' }],
    ['an endpoint whose pod the map does not know (yet)', '10.96.0.40', 80, 'TCP', 0, { error: 'ETIMEDOUT' }],
    ['an endpoint on the host network (the apiserver)', '10.96.0.1', 443, 'TCP', 0, { hostIp: '127.0.0.1', hostPort: 6443, endpoint: '127.0.0.1:6443' }],
    ['a load-balancer IP', '10.250.0.1', 8080, 'TCP', 0, { hostIp: '127.0.0.1', hostPort: 41001, endpoint: '10.244.1.2:80' }],
  ])('%s', (_name, ip, port, proto, pick, want) => {
    expect(translate(maps, ip, port, proto, () => pick)).toEqual(want);
  });

  it('spreads connections over the endpoints at random', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const d = translate(maps, '10.96.0.20', 80, 'TCP');
      if ('endpoint' in d && d.endpoint) seen.add(d.endpoint);
    }
    expect([...seen].sort()).toEqual(['10.244.1.2:80', '10.244.2.3:80']);
  });
});

describe('NetworkPolicy at connect time (policies.json from the agent)', () => {
  // web 10.244.1.2 (80) behind 10.96.0.20 with a second endpoint 10.244.2.3; client 10.244.3.5, bb 10.244.3.6, a prod pod 10.244.4.7.
  const withPolicies = (policies: PolicyMaps) => ({ ...maps, pods: { ...maps.pods, '10.244.3.5': {}, '10.244.3.6': {}, '10.244.4.7': {} }, policies });
  const web = { hostIp: '127.0.0.1', hostPort: 41001 };
  const viaService = { ...web, endpoint: '10.244.1.2:80' };
  const timeout: Decision = { error: 'ETIMEDOUT' };
  const defaultDeny: PolicyMaps = { ingress: { '10.244.1.2': [], '10.244.2.3': [] }, egress: {} };
  const allowClient: PolicyMaps = {
    peers: { 'ingress/default/allow-client/0': ['10.244.3.5'] },
    ingress: { '10.244.1.2': [{ peers: 'ingress/default/allow-client/0', ports: [{ protocol: 'TCP', port: 80 }] }], '10.244.2.3': [] },
    egress: {},
  };
  /** One pod's ingress allowed from one peer set. */
  const from = (peers: PolicyMaps['peers'] & object, dst = '10.244.1.2'): PolicyMaps => ({ peers, ingress: { [dst]: Object.keys(peers).map((id) => ({ peers: id })) }, egress: {} });
  const egressTo = (src: string, entries: NonNullable<PolicyMaps['peers']>[string]): PolicyMaps => ({ peers: { 'egress/x': entries }, ingress: {}, egress: { [src]: [{ peers: 'egress/x' }] } });
  it.each<[string, PolicyMaps, string | undefined, string, number, L4, Decision]>([
    ['default-deny ingress: a pod IP dialled directly times out', defaultDeny, '10.244.3.6', '10.244.1.2', 80, 'TCP', timeout],
    ['default-deny ingress: through the Service, the chosen endpoint drops it', defaultDeny, '10.244.3.6', '10.96.0.20', 80, 'TCP', timeout],
    ['default-deny ingress: even a port nothing listens on times out (DROP before RST)', defaultDeny, '10.244.3.6', '10.244.1.2', 81, 'TCP', timeout],
    ['a Service without endpoints still refuses (REJECT comes first)', defaultDeny, '10.244.3.6', '10.96.0.30', 80, 'TCP', { error: 'ECONNREFUSED' }],
    ['allow from app=client: the client gets in', allowClient, '10.244.3.5', '10.96.0.20', 80, 'TCP', viaService],
    ['allow from app=client: bb still times out', allowClient, '10.244.3.6', '10.96.0.20', 80, 'TCP', timeout],
    ['allow from app=client on 80: another port is dropped', allowClient, '10.244.3.5', '10.244.1.2', 8080, 'TCP', timeout],
    ['allow from app=client on TCP 80: UDP 80 is dropped', allowClient, '10.244.3.5', '10.244.1.2', 80, 'UDP', timeout],
    ['a pod no policy isolates is reached by anyone', { ingress: { '10.244.1.2': [] }, egress: {} }, '10.244.3.6', '10.244.2.3', 53, 'UDP', { hostIp: '127.0.0.1', hostPort: 41003 }],
    ['namespaceSelector (the namespace’s pod IPs)', from({ 'ingress/ns': ['10.244.4.7/32'] }), '10.244.4.7', '10.244.1.2', 80, 'TCP', web],
    ['ipBlock: inside the block', from({ 'ingress/ipb': [{ cidr: '10.244.0.0/16', except: ['10.244.3.0/24'] }] }), '10.244.4.7', '10.244.1.2', 80, 'TCP', web],
    ['ipBlock: in an except', from({ 'ingress/ipb': [{ cidr: '10.244.0.0/16', except: ['10.244.3.0/24'] }] }), '10.244.3.5', '10.244.1.2', 80, 'TCP', timeout],
    ['a port range', { ingress: { '10.244.1.2': [{ ports: [{ protocol: 'TCP', port: 79, endPort: 81 }] }] }, egress: {} }, '10.244.3.6', '10.244.1.2', 80, 'TCP', web],
    ['a rule for every port of a protocol', { ingress: { '10.244.1.2': [{ ports: [{ protocol: 'TCP' }] }] }, egress: {} }, '10.244.3.6', '10.244.1.2', 80, 'TCP', web],
    ['default-deny egress: the client reaches nothing', { ingress: {}, egress: { '10.244.3.5': [] } }, '10.244.3.5', '10.96.0.20', 80, 'TCP', timeout],
    ['default-deny egress: nor the cluster DNS', { ingress: {}, egress: { '10.244.3.5': [] } }, '10.244.3.5', '10.96.0.10', 53, 'UDP', timeout],
    ['egress allowed to the endpoint pod and port', egressTo('10.244.3.5', [{ cidr: '10.244.1.2/32', ports: [{ protocol: 'TCP', port: 80 }] }]), '10.244.3.5', '10.96.0.20', 80, 'TCP', viaService],
    ['egress to the endpoint pod on another port', egressTo('10.244.3.5', [{ cidr: '10.244.1.2/32', ports: [{ protocol: 'TCP', port: 8080 }] }]), '10.244.3.5', '10.96.0.20', 80, 'TCP', timeout],
    ['egress is judged on the endpoint, not the ClusterIP', egressTo('10.244.3.5', ['10.96.0.0/12']), '10.244.3.5', '10.96.0.20', 80, 'TCP', timeout],
    ["another pod's egress policy does not apply", { ingress: {}, egress: { '10.244.3.5': [] } }, '10.244.3.6', '10.244.1.2', 80, 'TCP', web],
  ])('%s', (_name, policies, src, ip, port, proto, want) => {
    expect(translate(withPolicies(policies), ip, port, proto, () => 0, src)).toEqual(want);
  });

  it('a connection no policy applies to is as before; a hand-edited bad file denies nothing it cannot read', () => {
    expect(policyAllows(undefined, '10.244.3.6', '10.244.1.2', 80, 'TCP')).toBe(true);
    expect(policyAllows({ ingress: { '10.244.1.2': 'x' as never }, egress: {} }, '10.244.3.6', '10.244.1.2', 80, 'TCP')).toBe(true);
    expect(policyAllows(from({ bad: ['nonsense'] }), '10.244.3.6', '10.244.1.2', 80, 'TCP')).toBe(false);
    expect(policyAllows({ ingress: { '10.244.1.2': [{ peers: 'missing' }] }, egress: {} }, '10.244.3.6', '10.244.1.2', 80, 'TCP')).toBe(false);
  });

  it('reads policies.json beside the other maps', () => {
    const dir = mkdtempSync(join(tmpdir(), 'socketlb-'));
    try {
      writeFileSync(join(dir, 'pods.json'), JSON.stringify(maps.pods));
      writeFileSync(join(dir, 'policies.json'), JSON.stringify(defaultDeny));
      const lb = new SocketLbMaps(dir);
      expect(lb.decide('10.244.1.2', 80, 'TCP', '10.244.3.6')).toEqual(timeout);
      writeFileSync(join(dir, 'policies.json'), JSON.stringify({ ingress: {}, egress: {} }) + ' ');
      expect(lb.decide('10.244.1.2', 80, 'TCP', '10.244.3.6')).toEqual(web);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the pod address map', () => {
  it("is a node's ready sandboxes with a pod IP, ports keyed by protocol", () => {
    expect(
      localPodMap([
        { ip: '10.244.1.2', state: 'SANDBOX_READY', ports: { '80': { hostIp: '127.0.0.1', hostPort: 41001 }, '53/UDP': { hostIp: '127.0.0.1', hostPort: 41003 } } },
        { ip: '10.244.1.3', state: 'SANDBOX_NOTREADY', ports: {} },
        { ip: '', state: 'SANDBOX_READY', ports: { '10250': { hostIp: '127.0.0.1', hostPort: 10250 } } },
      ]),
    ).toEqual({ '10.244.1.2': { '80/TCP': '127.0.0.1:41001', '53/UDP': '127.0.0.1:41003' } });
  });

  it.each([
    ['not JSON', 'nope', undefined],
    ['no node', '{"pods":{}}', undefined],
    ['pods not an object', '{"node":"node-1","pods":[]}', undefined],
    ['non-string addresses dropped', '{"node":"node-1","pods":{"10.244.1.2":{"80/TCP":"127.0.0.1:1","81/TCP":5}}}', { node: 'node-1', pods: { '10.244.1.2': { '80/TCP': '127.0.0.1:1' } } }],
  ])('reads a published map leniently: %s', (_name, text, want) => {
    expect(parsePodMapMessage(text)).toEqual(want);
  });

  it("is the union of the nodes' maps, the latest heard winning an IP both claim", () => {
    expect(
      unionPodMaps([
        { pods: { '10.244.1.2': { '80/TCP': '127.0.0.1:2' } }, seen: 20 },
        { pods: { '10.244.1.2': { '80/TCP': '127.0.0.1:1' }, '10.244.2.2': {} }, seen: 10 },
      ]),
    ).toEqual({ '10.244.1.2': { '80/TCP': '127.0.0.1:2' }, '10.244.2.2': {} });
  });
});

describe("a loopback-mode container's connect and DNS through the maps", () => {
  let dir: string | undefined;
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('dials a ClusterIP to the pod behind it, refuses a pod port without listener, and resolves through the cluster DNS', async () => {
    server = createServer((s) => s.end('hello from web\n'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const webPort = (server.address() as AddressInfo).port;
    const dns = await startDnsFixture({ 'web.default.svc.cluster.local': { A: ['10.96.0.20'] } });
    dir = mkdtempSync(join(tmpdir(), 'socket-lb-'));
    writeFileSync(join(dir, 'pods.json'), JSON.stringify({ '10.244.1.2': { '80/TCP': `127.0.0.1:${webPort}` }, '10.244.2.3': { '53/UDP': `127.0.0.1:${dns.port}` } }));
    writeFileSync(join(dir, 'services.json'), JSON.stringify({ frontends: { '10.96.0.20:80/TCP': ['10.244.1.2:80'], '10.96.0.10:53/UDP': ['10.244.2.3:53'] } }));
    const lb = new SocketLbMaps(dir);
    try {
      const route = (ip: string, port: number) => lb.decide(ip, port, 'TCP');
      const sock = await dialTcp('loopback', '10.244.3.3', '10.96.0.20', 80, () => undefined, undefined, route);
      const text = await new Promise<string>((r) => {
        let b = '';
        sock.on('data', (d: Buffer) => (b += d.toString()));
        sock.on('end', () => r(b));
      });
      expect(text).toBe('hello from web\n');
      await expect(dialTcp('loopback', '10.244.3.3', '10.244.2.3', 80, () => undefined, undefined, route)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      // Without the maps a loopback pod reaches only itself.
      await expect(dialTcp('loopback', '10.244.3.3', '10.96.0.20', 80, () => undefined)).rejects.toMatchObject({ code: 'EHOSTUNREACH' });
      const transport = udpTransport({ localAddress: '127.0.0.1', route: (ip, port) => lb.decide(ip, port, 'UDP') });
      const files = { readFile: async (p: string) => (p === '/etc/resolv.conf' ? 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n' : '') };
      expect(await resolveHost('web', files, transport)).toEqual({ addresses: ['10.96.0.20'], canonical: 'web.default.svc.cluster.local' });
      expect(dns.questions[0]).toBe('A web.default.svc.cluster.local');
    } finally {
      await dns.close();
    }
  });
});
