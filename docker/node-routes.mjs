// The node's network plugin, in the role flannel's vxlan backend plays on a
// real cluster: pods on different nodes reach each other through a VXLAN
// device, because the compose network is `internal: true` and Docker drops
// packets on it whose addresses are not the bridge's own (pod and service
// IPs). At start:
//   - pods' traffic leaving by eth0 is masqueraded (flannel's --ip-masq);
//   - the whole pod range is black-holed: a pod IP without a node's route
//     never leaves the node;
//   - the service range is routed into the VXLAN device, which has no
//     destination for it: connect() to a ClusterIP needs a route before
//     kube-proxy's DNAT rewrites it, and a packet no rule rewrote is dropped
//     there (upstream's ipvs mode uses the dummy device kube-ipvs0 this way;
//     this kernel has no dummy devices); so is the LoadBalancer range
//     (KUBELAB_LOAD_BALANCER_CIDR), whose ingress addresses kube-proxy captures.
// Then it watches the Nodes through the apiserver's REST API (HTTPS, as the
// node's kube-proxy: system:kube-proxy from /etc/kubernetes/kube-proxy.conf,
// whose system:node-proxier role lists and watches Nodes; flannel has a
// ServiceAccount and ClusterRole of its own, and a kubelet may read only its
// own Node under the Node authorizer) and keeps:
//   - this node's podCIDR as a local (AnyIP) route, so the runtime can bind
//     any pod IP of the node (containerd --network-mode=pod-ip), and the
//     podCIDR's .0 as the source of node→pod and node→service traffic;
//   - for every other node: its VTEP in the forwarding database, a neighbour
//     entry and a route `podCIDR via <its .0> dev flannel.1 onlink`.
// No interface gets an address (flannel puts the .0 on flannel.1), so the
// kubelet's and kube-proxy's "first non-loopback IPv4" stays the node's eth0.
// The VTEP MAC is derived from the node IP, so no annotation is needed
// (flannel publishes it in `flannel.alpha.coreos.com/backend-data`).
// It never exits on an error: the node's network namespace lives in this
// container, and the kubelet, runtime and kube-proxy share it.

import { execFileSync } from 'node:child_process';
import { hostname, networkInterfaces } from 'node:os';
import { loadKubeconfig, restClient } from './kube-rest.mjs';

const KUBECONFIG = process.env.KUBELAB_KUBECONFIG || '/etc/kubernetes/kube-proxy.conf';
const NODE_NAME = (process.env.KUBELAB_NODE_NAME || hostname()).toLowerCase();
const DEV = 'flannel.1';
const CLUSTER_CIDR = process.env.KUBELAB_CLUSTER_CIDR || '10.244.0.0/16';
const SERVICE_CIDR = process.env.KUBELAB_SERVICE_CLUSTER_IP_RANGE || '10.96.0.0/12';
// LoadBalancer ingress addresses (the service-lb-controller's pool): routed as the service range, for the same reason.
const LB_CIDR = process.env.KUBELAB_LOAD_BALANCER_CIDR || '';
const VNI = '1';
const PORT = '8472'; // flannel's vxlan port (Linux's default 8472, not IANA 4789)

const log = (msg, fields = {}) =>
  process.stdout.write(
    `${new Date().toISOString()} node-routes ${msg}${Object.entries(fields)
      .map(([k, v]) => ` ${k}=${v}`)
      .join('')}\n`,
  );

