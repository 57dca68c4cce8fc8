// @ts-check
// Overhead of distributed tracing on pod startup latency (issue 9's goal:
// sampling at 100% costs at most 10% over tracing off). Each round starts a
// fresh one-node cluster — nats-server, apiserver, scheduler, controller-manager,
// containerd and kubelet, each its own process (their dist/main.js), secured as `pnpm
// kubelab up` runs them (startProcessCluster of @kubelab/apiserver/testing;
// each component with its own identity) — with tracing on (every
// component exports OTLP to otlp-sink.mjs, a separate process on 127.0.0.1
// that discards, as a collector would run beside the cluster; the apiserver
// samples 1,000,000 per million) or off (no endpoint). After WARMUP pods and
// WARMUP_WAIT_MS (so every exporter has exported once), it creates PODS pods
// and times each from its create request to the watch showing all its
// containers running, and reads the components' CPU over a fixed
// CPU_WINDOW_MS. After WARMUP_ROUNDS uncounted rounds (default 1: a run's first
// round is slower whatever its mode), rounds alternate on/off in ABBA order
// (FIRST=off starts with off) so drift cancels; the
// p50s of all on and all off latencies are compared. Nothing leaves the
// machine. Prints one JSON line. SPAN_STATS=1: spans by service and name;
// CPU_PROF=dir: a V8 CPU profile per component and round (CPU_PROF_INTERVAL µs
// between samples, default 1000).
//
//   pnpm --filter @kubelab/kubelet bench:tracing     (PODS=30 ROUNDS=4 CONCURRENCY=5 WARMUP=10 WARMUP_WAIT_MS=6000 CPU_WINDOW_MS=5000)

import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createClientset } from '@kubelab/client';
import { startProcessCluster } from '@kubelab/apiserver/testing';
import { endProcesses, exitSignal, waitFor } from '@kubelab/testing';
import { childPids, containerdArgs, controllerManagerArgs, kubeletArgs, nodeIdentities } from './node.mjs';

const PODS = Number(process.env.PODS ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 5);
const CPU_PROF = process.env.CPU_PROF;
const WARMUP = Number(process.env.WARMUP ?? 10);
const WARMUP_WAIT_MS = Number(process.env.WARMUP_WAIT_MS ?? 6000);
const CPU_WINDOW_MS = Number(process.env.CPU_WINDOW_MS ?? 5000);
const FIRST = process.env.FIRST ?? 'on';
// The first round of a run is ~50 ms slower at p50 whichever mode it has (cold page cache
// and bench process): WARMUP_ROUNDS rounds (tracing on) run first and are not counted.
const WARMUP_ROUNDS = Number(process.env.WARMUP_ROUNDS ?? 1);
const ROUND_TIMEOUT_MS = Number(process.env.ROUND_TIMEOUT_MS ?? 120_000);

const require = createRequire(import.meta.url);
const mainOf = (pkg) => join(require.resolve(pkg), '..', 'main.js');
const kubeletMain = new URL('../dist/main.js', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @typedef {{ requests: number, bytes: number, spans: number, byName: Record<string, number> }} SinkStats what otlp-sink.mjs answers to 'stats' */

/** The stand-in OTLP/gRPC collector (otlp-sink.mjs) in its own process, as a real collector would be. */
async function otlpSink() {
  const child = fork(new URL('./otlp-sink.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise((res, rej) => {
    child.once('message', (m) => res(/** @type {{ port: number }} */ (m).port));
    child.once('exit', (code) => rej(new Error(`otlp-sink exited with ${code}`)));
  });
  /** @type {() => Promise<SinkStats>} */
  const ask = () => new Promise((res) => (child.once('message', (m) => res(/** @type {{ stats: SinkStats }} */ (m).stats)), child.send('stats')));
  return { port, stats: ask, close: () => new Promise((r) => (child.once('exit', r), child.send('stop'))) };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(parts[11]) + Number(parts[12])) / 100;
  } catch {
    return 0;
  }
}

