// @ts-check
// Two kubelet builds side by side, for same-window CPU comparisons on a
// loaded machine: node-1 runs build A (KUBELET_A, default this package's
// dist), node-2 build B (KUBELET_B, default the same), each with its own
// containerd (this package's), against one secured control plane as the
// startup bench runs it. Each round creates PODS pods on each node, created
// in turn (a, b, a, b, ...), and waits for every container to run; the two
// kubelets' CPU over the round is divided by their pods. Rounds swap which
// node is created first. Both builds see the same load at the same time, so
// their ratio is meaningful where back-to-back runs differ by ±30 %.
//
//   KUBELET_A=/path/to/base/dist/main.js node bench/kubelet-ab.mjs   (ROUNDS=6 PODS=25)
//   DETAIL=1 ...   also each kubelet's API requests and CRI calls per pod (its /metrics and the apiserver's, by user agent)

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createClientset } from '@kubelab/client';
import { startProcessCluster } from '@kubelab/apiserver/testing';
import { endProcesses, exitSignal, freePort, waitFor } from '@kubelab/testing';
import { childPids, controllerManagerArgs } from './node.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const PODS = Number(process.env.PODS ?? 25);
const DETAIL = process.env.DETAIL === '1';
const require = createRequire(import.meta.url);
const mainOf = (pkg) => join(require.resolve(pkg), '..', 'main.js');
const own = join(import.meta.dirname, '..', 'dist', 'main.js');
const builds = { a: process.env.KUBELET_A || own, b: process.env.KUBELET_B || own };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'kubelab-kubelet-ab-'));
/** user+system CPU ms of a process (/proc, ticks of 10 ms). @param {number | undefined} pid */
const cpuMs = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
};
/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
/** @param {string} script @param {string[]} args */
const run = (script, args) => {
  const c = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, KUBELAB_LOG_LEVEL: 'error' } });
  children.push(c);
  return c;
};

/** @type {{ side: 'a' | 'b', name: string, cidr: string, kubelet?: import('node:child_process').ChildProcess, containerd?: import('node:child_process').ChildProcess, port?: number }[]} */
const nodes = [
  { side: 'a', name: 'node-1', cidr: '10.244.1.0/24' },
  { side: 'b', name: 'node-2', cidr: '10.244.2.0/24' },
];
const cluster = await startProcessCluster({ nodes: nodes.map((n) => n.name), apiserver: { main: mainOf('@kubelab/apiserver'), logLevel: 'error' } });
const cs = createClientset({ address: cluster.apiserver.address, tls: cluster.adminTls, component: 'bench' });

/**
 * The kubelet's /metrics as the admin (its serving certificate is self-signed, as in the startup bench).
 * @param {number} port @returns {Promise<string>}
 */
const kubeletMetrics = (port) =>
  new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path: '/metrics', cert: cluster.adminTls.certPem, key: cluster.adminTls.keyPem, rejectUnauthorized: false, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
/** Sum of a counter's samples whose labels match. @param {string} text @param {string} name @param {RegExp} [labels] */
const counter = (text, name, labels) => {
  const out = new Map();
  for (const line of text.split('\n')) {
    const m = /^(\w+)(\{[^}]*\})? ([\d.e+]+)$/.exec(line);
    if (m && m[1] === name && (!labels || labels.test(m[2] ?? ''))) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
};

