// Real packets through the rules kube-proxy applies, in network namespaces
// this test creates: a node (where the rules go), a pod on it behind a veth
// (an HTTP server), and a second node on the node's network. A NodePort must
// answer on the node's address from the other node and from the pod (hairpin),
// and a load-balancer ingress IP from the node itself and from a node that
// routes it to this one, in iptables and nftables mode. Needs root, ip, curl;
// skipped locally without them, a failure under CI=true.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrerequisite, requireTool } from '@kubelab/testing';
import { backendFor } from '../src/proxy/backends.js';
import { buildSnapshot } from '../src/proxy/changetracker.js';
import { execRunner } from '@kubelab/component-base';
import { defaultProxyConfig } from '../src/proxy/types.js';
import { makeService, makeSlice } from '../src/testing/fixtures.js';

function canRun(): boolean {
  const tools = ['ip', 'iptables-restore', 'nft', 'curl'].every((t) => requireTool(t));
  if (!tools) return false;
  return requirePrerequisite('root (ip netns add, for the packet tests)', process.getuid?.() === 0);
}

const enabled = canRun();
const id = randomBytes(3).toString('hex');
const node = `kl-node-${id}`;
const peer = `kl-peer-${id}`;
const pod = `kl-pod-${id}`;
const NODE_IP = '172.31.250.1';
const PEER_IP = '172.31.250.2';
const POD_IP = '10.244.1.5';
const LB_IP = '10.250.0.1';
const NODE_PORT = 30080;

const sh = (ns: string | undefined, ...args: string[]) =>
  execFileSync(ns ? 'ip' : args[0]!, ns ? ['netns', 'exec', ns, ...args] : args.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** curl from inside a namespace: the body, or `failed: <curl's exit code>` (7: refused, 28: timed out). */
function get(ns: string, url: string): string {
  try {
    return sh(ns, 'curl', '-s', '--max-time', '3', url).trim();
  } catch (err) {
    return `failed: ${(err as { status?: number }).status}`;
  }
}

// One LoadBalancer Service (port 80 → 8080, nodePort 30080, ingress 10.250.0.1) whose endpoint is the pod on this node.
const snapshot = () => {
  const svc = makeService('default', 'web', '10.96.0.10', [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: NODE_PORT }], {
    type: 'LoadBalancer',
    externalTrafficPolicy: 'Cluster',
  });
  svc.status = { loadBalancer: { ingress: [{ ip: LB_IP, ipMode: 'VIP' }] } };
  const slice = makeSlice('default', 'web', [{ name: 'http', port: 8080 }], [{ ip: POD_IP, ready: true, nodeName: 'node-1' }]);
  return buildSnapshot([svc], [slice], 'node-1');
};
const cfg = defaultProxyConfig({ nodeName: 'node-1', nodeIPs: [NODE_IP] });

describe.skipIf(!enabled)('NodePort and load-balancer IPs with real packets', () => {
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    for (const ns of [node, peer, pod]) sh(undefined, 'ip', 'netns', 'add', ns);
    // node ↔ peer: the nodes' network; node ↔ pod: the pod's veth, routed (as the compose nodes route pod IPs).
    sh(undefined, 'ip', 'link', 'add', 'kl-n0', 'netns', node, 'type', 'veth', 'peer', 'name', 'kl-p0', 'netns', peer);
    sh(undefined, 'ip', 'link', 'add', 'kl-pod', 'netns', node, 'type', 'veth', 'peer', 'name', 'kl-eth0', 'netns', pod);
    for (const [ns, cmds] of [
      [
        node,
        [
          ['addr', 'add', `${NODE_IP}/24`, 'dev', 'kl-n0'],
          ['link', 'set', 'kl-n0', 'up'],
          ['addr', 'add', '10.244.1.1/24', 'dev', 'kl-pod'],
          ['link', 'set', 'kl-pod', 'up'],
          ['link', 'set', 'lo', 'up'],
        ],
      ],
      [
        peer,
        [
          ['addr', 'add', `${PEER_IP}/24`, 'dev', 'kl-p0'],
          ['link', 'set', 'kl-p0', 'up'],
          ['route', 'add', '10.250.0.0/24', 'via', NODE_IP],
          ['link', 'set', 'lo', 'up'],
        ],
      ],
      [
        pod,
        [
          ['addr', 'add', `${POD_IP}/24`, 'dev', 'kl-eth0'],
          ['link', 'set', 'kl-eth0', 'up'],
          ['route', 'add', 'default', 'via', '10.244.1.1'],
          ['link', 'set', 'lo', 'up'],
        ],
      ],
    ] as const) {
      for (const c of cmds) sh(ns, 'ip', ...c);
    }
    // The load-balancer range needs a route on the node before kube-proxy's OUTPUT DNAT (docker/node-routes.mjs sends it into flannel.1).
    sh(node, 'ip', 'route', 'add', '10.250.0.0/24', 'dev', 'kl-n0');
    sh(node, 'sysctl', '-qw', 'net.ipv4.ip_forward=1');
    server = spawn(
      'ip',
      [
        'netns',
        'exec',
        pod,
        process.execPath,
        '-e',
        `require('http').createServer((q,r)=>r.end('hello from '+q.socket.localAddress+' to '+q.socket.remoteAddress)).listen(8080,'${POD_IP}',()=>console.log('up'))`,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => server!.stdout!.once('data', () => resolve()));
  });
  afterAll(() => {
    server?.kill();
    for (const ns of [node, peer, pod]) {
      try {
        sh(undefined, 'ip', 'netns', 'del', ns);
      } catch {
        // already gone
      }
    }
  });

  for (const mode of ['iptables', 'nftables'] as const) {
    it(`${mode}: the NodePort answers on the node's address from another node and from a pod; the LB IP from the node and through it`, async () => {
      if (mode === 'nftables') {
        sh(node, 'iptables', '-t', 'nat', '-F');
        sh(node, 'iptables', '-F');
      }
      // Without rules nothing listens on the node's port 30080.
      expect(get(peer, `http://${NODE_IP}:${NODE_PORT}/`)).toMatch(/^failed/);
      await backendFor(mode).apply(execRunner(node), snapshot(), cfg);
      // Cluster policy masquerades: the pod sees the node's pod-side address as the client.
      expect(get(peer, `http://${NODE_IP}:${NODE_PORT}/`)).toBe(`hello from ${POD_IP} to 10.244.1.1`);
      expect(get(pod, `http://${NODE_IP}:${NODE_PORT}/`)).toBe(`hello from ${POD_IP} to 10.244.1.1`);
      expect(get(node, `http://${NODE_IP}:${NODE_PORT}/`)).toMatch(new RegExp(`^hello from ${POD_IP.replace(/\./g, '\\.')} to `));
      expect(get(node, `http://${LB_IP}/`)).toMatch(new RegExp(`^hello from ${POD_IP.replace(/\./g, '\\.')} to `));
      expect(get(peer, `http://${LB_IP}/`)).toBe(`hello from ${POD_IP} to 10.244.1.1`);
      // A port no Service has stays closed.
      expect(get(peer, `http://${NODE_IP}:30081/`)).toMatch(/^failed/);
    });
  }
});
