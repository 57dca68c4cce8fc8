// Cross-node NodePort traffic as the compose nodes carry it, with real
// packets: two nodes and a client on a bridge that, like Docker's internal
// network, drops frames whose IPs are not the bridge subnet's; pod traffic
// between the nodes in a VXLAN device set up as docker/node-routes.mjs does
// (pod IPs local on their node, routes via the other node's .0). node-1's
// kube-proxy sends a NodePort connection to a pod on node-2, masqueraded to
// node-1's address: the pod's reply must come back through the VXLAN device
// (node-routes' rule for packets from the podCIDR), or the bridge drops it.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrerequisite, requireTool } from '@kubelab/testing';
import { backendFor } from '../src/proxy/backends.js';
import { buildSnapshot } from '../src/proxy/changetracker.js';
import { execRunner } from '@kubelab/component-base';
import { defaultProxyConfig } from '../src/proxy/types.js';
import { makeService, makeSlice } from '../src/testing/fixtures.js';

const enabled = ['ip', 'iptables-restore', 'nft', 'curl', 'bridge'].every((t) => requireTool(t)) && requirePrerequisite('root (ip netns add, for the overlay test)', process.getuid?.() === 0);
const id = randomBytes(3).toString('hex');
const [br, n1, n2, client] = ['br', 'n1', 'n2', 'cl'].map((n) => `kl-${n}-${id}`) as [string, string, string, string];
const IP = { n1: '172.31.251.1', n2: '172.31.251.2', client: '172.31.251.3' };
const POD = '10.244.2.5';

const run = (ns: string | undefined, ...args: string[]) =>
  execFileSync(ns ? 'ip' : args[0]!, ns ? ['netns', 'exec', ns, ...args] : args.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const ip = (ns: string, ...args: string[]) => run(ns, 'ip', ...args);
const mac = (addr: string) => ['0a', '58', ...addr.split('.').map((b) => Number(b).toString(16).padStart(2, '0'))].join(':');
function get(ns: string, url: string): string {
  try {
    return run(ns, 'curl', '-s', '--max-time', '2', url).trim();
  } catch (err) {
    return `failed: ${(err as { status?: number }).status}`;
  }
}

/** node-routes.mjs's setup for `me` (podCIDR 10.244.<n>.0/24) with `other` as the one other node, less the pod replies rule. */
function nodeRoutes(ns: string, me: { ip: string; n: number }, other: { ip: string; n: number }) {
  ip(ns, 'link', 'add', 'flannel.1', 'type', 'vxlan', 'id', '1', 'local', me.ip, 'dev', 'eth0', 'dstport', '8472', 'nolearning');
  ip(ns, 'link', 'set', 'flannel.1', 'address', mac(me.ip), 'mtu', '1450', 'up');
  ip(ns, 'route', 'replace', 'blackhole', '10.244.0.0/16');
  ip(ns, 'route', 'replace', 'local', `10.244.${me.n}.0/24`, 'dev', 'lo', 'table', 'local');
  ip(ns, 'route', 'replace', '10.96.0.0/12', 'dev', 'flannel.1', 'src', `10.244.${me.n}.0`);
  const gw = `10.244.${other.n}.0`;
  ip(ns, 'neigh', 'replace', gw, 'lladdr', mac(other.ip), 'dev', 'flannel.1', 'nud', 'permanent');
  run(ns, 'bridge', 'fdb', 'replace', mac(other.ip), 'dev', 'flannel.1', 'dst', other.ip);
  ip(ns, 'route', 'replace', `10.244.${other.n}.0/24`, 'via', gw, 'dev', 'flannel.1', 'onlink', 'src', `10.244.${me.n}.0`);
}

describe.skipIf(!enabled)('NodePort across nodes on a filtering bridge', () => {
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    for (const ns of [br, n1, n2, client]) run(undefined, 'ip', 'netns', 'add', ns);
    ip(br, 'link', 'add', 'br0', 'type', 'bridge');
    ip(br, 'link', 'set', 'br0', 'up');
    for (const [ns, addr, port] of [
      [n1, IP.n1, 'p1'],
      [n2, IP.n2, 'p2'],
      [client, IP.client, 'p3'],
    ] as const) {
      ip(br, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip(br, 'link', 'set', port, 'master', 'br0', 'up');
      ip(ns, 'addr', 'add', `${addr}/24`, 'dev', 'eth0');
      ip(ns, 'link', 'set', 'eth0', 'up');
      ip(ns, 'link', 'set', 'lo', 'up');
    }
    // Docker's internal network: only the subnet's own addresses cross the bridge.
    execFileSync('ip', ['netns', 'exec', br, 'nft', '-f', '-'], {
      input:
        'table bridge docker {\n chain forward {\n  type filter hook forward priority 0; policy accept;\n  ether type ip ip saddr != 172.31.251.0/24 drop\n  ether type ip ip daddr != 172.31.251.0/24 drop\n }\n}\n',
    });
    for (const [ns, me, other] of [
      [n1, { ip: IP.n1, n: 1 }, { ip: IP.n2, n: 2 }],
      [n2, { ip: IP.n2, n: 2 }, { ip: IP.n1, n: 1 }],
    ] as const) {
      nodeRoutes(ns, me, other);
      run(ns, 'sysctl', '-qw', 'net.ipv4.ip_forward=1');
    }
    // The pod on node-2 (pod-ip mode: a process of the node's namespace bound to its pod IP).
    server = spawn(
      'ip',
      ['netns', 'exec', n2, process.execPath, '-e', `require('http').createServer((q,r)=>r.end('pod on node-2, client '+q.socket.remoteAddress)).listen(80,'${POD}',()=>console.log('up'))`],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => server!.stdout!.once('data', () => resolve()));
    // node-1's kube-proxy: NodePort 30080 → the pod on node-2.
    const svc = makeService('default', 'web', '10.96.0.10', [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }], { type: 'NodePort' });
    const slice = makeSlice('default', 'web', [{ port: 80 }], [{ ip: POD, ready: true, nodeName: 'node-2' }]);
    await backendFor('iptables').apply(execRunner(n1), buildSnapshot([svc], [slice], 'node-1'), defaultProxyConfig({ nodeName: 'node-1', nodeIPs: [IP.n1] }));
  });
  afterAll(() => {
    server?.kill();
    for (const ns of [br, n1, n2, client]) {
      try {
        run(undefined, 'ip', 'netns', 'del', ns);
      } catch {
        // gone
      }
    }
  });

  it('node-1 reaches the pod on node-2 through the overlay (its pod-range source needs no masquerade)', () => {
    expect(get(n1, `http://${POD}/`)).toBe('pod on node-2, client 10.244.1.0');
  });

  it('without the pod replies rule the bridge drops the reply to node-1; with it, the NodePort on node-1 answers a client', () => {
    expect(get(client, `http://${IP.n1}:30080/`)).toMatch(/^failed: 28$/);
    ip(n2, 'rule', 'add', 'from', '10.244.2.0/24', 'lookup', '100', 'priority', '100');
    ip(n2, 'route', 'replace', `${IP.n1}/32`, 'via', '10.244.1.0', 'dev', 'flannel.1', 'onlink', 'table', '100');
    expect(get(client, `http://${IP.n1}:30080/`)).toBe(`pod on node-2, client ${IP.n1}`);
    // node-2's own traffic to node-1 (the VXLAN packets themselves, the kubelet's) still goes on eth0.
    expect(ip(n2, 'route', 'get', IP.n1)).toMatch(/dev eth0/);
  });
});