/** One fresh cluster; `endpoint` undefined = tracing off. */
async function startCluster(endpoint, label) {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-tracing-bench-'));
  const children = [];
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, KUBELAB_LOG_LEVEL: 'error' };
  for (const k of ['KUBELAB_TRACING_ENDPOINT', 'KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) delete env[k];
  if (endpoint) env.KUBELAB_TRACING_ENDPOINT = endpoint;
  // CPU_PROF=dir: a V8 CPU profile per component and round (node --cpu-prof), written at exit.
  const prof = (name) =>
    CPU_PROF ? ['--cpu-prof', '--cpu-prof-interval', process.env.CPU_PROF_INTERVAL ?? '1000', '--cpu-prof-dir', CPU_PROF, '--cpu-prof-name', `${label}-${name}-${children.length}.cpuprofile`] : [];
  const run = (script, args) => {
    const child = spawn(process.execPath, [...prof(basename(dirname(dirname(script)))), script, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env });
    children.push(child);
    return child;
  };
  // With tracing on the apiserver starts every trace (1,000,000 per million); the others follow its decision.
  const cluster = await startProcessCluster({
    apiserver: {
      main: mainOf('@kubelab/apiserver'),
      nodeArgs: prof('apiserver'),
      env: { ...env, ...(endpoint ? { KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION: '1000000' } : {}) },
      logLevel: 'error',
    },
  });
  const api = cluster.apiserver.address;
  const ids = await nodeIdentities(cluster);
  const socket = join(dir, 'containerd.sock');
  const containerd = run(mainOf('@kubelab/containerd'), containerdArgs(dir, socket, cluster.nats.url, ids.natsTls));
  await waitFor('the containerd socket', () => existsSync(socket), { timeoutMs: 30_000, everyMs: 50, signal: exitSignal(containerd, 'containerd') });
  run(mainOf('@kubelab/scheduler'), [
    '--apiserver-grpc-address',
    api,
    '--kubeconfig',
    await cluster.kubeconfig('scheduler'),
    '--bind-address',
    '127.0.0.1',
    '--secure-port',
    '0',
    '--leader-elect=false',
  ]);
  run(mainOf('@kubelab/controller-manager'), controllerManagerArgs(cluster));
  run(kubeletMain, kubeletArgs(dir, socket, api, 0, ids));
  // One Create call per pod, as kubectl sends one request per object: the apiserver samples
  // each as a root and the pod start is one trace. (The client library's default pipelines
  // creates on a CreateStream, whose items the apiserver deliberately leaves untraced.)
  const cs = createClientset({ address: api, tls: cluster.adminTls, component: 'bench', pipelineWrites: false });
  await waitFor('node-1 Ready', async () => (await cs.core.nodes().get('node-1')).status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'), { timeoutMs: 30_000, everyMs: 100 });
  return {
    cs,
    /** CPU seconds used so far by the components (nats-server excluded). */
    cpu: () => [cluster.apiserver.pid, ...children.map((c) => c.pid)].map(cpuSeconds),
    async stop() {
      cs.close();
      const shims = containerd.pid ? childPids(containerd.pid) : [];
      // SIGTERM lets each component flush its last spans (onShutdown), then the sink sees them.
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(undefined) : (c.once('exit', r), c.kill('SIGTERM'))))));
      await endProcesses(shims); // they outlive containerd, as upstream's
      await cluster.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Pods whose create recorded a trace context (kubelab.io/traceparent): with tracing on, every one. */
let tracedCreates = 0;

/** Creates PODS pods; returns each pod's created → all containers running latency (ms). */
async function measure(cs, round, count = PODS) {
  const ns = `bench-${round}`;
  await cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  // What its pods mount (kube-api-access): the controller-manager's ServiceAccount and root CA, before the clock runs.
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
  const created = new Map();
  const running = new Map();
  const watch = cs.core.pods(ns).watch({});
  /** @type {(value?: unknown) => void} */
  let done = () => {}; // replaced by the Promise's resolve at once
  const all = new Promise((r) => (done = r));
  (async () => {
    for await (const ev of watch) {
      const p = ev.object;
      const name = p.metadata?.name;
      if (!name || running.has(name) || !created.has(name)) continue;
      const st = p.status?.containerStatuses ?? [];
      if (st.length && st.every((c) => c.state?.running)) {
        running.set(name, performance.now());
        if (running.size === count) done();
      }
    }
  })();
  const names = Array.from({ length: count }, (_, i) => `pod-${String(i).padStart(3, '0')}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < names.length) {
        const name = names[next++];
        created.set(name, performance.now());
        const pod = await cs.core
          .pods(ns)
          .create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] } });
        // Every pod carries a traceparent since one trace spans a pod start (flags 00 when unsampled): count the sampled ones.
        if (pod.metadata?.annotations?.['kubelab.io/traceparent']?.endsWith('-01')) tracedCreates++;
      }
    }),
  );
  let timer;
  try {
    await Promise.race([
      all,
      new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`round ${round}: only ${running.size}/${count} pods running after ${ROUND_TIMEOUT_MS} ms`)), ROUND_TIMEOUT_MS))),
    ]);
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
  return names.map((n) => running.get(n) - created.get(n));
}

const p50 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(s.length / 2) - 1)];
};

const sink = await otlpSink();
const lat = { on: [], off: [] };
const cpu = { on: 0, off: 0 };
// In the order startCluster's cpu() lists them.
const COMPONENTS = ['apiserver', 'containerd', 'scheduler', 'controller-manager', 'kubelet'];
const cpuBy = { on: COMPONENTS.map(() => 0), off: COMPONENTS.map(() => 0) };
const exported = { on: 0, off: 0 };
const load = [loadavg()[0]];
const windows = {};
try {
  // ABBA: on, off, off, on, on, off, ... (FIRST=off: off, on, on, off, ...)
  const [a, b] = FIRST === 'off' ? ['off', 'on'] : ['on', 'off'];
  const order = Array.from({ length: ROUNDS }, (_, i) => (Math.floor((i + 1) / 2) % 2 === 0 ? a : b));
  order.unshift(...Array.from({ length: WARMUP_ROUNDS }, () => 'warm-up'));
  for (const [i, round] of order.entries()) {
    const counted = round !== 'warm-up';
    const mode = counted ? round : 'on';
    const before = (await sink.stats()).requests;
    tracedCreates = 0;
    const cluster = await startCluster(mode === 'on' ? `127.0.0.1:${sink.port}` : undefined, `r${i}-${mode}`);
    let roundCpu = 0;
    let latencies = [];
    try {
      // Warm-up pods, not measured: the first calls of a fresh process run cold code
      // (the tracing SDK's and grpc-js's interceptor paths are compiled on first use), which
      // a long-running cluster has paid long before; both modes get the same warm-up.
      // The wait lets each component's BatchSpanProcessor (5 s delay) export once, so the
      // exporter's first, cold serialization and its channel setup are not charged to the round.
      if (WARMUP > 0) await measure(cluster.cs, `${i}-warmup`, WARMUP);
      if (WARMUP_WAIT_MS > 0) await sleep(WARMUP_WAIT_MS);
      const cpu0 = cluster.cpu();
      const w0 = process.hrtime.bigint();
      const t0 = performance.now();
      latencies = await measure(cluster.cs, i);
      if (counted) lat[mode].push(...latencies);
      // CPU over the same fixed span in both modes (a slower round would otherwise also be
      // charged more of the components' periodic work: relists, leases, status).
      const rest = CPU_WINDOW_MS - (performance.now() - t0);
      if (rest > 0) await sleep(rest);
      else process.stderr.write(`round ${i + 1}: pods took longer than CPU_WINDOW_MS=${CPU_WINDOW_MS}; its CPU figure covers a longer span\n`);
      // The measured window on the monotonic clock the CPU profiles use (µs), to cut startup and shutdown out of them.
      if (CPU_PROF) windows[`r${i}-${mode}`] = [Number(w0 / 1000n), Number(process.hrtime.bigint() / 1000n)];
      const cpu1 = cluster.cpu();
      roundCpu = cpu1.reduce((a, c, j) => a + c - cpu0[j], 0);
      if (counted) {
        cpu1.forEach((c, j) => (cpuBy[mode][j] += c - cpu0[j]));
        cpu[mode] += roundCpu;
      }
      // Only meaningful if "on" traced every pod start and "off" none.
      const want = mode === 'on' ? WARMUP + PODS : 0;
      if (tracedCreates !== want) throw new Error(`round ${i + 1} (tracing ${mode}): ${tracedCreates} of ${WARMUP + PODS} pod creates recorded a sampled trace context, want ${want}`);
    } finally {
      await cluster.stop();
    }
    const after = (await sink.stats()).requests;
    if (counted) exported[mode] += after - before;
    load.push(loadavg()[0]);
    process.stderr.write(
      `round ${i + 1}/${order.length}${counted ? '' : ' (warm-up, not counted)'} tracing ${mode}: p50 ${p50(latencies).toFixed(1)} ms, components' CPU ${roundCpu.toFixed(2)} s, OTLP exports ${after - before}, load ${loadavg()[0].toFixed(2)}\n`,
    );
  }
} finally {
  const final = await sink.stats();
  if (process.env.SPAN_STATS === '1')
    process.stderr.write(
      `spans exported (all "on" rounds): ${final.spans}\n${Object.entries(final.byName)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `  ${String(n).padStart(6)} ${k}`)
        .join('\n')}\n`,
    );
  await sink.close();
  if (CPU_PROF) writeFileSync(join(CPU_PROF, 'windows.json'), JSON.stringify(windows));
}