function ip(...args) {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
function tryRun(what, fn) {
  try {
    fn();
    return true;
  } catch (err) {
    log('failed', { what: JSON.stringify(what), err: JSON.stringify(String(err.stderr ?? err.message).trim()) });
    return false;
  }
}

/** The node's own IPv4 on the cluster network (the only non-loopback interface). */
function nodeIP() {
  for (const [name, list] of Object.entries(networkInterfaces())) {
    if (name === DEV) continue;
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('no IPv4 address on this node');
}

/** A locally administered MAC from an IPv4 (0a:58 + the four bytes, as CNI's bridge plugin does for pods). */
export function vtepMac(ipv4) {
  return ['0a', '58', ...ipv4.split('.').map((b) => Number(b).toString(16).padStart(2, '0'))].join(':');
}

/** The network address of a CIDR (`10.244.1.0/24` → `10.244.1.0`): flannel's gateway address per node. */
export function networkAddress(cidr) {
  const [addr, bits] = cidr.split('/');
  const n = addr.split('.').reduce((acc, b) => (acc << 8) + Number(b), 0) >>> 0;
  const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
  const net = (n & mask) >>> 0;
  return [24, 16, 8, 0].map((s) => (net >>> s) & 255).join('.');
}

function internalIP(node) {
  return (node.status?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address;
}

const myIP = nodeIP();
const applied = new Map(); // node name → key of what was programmed for it

function setupDevice() {
  tryRun('vxlan device', () => {
    ip('link', 'add', DEV, 'type', 'vxlan', 'id', VNI, 'local', myIP, 'dev', 'eth0', 'dstport', PORT, 'nolearning');
  });
  tryRun('vxlan up', () => {
    ip('link', 'set', DEV, 'address', vtepMac(myIP), 'mtu', '1450', 'up');
  });
  tryRun('pod range black hole', () => ip('route', 'replace', 'blackhole', CLUSTER_CIDR));
  tryRun('service range', () => ip('route', 'replace', SERVICE_CIDR, 'dev', DEV));
  if (LB_CIDR) tryRun('load balancer range', () => ip('route', 'replace', LB_CIDR, 'dev', DEV));
  tryRun('pod masquerade', podMasquerade);
  log('ranges', { podRange: `${CLUSTER_CIDR}(blackhole)`, serviceRange: `${SERVICE_CIDR}(${DEV})`, ...(LB_CIDR ? { loadBalancerRange: `${LB_CIDR}(${DEV})` } : {}) });
}

// flannel's --ip-masq: pod traffic to addresses outside the pod range that
// leaves by eth0 (the apiserver's container behind the kubernetes Service,
// anything else on the compose network) takes the node's address, so the
// reply finds its way back; pod-to-pod traffic keeps its source.
const MASQ_CHAIN = 'FLANNEL-POSTRTG';
function podMasquerade() {
  const rules = [
    '*nat',
    `:${MASQ_CHAIN} - [0:0]`,
    `-A ${MASQ_CHAIN} -s ${CLUSTER_CIDR} -d ${CLUSTER_CIDR} -m comment --comment "flanneld masq" -j RETURN`,
    `-A ${MASQ_CHAIN} -s ${CLUSTER_CIDR} ! -d 224.0.0.0/4 -o eth0 -m comment --comment "flanneld masq" -j MASQUERADE --random-fully`,
    'COMMIT',
    '',
  ].join('\n');
  // --noflush: kube-proxy's and the policy agent's chains stay; the line `:CHAIN` empties only this one.
  execFileSync('iptables-restore', ['--noflush'], { input: rules, stdio: ['pipe', 'ignore', 'pipe'] });
  const jump = ['POSTROUTING', '-m', 'comment', '--comment', 'flanneld masq', '-j', MASQ_CHAIN];
  try {
    execFileSync('iptables', ['-t', 'nat', '-C', ...jump], { stdio: 'ignore' });
  } catch {
    execFileSync('iptables', ['-t', 'nat', '-A', ...jump], { stdio: ['ignore', 'ignore', 'pipe'] });
  }
}

let localSource = ''; // this node's podCIDR .0, the source of node→pod traffic

// Replies of this node's pods to another node's address go through the VXLAN
// device too (routing table PODS_TABLE, used for packets from the podCIDR):
// a NodePort or load-balancer connection that another node forwarded here is
// masqueraded to that node's address, and the compose bridge drops a packet
// from a pod IP to it on eth0 (a real network carries it; flannel's nodes see
// it come back as the node's own traffic).
const PODS_TABLE = '100';

/** Programs the routes for the current Nodes; idempotent, remembers what it did per node. */
function reconcile(nodes) {
  // This node first: its podCIDR's .0 becomes the source of the routes to the others.
  const me = nodes.find((n) => n.metadata?.name === NODE_NAME && n.spec?.podCIDR);
  if (me) {
    const cidr = me.spec.podCIDR;
    const gw = networkAddress(cidr);
    if (applied.get(NODE_NAME) !== cidr) {
      const ok =
        tryRun('local pod range', () => ip('route', 'replace', 'local', cidr, 'dev', 'lo', 'table', 'local')) &&
        tryRun('service range source', () => ip('route', 'replace', SERVICE_CIDR, 'dev', DEV, 'src', gw)) &&
        (!LB_CIDR || tryRun('load balancer range source', () => ip('route', 'replace', LB_CIDR, 'dev', DEV, 'src', gw))) &&
        tryRun('pod replies rule', () => {
          // Idempotent: a restarted plugin finds its rule from before.
          if (!execFileSync('ip', ['rule', 'show', 'from', cidr, 'lookup', PODS_TABLE], { encoding: 'utf8' }).trim()) ip('rule', 'add', 'from', cidr, 'lookup', PODS_TABLE, 'priority', '100');
        });
      if (ok) {
        applied.set(NODE_NAME, cidr);
        localSource = gw;
        log('programmed', { node: NODE_NAME, podCIDR: cidr, local: true });
      }
    }
  }
  const seen = new Set([NODE_NAME]);
  for (const node of nodes) {
    const name = node.metadata?.name;
    const cidr = node.spec?.podCIDR;
    const addr = internalIP(node);
    if (!name || name === NODE_NAME || !cidr || !addr) continue;
    seen.add(name);
    const key = `${cidr}|${addr}|${localSource}`;
    if (applied.get(name) === key) continue;
    const gw = networkAddress(cidr);
    const mac = vtepMac(addr);
    const ok =
      tryRun('neighbour', () => ip('neigh', 'replace', gw, 'lladdr', mac, 'dev', DEV, 'nud', 'permanent')) &&
      tryRun('fdb', () => execFileSync('bridge', ['fdb', 'replace', mac, 'dev', DEV, 'dst', addr], { stdio: ['ignore', 'ignore', 'pipe'] })) &&
      tryRun('route', () => ip('route', 'replace', cidr, 'via', gw, 'dev', DEV, 'onlink', ...(localSource ? ['src', localSource] : []))) &&
      tryRun('pod replies route', () => ip('route', 'replace', `${addr}/32`, 'via', gw, 'dev', DEV, 'onlink', 'table', PODS_TABLE));
    if (ok) {
      applied.set(name, key);
      log('programmed', { node: name, podCIDR: cidr, via: addr });
    }
  }
  for (const [name, key] of applied) {
    if (seen.has(name)) continue;
    const [cidr, addr] = key.split('|');
    tryRun('remove route', () => ip('route', 'del', cidr));
    tryRun('remove pod replies route', () => ip('route', 'del', `${addr}/32`, 'table', PODS_TABLE));
    applied.delete(name);
    log('removed', { node: name, podCIDR: cidr });
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// List, then watch from the list's resourceVersion; relist after any error
// (as an informer does).
async function run() {
  for (;;) {
    try {
      // Read on every relist: kubeadm-init may still be writing it at the node's first start.
      const api = restClient(loadKubeconfig(KUBECONFIG));
      const res = await api.call('GET', '/api/v1/nodes');
      if (res.status !== 200 || !res.json) throw new Error(`list nodes: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      const list = res.json;
      const nodes = new Map(list.items.map((n) => [n.metadata.name, n]));
      reconcile([...nodes.values()]);
      for await (const line of api.stream(`/api/v1/nodes?watch=1&resourceVersion=${list.metadata.resourceVersion}`)) {
        const ev = JSON.parse(line);
        if (ev.type === 'ERROR') throw new Error(`watch: ${ev.object?.message}`);
        if (ev.type === 'BOOKMARK') continue;
        if (ev.type === 'DELETED') nodes.delete(ev.object.metadata.name);
        else nodes.set(ev.object.metadata.name, ev.object);
        reconcile([...nodes.values()]);
      }
    } catch (err) {
      log('relisting', { err: JSON.stringify(err.message) });
    }
    await sleep(2000);
  }
}

log('starting', { node: NODE_NAME, ip: myIP, kubeconfig: KUBECONFIG });
setupDevice();
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
await run();
