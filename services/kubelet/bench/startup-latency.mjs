// @ts-check
// Pod startup latency on one kubelet (the upstream pod-startup SLO measure):
// from the create request to the watch showing every container running, for
// 100 pods with zero simulated pull time. Prints p50/p90/p99/max and the CPU
// time each process spent from the first create to the last pod running
// (containerd's per-sandbox shims included), summed per pod as cpuPerPodMs.
// As deployed, nats-server, the apiserver, containerd (publishing its CRI call
// records to NATS) and the kubelet run as their own processes (their
// dist/main.js), secured as `pnpm kubelab up` runs them (startProcessCluster
// of @kubelab/apiserver/testing: NATS TLS and users, the apiserver with mutual
// TLS and Node,RBAC, the kubelet as system:node:node-1, the controller-manager
// giving namespaces the ServiceAccount and CA every pod mounts); this process only
// creates pods and watches them, as kubeadm's admin.conf user.
//
//   pnpm --filter @kubelab/kubelet bench        (PODS=100 CONCURRENCY=10)
//   QPS=20 ...                                   paced creates instead of a burst
//   EVENTED_PLEG=1 ...                           the kubelet with EventedPLEG
//   CPU_PROF=dir ...                             --cpu-prof of every node process into dir
//   CONTAINERD_MAIN=path/main.js ...             another containerd build (same-minute comparisons)
//   KUBELET_MAIN=path/main.js ...                another kubelet build (same-minute comparisons)
//   DETAIL=1 ...                                 also API requests and CRI calls per pod (from /metrics)
//   IDLE=10 ...                                  then each process's CPU per second with the pods running, idle
//   WARMUP_PODS=50 PODS=50 ...                   a warm-up burst first (left running): the measured burst on warmed-up code

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createClientset } from '@kubelab/client';
import { startProcessCluster } from '@kubelab/apiserver/testing';
import { endProcesses, exitSignal, freePort, waitFor } from '@kubelab/testing';
import { childPids, containerdArgs, controllerManagerArgs, kubeletArgs, nodeIdentities, procStat } from './node.mjs';

const PODS = Number(process.env.PODS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
/** Creates per second (0: as fast as CONCURRENCY allows, a burst). */
const QPS = Number(process.env.QPS ?? 0);
const CPU_PROF = process.env.CPU_PROF;
/** Seconds to measure the processes' CPU with every pod running and nothing happening (0: not measured). */
const IDLE = Number(process.env.IDLE ?? 0);
/** Pods started (and left running) before the measured burst: with them the burst meets code the processes have already optimized, as on a node that has run pods for a while (0: one warm-up pod only, a cold node). */
const WARMUP_PODS = Number(process.env.WARMUP_PODS ?? 0);
if (!Number.isInteger(WARMUP_PODS) || WARMUP_PODS < 0 || WARMUP_PODS + PODS > 109)
  throw new Error(`WARMUP_PODS + PODS must fit the node's 110 pods beside the warm-up pod, got ${WARMUP_PODS} + ${PODS}`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'kubelab-kubelet-bench-'));
const require = createRequire(import.meta.url);
const mainOf = (pkg) => join(require.resolve(pkg), '..', 'main.js');
/** name → child process */
const children = new Map();
const run = (name, script, args) => {
  const prof = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  // The shims' profiles (CPU.<date>.<time>.<pid>...cpuprofile), written when they end (SIGTERM, below).
  const shimProf = CPU_PROF && name === 'containerd' ? { KUBELAB_SHIM_NODE_ARGS: `--cpu-prof --cpu-prof-dir ${CPU_PROF}` } : {};
  const child = spawn(process.execPath, [...prof, script, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, KUBELAB_LOG_LEVEL: 'error', ...shimProf } });
  children.set(name, child);
  return child;
};
/** user+system CPU ms of a process, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
};
/**
 * CPU ms of every process the burst involves: the cluster's (nats, apiserver,
 * controller-manager, containerd, kubelet), containerd's shims (one
 * containerd-shim-runc-v2 process per pod sandbox, alive or reaped) and this
 * process (the client: creates and the watch).
 */
