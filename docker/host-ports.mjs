// The host's way into the cluster's Services, in the roles kind gives two
// things: `extraPortMappings` (a NodePort range published on the host) and
// cloud-provider-kind's per-LoadBalancer proxy (a host port that reaches the
// load balancer). The compose network is `internal: true`, so no node has a
// port on the host; this process sits on the cluster network and on `edge`,
// whose ports compose publishes on 127.0.0.1 only, and forwards TCP:
//   - NodePorts: every container port in KUBELAB_NODE_PORTS (30080-30089 by
//     default) to the same port of KUBELAB_TARGET_NODE (node-1): kube-proxy
//     there answers a NodePort on every node address, so
//     `curl -I http://127.0.0.1:30080` reaches a Service with nodePort 30080.
//   - LoadBalancers: it watches Services (read-only, as the node's kube-proxy:
//     system:node-proxier lists and watches them) and gives each port of a
//     LoadBalancer Service that has an ingress address and a node port one
//     host port of KUBELAB_LB_PORTS (30090-30099), kept while the Service
//     lives; a connection there goes to that node port on the target node
//     (cloud-provider-kind's envoy likewise proxies to the nodes). The mapping
//     is logged: `docker compose logs host-ports` shows
//     `mapped service=default/web port=80/TCP ingress=10.250.0.1 host=127.0.0.1:30090`.
// UDP is not forwarded. It never exits on an API error: it relists.

import { createServer, connect } from 'node:net';
import { pathToFileURL } from 'node:url';
import { loadKubeconfig, restClient } from './kube-rest.mjs';

/** `30080-30089` → [30080, …, 30089]; a single port is a range of one. */
export function portRange(text) {
  const m = /^(\d+)(?:-(\d+))?$/.exec(String(text).trim());
  if (!m) throw new Error(`invalid port range ${JSON.stringify(text)}: want FIRST-LAST`);
  const first = Number(m[1]);
  const last = Number(m[2] ?? m[1]);
  if (first < 1 || last > 65535 || last < first) throw new Error(`invalid port range ${JSON.stringify(text)}`);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The TCP ports of LoadBalancer Services that have an ingress address and a node port: `ns/name:port` → what to forward to. */
export function loadBalancerPorts(services) {
  const out = new Map();
  for (const svc of services) {
    if (svc.spec?.type !== 'LoadBalancer') continue;
    const ingress = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname).filter(Boolean);
    if (ingress.length === 0) continue;
    for (const p of svc.spec.ports ?? []) {
      if ((p.protocol ?? 'TCP') !== 'TCP' || !p.nodePort) continue;
      out.set(`${svc.metadata.namespace}/${svc.metadata.name}:${p.port}`, { nodePort: p.nodePort, ingress: ingress[0], port: p.port });
    }
  }
  return out;
}

/**
 * Host ports for the wanted load-balancer ports: an existing assignment is
 * kept, a gone one freed, new ones get the lowest free port in key order; what
 * does not fit stays unmapped. Returns the new assignment (key → host port).
 */
export function assignHostPorts(current, wanted, pool) {
  const next = new Map();
  for (const [key, hostPort] of current) if (wanted.has(key) && pool.includes(hostPort)) next.set(key, hostPort);
  const taken = new Set(next.values());
  for (const key of [...wanted.keys()].sort()) {
    if (next.has(key)) continue;
    const free = pool.find((p) => !taken.has(p));
    if (free === undefined) break;
    next.set(key, free);
    taken.add(free);
  }
  return next;
}

const log = (msg, fields = {}) =>
  process.stdout.write(
    `${new Date().toISOString()} host-ports ${msg}${Object.entries(fields)
      .map(([k, v]) => ` ${k}=${v}`)
      .join('')}\n`,
  );

/** Listens on `port` (all addresses: compose's published port arrives on edge) and pipes each connection to target():{host,port} or drops it. */
function forward(port, target) {
  const server = createServer((client) => {
    const to = target();
    if (!to) return client.destroy();
    const upstream = connect(to.port, to.host);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  server.on('error', (err) => log('listen failed', { port, err: JSON.stringify(err.message) }));
  server.listen(port);
}

async function main() {
  const TARGET = process.env.KUBELAB_TARGET_NODE || 'node-1';
  const KUBECONFIG = process.env.KUBELAB_KUBECONFIG || '/etc/kubernetes/kube-proxy.conf';
  const nodePorts = portRange(process.env.KUBELAB_NODE_PORTS || '30080-30089');
  const lbPool = portRange(process.env.KUBELAB_LB_PORTS || '30090-30099');
  for (const p of nodePorts) forward(p, () => ({ host: TARGET, port: p }));
  log('nodeports', { ports: `${nodePorts[0]}-${nodePorts.at(-1)}`, to: TARGET });

  let assigned = new Map(); // key → host port
  let wanted = new Map(); // key → { nodePort, ingress, port }
  const byHostPort = () => new Map([...assigned].map(([k, hp]) => [hp, wanted.get(k)]));
  let lookup = new Map();
  for (const hp of lbPool) forward(hp, () => (lookup.get(hp) ? { host: TARGET, port: lookup.get(hp).nodePort } : undefined));
  const reconcile = (services) => {
    wanted = loadBalancerPorts(services);
    const next = assignHostPorts(assigned, wanted, lbPool);
    for (const [key, hp] of assigned) if (next.get(key) !== hp) log('unmapped', { service: key.replace(/:\d+$/, ''), host: `127.0.0.1:${hp}` });
    for (const [key, hp] of next) {
      if (assigned.get(key) === hp) continue;
      const w = wanted.get(key);
      log('mapped', { service: key.replace(/:\d+$/, ''), port: `${w.port}/TCP`, ingress: w.ingress, host: `127.0.0.1:${hp}`, via: `${TARGET}:${w.nodePort}` });
    }
    for (const key of wanted.keys()) if (!next.has(key)) log('no free host port', { service: key });
    assigned = next;
    lookup = byHostPort();
  };

  for (;;) {
    try {
      const api = restClient(loadKubeconfig(KUBECONFIG));
      const res = await api.call('GET', '/api/v1/services');
      if (res.status !== 200 || !res.json) throw new Error(`list services: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      const services = new Map(res.json.items.map((s) => [`${s.metadata.namespace}/${s.metadata.name}`, s]));
      reconcile([...services.values()]);
      for await (const line of api.stream(`/api/v1/services?watch=1&resourceVersion=${res.json.metadata.resourceVersion}`)) {
        const ev = JSON.parse(line);
        if (ev.type === 'ERROR') throw new Error(`watch: ${ev.object?.message}`);
        if (ev.type === 'BOOKMARK') continue;
        const key = `${ev.object.metadata.namespace}/${ev.object.metadata.name}`;
        if (ev.type === 'DELETED') services.delete(key);
        else services.set(key, ev.object);
        reconcile([...services.values()]);
      }
    } catch (err) {
      log('relisting', { err: JSON.stringify(err.message) });
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.on('SIGTERM', () => process.exit(0));
  process.on('SIGINT', () => process.exit(0));
  await main();
}