// The measurement is only meaningful if "on" really exported and "off" sent nothing.
if (exported.on === 0) throw new Error('tracing on: the OTLP sink received no spans');
if (exported.off !== 0) throw new Error(`tracing off: the OTLP sink received ${exported.off} export calls`);

const p50On = p50(lat.on);
const p50Off = p50(lat.off);
const rounds = { on: lat.on.length / PODS, off: lat.off.length / PODS };
console.log(
  JSON.stringify({
    bench: 'tracing-overhead',
    pods: PODS,
    warmupPods: WARMUP,
    warmupWaitMs: WARMUP_WAIT_MS,
    cpuWindowMs: CPU_WINDOW_MS,
    rounds: ROUNDS,
    warmupRounds: WARMUP_ROUNDS,
    concurrency: CONCURRENCY,
    p50On: Number(p50On.toFixed(1)),
    p50Off: Number(p50Off.toFixed(1)),
    ratio: Number((p50On / p50Off).toFixed(3)),
    goal: '<= 1.10',
    // The components' CPU per round (apiserver, containerd, scheduler, kubelet), on vs off: the cost itself, less noisy than latency.
    cpuPerRoundOn: Number((cpu.on / rounds.on).toFixed(2)),
    cpuPerRoundOff: Number((cpu.off / rounds.off).toFixed(2)),
    cpuByComponent: Object.fromEntries(COMPONENTS.map((n, j) => [n, { on: Number((cpuBy.on[j] / rounds.on).toFixed(2)), off: Number((cpuBy.off[j] / rounds.off).toFixed(2)) }])),
    cpuRatio: Number((cpu.on / rounds.on / (cpu.off / rounds.off)).toFixed(3)),
    otlpExportsOn: exported.on,
    loadAvg1m: { min: Number(Math.min(...load).toFixed(2)), max: Number(Math.max(...load).toFixed(2)) },
  }),
);