const cpuAll = () => {
  const out = { nats: cpuMs(cluster.nats.pid), apiserver: cpuMs(cluster.apiserver.pid) };
  for (const [name, c] of children) out[name] = cpuMs(c.pid);
  const containerd = children.get('containerd');
  if (containerd?.pid) out.shims = (procStat(containerd.pid)?.children ?? 0) + childPids(containerd.pid).reduce((a, p) => a + (procStat(p)?.self ?? 0) + (procStat(p)?.children ?? 0), 0);
  const u = process.cpuUsage();
  out.bench = (u.user + u.system) / 1000;
  return out;
};

/**
 * GET of the kubelet's HTTPS API as the admin: the kubelet authenticates the
 * certificate and asks the apiserver (SubjectAccessReview for nodes/metrics).
 * Its serving certificate is self-signed, so it is not verified, as the
 * apiserver dials kubelets without --kubelet-certificate-authority.
 * @param {number} port @param {string} path @returns {Promise<string>}
 */
const kubeletGet = (port, path) =>
  new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, cert: cluster.adminTls.certPem, key: cluster.adminTls.keyPem, rejectUnauthorized: false, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`kubelet ${path}: ${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    req.end();
  });

/** Counter samples of a Prometheus text page whose name matches, by their labels. */
const counters = async (page, name) => {
  const text = await page.catch(() => '');
  const out = new Map();
  for (const line of text.split('\n')) {
    const m = /^(\w+)(\{[^}]*\})? ([\d.e+]+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
};
const delta = (a, b) =>
  [...b]
    .map(([k, v]) => [k, v - (a.get(k) ?? 0)])
    .filter(([, v]) => v > 0)
    .sort((x, y) => y[1] - x[1]);

const cluster = await startProcessCluster({
  apiserver: { main: mainOf('@kubelab/apiserver'), nodeArgs: CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF, '--cpu-prof-name', 'apiserver.cpuprofile'] : [], logLevel: 'error' },
});
const apiserver = cluster.apiserver;
const kubeletPort = await freePort();
const ids = await nodeIdentities(cluster);
const socket = join(dir, 'containerd.sock');
const cs = createClientset({ address: apiserver.address, tls: cluster.adminTls, component: 'bench' });

let deadline;
try {
  run('controller-manager', mainOf('@kubelab/controller-manager'), controllerManagerArgs(cluster));
  const containerd = run('containerd', process.env.CONTAINERD_MAIN || mainOf('@kubelab/containerd'), containerdArgs(dir, socket, cluster.nats.url, ids.natsTls));
  // Each start-up bound allows for a loaded machine (a first TLS handshake with RSA keys, JIT of a cold process).
  await waitFor('the containerd socket', () => existsSync(socket), { timeoutMs: 30_000, everyMs: 50, signal: exitSignal(containerd, 'containerd') });
  run('kubelet', process.env.KUBELET_MAIN || join(import.meta.dirname, '..', 'dist', 'main.js'), [
    ...kubeletArgs(dir, socket, apiserver.address, kubeletPort, ids),
    // EVENTED_PLEG=1: the runtime's container events wake pod workers at once,
    // instead of the next 1 s relist (upstream's EventedPLEG feature gate).
    ...(process.env.EVENTED_PLEG === '1' ? ['--feature-gates', 'EventedPLEG=true'] : []),
  ]);
  await waitFor('node-1 Ready', async () => (await cs.core.nodes().get('node-1')).status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'), { timeoutMs: 30_000, everyMs: 100 });
  const created = new Map();
  const running = new Map();
  /** Pods outside the measured set (the warm-up) waiting to run: name → resolve. */
  /** @type {Map<string, (value?: unknown) => void>} */
  const waiting = new Map();
  const watch = cs.core.pods('bench').watch({});
  /** @type {(value?: unknown) => void} */
  let done = () => {}; // replaced by the Promise's resolve at once
  const all = new Promise((r) => (done = r));
  (async () => {
    for await (const ev of watch) {
      const p = ev.object;
      const name = p.metadata?.name;
      const st = p.status?.containerStatuses ?? [];
      const up = st.length > 0 && st.every((c) => c.state?.running);
      if (up && name) waiting.get(name)?.();
      if (!name || running.has(name) || !created.has(name)) continue;
      if (up) {
        running.set(name, performance.now());
        if (running.size === PODS) done();
      }
    }
  })();
  /** @type {(name: string) => import('@kubelab/api').Pod} */
  const podSpec = (name) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'bench' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
  });
  await cs.core
    .namespaces()
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } })
    .catch(() => {});
  // What every pod mounts (kube-api-access): the controller-manager's ServiceAccount and root CA for the namespace.
  await waitFor(
    'the default ServiceAccount and kube-root-ca.crt of bench',
    async () =>
      (await cs.core
        .serviceAccounts('bench')
        .get('default')
        .catch(() => false)) &&
      (await cs.core
        .configMaps('bench')
        .get('kube-root-ca.crt')
        .catch(() => false)),
    {
      timeoutMs: 30_000,
      everyMs: 50,
    },
  );
  // One pod first, as on a node that already runs something: the image is
  // present (the burst measures start-up, not 100 pulls of one image) and
  // every component has served each call once.
  await new Promise((resolve, reject) => {
    waiting.set('warm-up', resolve);
    cs.core.pods('bench').create(podSpec('warm-up')).catch(reject);
    deadline = setTimeout(() => reject(new Error('the warm-up pod is not running after 60 s')), 60_000);
  });
  clearTimeout(deadline);
  /**
   * Creates `list` in CONCURRENCY lanes as the measured burst does (QPS paced from `t0` when set); `onCreate` sees each name as it goes.
   * @param {string[]} list @param {number} t0 @param {(name: string) => void} [onCreate]
   */
  const createInLanes = (list, t0, onCreate = () => {}) => {
    let next = 0;
    return Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < list.length) {
          const name = list[next++];
          if (QPS > 0) {
            const due = t0 + ((next - 1) * 1000) / QPS;
            if (due > performance.now()) await sleep(due - performance.now());
          }
          onCreate(name);
          await cs.core.pods('bench').create(podSpec(name));
        }
      }),
    );
  };
  if (WARMUP_PODS > 0) {
    // A burst of the measured burst's shape first, left running: the measured one then meets optimized code.
    const warm = Array.from({ length: WARMUP_PODS }, (_, i) => `warm-${String(i).padStart(3, '0')}`);
    const warmRunning = Promise.all(warm.map((name) => new Promise((resolve) => waiting.set(name, resolve))));
    await createInLanes(warm, performance.now());
    await Promise.race([warmRunning, new Promise((_, rej) => (deadline = setTimeout(() => rej(new Error(`the ${WARMUP_PODS} warm-up pods are not all running after 120 s`)), 120_000)))]);
    clearTimeout(deadline);
    await sleep(3000); // the warm-up burst's trailing writes and the compiler's queue drain
  }
  await sleep(1500); // let the warm-up's trailing work (relist, status, events) settle before measuring CPU
  const names = Array.from({ length: PODS }, (_, i) => `pod-${String(i).padStart(3, '0')}`);
  const detail = process.env.DETAIL === '1';
  const scrape = () =>
    Promise.all([
      counters(
        cluster.rest(apiserver, '/metrics').then((r) => r.body),
        'apiserver_request_total',
      ),
      counters(kubeletGet(kubeletPort, '/metrics'), 'kubelet_runtime_operations_total'),
    ]);
  const m0 = detail ? await scrape() : undefined;
  const cpu0 = cpuAll();
  const t0 = performance.now();
  /** The measured window on the monotonic clock the CPU profiles' and perf's timestamps use (µs). */
  const monoUs = () => Number(process.hrtime.bigint() / 1000n);
  const window0 = monoUs();
  await createInLanes(names, t0, (name) => created.set(name, performance.now()));
  await Promise.race([all, new Promise((_, rej) => (deadline = setTimeout(() => rej(new Error(`only ${running.size}/${PODS} pods running after 120 s`)), 120_000)))]);
  const total = performance.now() - t0;
  const cpu1 = cpuAll();
  const window1 = monoUs();
  watch.stop();
  const lat = names.map((n) => running.get(n) - created.get(n)).sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)];
  const fmt = (ms) => `${ms.toFixed(0)} ms`;
  console.log(
    `pod startup latency, ${PODS} pods on one kubelet (${QPS > 0 ? `${QPS} creates/s` : `burst, ${CONCURRENCY} concurrent creates`}, zero pull time, created → all containers running via watch)`,
  );
  console.log(`  p50 ${fmt(q(50))}  p90 ${fmt(q(90))}  p99 ${fmt(q(99))}  max ${fmt(lat[lat.length - 1])}  (all ${PODS} in ${fmt(total)})`);
  console.log(`  target p99 < 1000 ms: ${q(99) < 1000 ? 'met' : 'NOT met'}`);
  const used = Object.fromEntries(Object.keys(cpu1).map((k) => [k, cpu1[k] - cpu0[k]]));
  // Per pod: every cluster process (with containerd's shims), not this client.
  const sum = Object.entries(used).reduce((a, [k, v]) => (k === 'bench' ? a : a + v), 0);
  const cpuPerPodMs = Number((sum / PODS).toFixed(2));
  console.log(
    `  CPU ms from first create to last running: ${Object.entries(used)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')}; cluster total ${sum.toFixed(0)} (${cpuPerPodMs.toFixed(1)} per pod; the bench client not counted)`,
  );
  if (IDLE > 0) {
    // What the running pods cost with nothing happening: relists, probes-free pod workers, the shims' idle timers.
    const i0 = cpuAll();
    await sleep(IDLE * 1000);
    const i1 = cpuAll();
    console.log(
      `  idle CPU with ${PODS + WARMUP_PODS + 1} pods running, ms per s over ${IDLE} s: ${Object.keys(i1)
        .map((k) => `${k} ${((i1[k] - i0[k]) / IDLE).toFixed(1)}`)
        .join(', ')}`,
    );
  }
  if (m0) {
    await sleep(1000); // the writes that follow the last running pod (events, late status) count too
    const m1 = await scrape();
    const show = (rows) => rows.map(([k, v]) => `${(v / PODS).toFixed(2)} ${k.replace(/^\{|\}$/g, '')}`).join('\n    ');
    console.log(`  apiserver requests per pod (within 1 s after the last running):\n    ${show(delta(m0[0], m1[0]))}`);
    console.log(`  kubelet CRI calls per pod:\n    ${show(delta(m0[1], m1[1]))}`);
    /** Events by type, reason and involved kind (count summed over a series), per pod. */
    const byReason = new Map();
    // The measured pods' events, and the node's (the warm-up pods' are left out).
    const measured = new Set(names);
    for (const ns of ['bench', 'default'])
      for (const e of (await cs.core.events(ns).list()).items) {
        if (ns === 'bench' && !measured.has(e.involvedObject?.name ?? '')) continue;
        const k = `${e.type} ${e.reason} (${e.involvedObject?.kind}${ns === 'bench' ? '' : ` in ${ns}`})`;
        byReason.set(k, (byReason.get(k) ?? 0) + (e.count ?? 1));
      }
    console.log(`  events per pod (the node's own included):\n    ${show([...byReason].sort((a, b) => b[1] - a[1]))}`);
  }
  const security = { ...cluster.security, kubelet: 'system:node:node-1 (kubelet.conf), HTTPS API with --client-ca-file', containerd: 'kubelab:containerd:node-1 on NATS' };
  console.log(
    `  security: ${Object.entries(security)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ')}`,
  );
  console.log(
    JSON.stringify({
      bench: 'pod-startup',
      pods: PODS,
      warmupPods: WARMUP_PODS,
      qps: QPS,
      p50: q(50),
      p90: q(90),
      p99: q(99),
      totalMs: total,
      cpuMs: used,
      cpuPerPodMs,
      // The measured window on CLOCK_MONOTONIC (µs): CPU profiles' timestamps, and `perf record -k CLOCK_MONOTONIC`'s.
      profileWindowUs: [window0, window1],
      security,
    }),
  );
} finally {
  clearTimeout(deadline);
  cs.close();
  // containerd's shims outlive it (their own session, as upstream's): end them after it.
  const shims = children.get('containerd')?.pid ? childPids(children.get('containerd').pid) : [];
  for (const c of [...children.values()].reverse()) {
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