try {
  run(mainOf('@kubelab/controller-manager'), controllerManagerArgs(cluster));
  for (const n of nodes) {
    const root = join(dir, n.name);
    mkdirSync(root, { recursive: true });
    const socket = join(root, 'containerd.sock');
    const natsTls = await cluster.natsTlsFiles({ node: n.name });
    const containerd = run(mainOf('@kubelab/containerd'), [
      ...['--node-name', n.name, '--address', socket, '--root', join(root, 'containerd'), '--health-port', '0', '--pull-speed', '0'],
      ...['--nats-url', cluster.nats.url, '--nats-ca-file', natsTls.caFile, '--nats-cert-file', natsTls.certFile, '--nats-key-file', natsTls.keyFile],
      ...['--pod-cidr', n.cidr, '--v', 'error'],
    ]);
    await waitFor(`the containerd socket of ${n.name}`, () => existsSync(socket), { timeoutMs: 30_000, everyMs: 50, signal: exitSignal(containerd, 'containerd') });
    const port = await freePort();
    const kubelet = run(builds[n.side], [
      ...['--apiserver-grpc-address', cluster.apiserver.address, '--kubeconfig', await cluster.kubeconfig({ node: n.name }), '--client-ca-file', cluster.caFile],
      ...['--hostname-override', n.name, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', `unix://${socket}`],
      ...['--address', '127.0.0.1', '--port', String(port), '--healthz-port', '0', '--root-dir', join(root, 'kubelet'), '--pod-logs-dir', join(root, 'pods')],
      ...['--cluster-dns', '10.96.0.10', '--cluster-domain', 'cluster.local'],
    ]);
    n.kubelet = kubelet;
    n.containerd = containerd;
    n.port = port;
  }
  for (const n of nodes) {
    await waitFor(
      `${n.name} Ready`,
      async () =>
        (
          await cs.core
            .nodes()
            .get(n.name)
            .catch(() => undefined)
        )?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      {
        timeoutMs: 60_000,
        everyMs: 100,
      },
    );
  }
  /** @type {Map<string, () => void>} */
  const waiting = new Map();
  // Every pod's changes; a dropped stream (the loaded apiserver ends it) is opened again and the pods listed meanwhile checked.
  let watching = true;
  /** @type {{ stop(): void } | undefined} */
  let watch;
  /** @param {import('@kubelab/api').Pod} p */
  const seen = (p) => {
    const st = p.status?.containerStatuses ?? [];
    if (st.length > 0 && st.every((c) => c.state?.running)) waiting.get(`${p.metadata.namespace}/${p.metadata.name}`)?.();
  };
  const follow = async () => {
    while (watching) {
      try {
        const list = await cs.core.pods('').list();
        for (const p of list.items) seen(p);
        const w = cs.core.pods('').watch({ resourceVersion: list.metadata?.resourceVersion ?? '' });
        watch = w;
        for await (const ev of w) seen(ev.object);
      } catch {
        await sleep(200);
      }
    }
  };
  void follow();
  /** @param {string} ns @param {string} name @param {string} node */
  const start = (ns, name, node) =>
    new Promise((resolve, reject) => {
      waiting.set(`${ns}/${name}`, () => resolve(undefined));
      cs.core
        .pods(ns)
        .create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { nodeName: node, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] } })
        .catch(reject);
    });
  /** A namespace with what every pod mounts (the controller-manager's ServiceAccount and root CA). @param {string} ns */
  const namespace = async (ns) => {
    await cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await waitFor(
      `the default ServiceAccount and kube-root-ca.crt of ${ns}`,
      async () =>
        (await cs.core
          .serviceAccounts(ns)
          .get('default')
          .catch(() => false)) &&
        (await cs.core
          .configMaps(ns)
          .get('kube-root-ca.crt')
          .catch(() => false)),
      {
        timeoutMs: 30_000,
        everyMs: 50,
      },
    );
  };
  await namespace('warm');
  await Promise.all(nodes.map((n) => start('warm', `warm-${n.name}`, n.name)));
  await sleep(1500);
  /** @type {{ a: number, b: number }[]} */
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const ns = `round-${r}`;
    await namespace(ns);
    const order = r % 2 === 0 ? nodes : [...nodes].reverse();
    const before = await Promise.all(
      nodes.map(async (n) => ({ kubelet: cpuMs(n.kubelet?.pid), containerd: cpuMs(n.containerd?.pid), ...(DETAIL ? { metrics: await kubeletMetrics(n.port ?? 0) } : {}) })),
    );
    const api0 = DETAIL ? (await cluster.rest(cluster.apiserver, '/metrics')).body : '';
    const t0 = performance.now();
    const started = [];
    for (let i = 0; i < PODS; i++) for (const n of order) started.push(start(ns, `${n.name}-pod-${String(i).padStart(3, '0')}`, n.name));
    await Promise.race([Promise.all(started), sleep(180_000).then(() => Promise.reject(new Error(`round ${r}: pods not running after 180 s`)))]);
    const wall = performance.now() - t0;
    await sleep(1000); // the writes that follow the last running pod (late statuses, events)
    const after = await Promise.all(
      nodes.map(async (n) => ({ kubelet: cpuMs(n.kubelet?.pid), containerd: cpuMs(n.containerd?.pid), ...(DETAIL ? { metrics: await kubeletMetrics(n.port ?? 0) } : {}) })),
    );
    const per = (i, k) => (after[i][k] - before[i][k]) / PODS;
    const row = { a: per(0, 'kubelet'), b: per(1, 'kubelet'), containerdA: per(0, 'containerd'), containerdB: per(1, 'containerd') };
    rounds.push(row);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      `round ${r} (${order[0].name} first, ${(wall / 1000).toFixed(1)} s, load ${load}): kubelet ms CPU per pod A ${row.a.toFixed(1)}  B ${row.b.toFixed(1)}  B/A ${(row.b / row.a).toFixed(2)}; containerd A ${row.containerdA.toFixed(1)}  B ${row.containerdB.toFixed(1)}`,
    );
    if (DETAIL) {
      const api1 = (await cluster.rest(cluster.apiserver, '/metrics')).body;
      for (const [i, n] of nodes.entries()) {
        const ops = (t) => counter(t, 'kubelet_runtime_operations_total');
        const o0 = ops(before[i].metrics ?? '');
        const cri = [...ops(after[i].metrics ?? '')].map(([k, v]) => [k, (v - (o0.get(k) ?? 0)) / PODS]).filter(([, v]) => v > 0);
        const total = cri.reduce((s, [, v]) => s + v, 0);
        console.log(`  ${n.side} CRI calls per pod ${total.toFixed(2)}: ${cri.map(([k, v]) => `${String(k).replace(/.*="(.*)".*/, '$1')} ${v.toFixed(2)}`).join(', ')}`);
      }
      const req = (t) => counter(t, 'apiserver_request_total');
      const r0 = req(api0);
      const diff = [...req(api1)].map(([k, v]) => [k, v - (r0.get(k) ?? 0)]).filter(([, v]) => v > 0);
      console.log(
        `  apiserver requests per pod (both nodes, the bench's creates included): ${diff.map(([k, v]) => `${(v / (2 * PODS)).toFixed(2)} ${String(k).match(/verb="(\w+)"/)?.[1]} ${String(k).match(/resource="(\w+)"/)?.[1]}${String(k).match(/subresource="(\w+)"/)?.[1] ? '/' + String(k).match(/subresource="(\w+)"/)?.[1] : ''}`).join(', ')}`,
      );
    }
    // The node's pod limit (110) would refuse later rounds: this round's pods go before the next round is measured.
    // The kubelets stop each pod's container, then confirm the deletion: the list is empty once both are done.
    const pods = (await cs.core.pods(ns).list()).items;
    await Promise.all(
      pods.map((p) =>
        cs.core
          .pods(ns)
          .delete(p.metadata.name ?? '', { gracePeriodSeconds: 1 })
          .catch(() => undefined),
      ),
    );
    await waitFor(`the pods of ${ns} gone`, async () => (await cs.core.pods(ns).list()).items.length === 0, { timeoutMs: 120_000, everyMs: 250 });
    await sleep(2000);
  }
  watching = false;
  watch?.stop();
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
  const ratios = rounds.map((r) => r.b / r.a);
  console.log(
    `kubelet ms CPU per pod, median of ${ROUNDS} rounds: A ${median(rounds.map((r) => r.a)).toFixed(1)}  B ${median(rounds.map((r) => r.b)).toFixed(1)}  B/A ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')})`,
  );
  console.log(JSON.stringify({ bench: 'kubelet-ab', pods: PODS, rounds, medianA: median(rounds.map((r) => r.a)), medianB: median(rounds.map((r) => r.b)), medianRatio: median(ratios), builds }));
} finally {
  cs.close();
  const shims = nodes.flatMap((n) => (n.containerd?.pid ? childPids(n.containerd.pid) : []));
  for (const c of [...children].reverse()) {
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    let t;
    await Promise.race([exited, new Promise((r) => (t = setTimeout(r, 5000)))]);
    clearTimeout(t);
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
  await endProcesses(shims);
  await cluster.dispose();
  rmSync(dir, { recursive: true, force: true });
}
