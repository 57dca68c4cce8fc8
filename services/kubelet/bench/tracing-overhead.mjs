// Overhead of distributed tracing on pod startup latency (issue 9's goal:
// sampling at 100% costs at most 10% over tracing off). Each round starts a
// fresh one-node cluster — nats-server, apiserver, scheduler, containerd and
// kubelet, each its own process (their dist/main.js) — with tracing on (every
// component exports OTLP to a sink in this process on 127.0.0.1, the
// apiserver samples 1,000,000 per million) or off (no endpoint), creates PODS
// pods and times each from its create request to the watch showing all its
// containers running. Rounds alternate on/off in ABBA order so drift cancels;
// the p50s of all on and all off latencies are compared. Nothing leaves the
// machine. Prints one JSON line.
//
//   pnpm --filter @kubelab/kubelet bench:tracing     (PODS=30 ROUNDS=4 CONCURRENCY=5)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { createClientset } from '@kubelab/client';
import { freePort, startNatsServer, waitForPort } from '@kubelab/testing';

const PODS = Number(process.env.PODS ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 5);
const ROUND_TIMEOUT_MS = Number(process.env.ROUND_TIMEOUT_MS ?? 120_000);

const require = createRequire(import.meta.url);
const mainOf = (pkg) => join(require.resolve(pkg), '..', 'main.js');
const kubeletMain = new URL('../dist/main.js', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A stand-in OTLP/gRPC collector on loopback: counts Export calls and bytes, keeps nothing. */
async function otlpSink() {
  const raw = { serialize: (b) => b, deserialize: (b) => b };
  const service = {
    Export: { path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export', requestStream: false, responseStream: false, requestSerialize: raw.serialize, requestDeserialize: raw.deserialize, responseSerialize: raw.serialize, responseDeserialize: raw.deserialize },
  };
  const stats = { requests: 0, bytes: 0 };
  const server = new grpc.Server();
  server.addService(service, {
    Export: (call, cb) => {
      stats.requests++;
      stats.bytes += call.request.length;
      cb(null, Buffer.alloc(0));
    },
  });
  const port = await new Promise((res, rej) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  return { port, stats, close: () => new Promise((r) => server.tryShutdown(() => r())) };
}

/** One fresh cluster; `endpoint` undefined = tracing off. */
async function startCluster(endpoint) {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-tracing-bench-'));
  const nats = await startNatsServer();
  const children = [];
  const env = { ...process.env, KUBELAB_LOG_LEVEL: 'error' };
  for (const k of ['KUBELAB_TRACING_ENDPOINT', 'KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) delete env[k];
  if (endpoint) env.KUBELAB_TRACING_ENDPOINT = endpoint;
  const run = (script, args, extraEnv = {}) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...env, ...extraEnv } });
    children.push(child);
    return child;
  };
  const grpcPort = await freePort();
  const api = `127.0.0.1:${grpcPort}`;
  // With tracing on the apiserver starts every trace (1,000,000 per million); the others follow its decision.
  run(mainOf('@kubelab/apiserver'), ['--nats-url', nats.url, '--bind-address', '127.0.0.1', '--secure-port', '0', '--grpc-port', String(grpcPort)], endpoint ? { KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION: '1000000' } : {});
  await waitForPort(grpcPort, 20_000);
  const socket = join(dir, 'containerd.sock');
  run(mainOf('@kubelab/containerd'), ['--node-name', 'node-1', '--address', socket, '--root', join(dir, 'containerd'), '--health-port', '0', '--pull-speed', '0', '--pod-cidr', '10.244.1.0/24', '--v', 'error']);
  for (let i = 0; i < 200 && !existsSync(socket); i++) await sleep(50);
  run(mainOf('@kubelab/scheduler'), ['--apiserver-grpc-address', api, '--bind-address', '127.0.0.1', '--secure-port', '0', '--leader-elect=false']);
  run(kubeletMain, [
    '--apiserver-grpc-address', api, '--hostname-override', 'node-1', '--node-ip', '127.0.0.1', '--container-runtime-endpoint', `unix://${socket}`,
    '--address', '127.0.0.1', '--port', '0', '--healthz-port', '0', '--root-dir', join(dir, 'kubelet'), '--pod-logs-dir', join(dir, 'pods'),
  ]);
  const cs = createClientset({ address: api, component: 'bench' });
  for (let i = 0; ; i++) {
    const n = await cs.core.nodes().get('node-1').catch(() => undefined);
    if (n?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) break;
    if (i > 300) throw new Error('node-1 not Ready after 30 s');
    await sleep(100);
  }
  return {
    cs,
    async stop() {
      cs.close();
      // SIGTERM lets each component flush its last spans (onShutdown), then the sink sees them.
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : (c.once('exit', r), c.kill('SIGTERM'))))));
      await nats.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates PODS pods; returns each pod's created → all containers running latency (ms). */
async function measure(cs, round) {
  const ns = `bench-${round}`;
  await cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const created = new Map();
  const running = new Map();
  const watch = cs.core.pods(ns).watch({});
  let done;
  const all = new Promise((r) => (done = r));
  (async () => {
    for await (const ev of watch) {
      const p = ev.object;
      const name = p.metadata?.name;
      if (!name || running.has(name) || !created.has(name)) continue;
      const st = p.status?.containerStatuses ?? [];
      if (st.length && st.every((c) => c.state?.running)) {
        running.set(name, performance.now());
        if (running.size === PODS) done();
      }
    }
  })();
  const names = Array.from({ length: PODS }, (_, i) => `pod-${String(i).padStart(3, '0')}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < names.length) {
        const name = names[next++];
        created.set(name, performance.now());
        await cs.core.pods(ns).create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] } });
      }
    }),
  );
  let timer;
  try {
    await Promise.race([all, new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`round ${round}: only ${running.size}/${PODS} pods running after ${ROUND_TIMEOUT_MS} ms`)), ROUND_TIMEOUT_MS)))]);
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
const exported = { on: 0, off: 0 };
try {
  // ABBA: on, off, off, on, on, off, ...
  const order = Array.from({ length: ROUNDS }, (_, i) => (Math.floor((i + 1) / 2) % 2 === 0 ? 'on' : 'off'));
  for (const [i, mode] of order.entries()) {
    const before = sink.stats.requests;
    const cluster = await startCluster(mode === 'on' ? `127.0.0.1:${sink.port}` : undefined);
    try {
      lat[mode].push(...(await measure(cluster.cs, i)));
    } finally {
      await cluster.stop();
    }
    exported[mode] += sink.stats.requests - before;
    process.stderr.write(`round ${i + 1}/${ROUNDS} tracing ${mode}: p50 ${p50(lat[mode].slice(-PODS)).toFixed(1)} ms, OTLP exports ${sink.stats.requests - before}\n`);
  }
} finally {
  await sink.close();
}

// The measurement is only meaningful if "on" really exported and "off" sent nothing.
if (exported.on === 0) throw new Error('tracing on: the OTLP sink received no spans');
if (exported.off !== 0) throw new Error(`tracing off: the OTLP sink received ${exported.off} export calls`);

const p50On = p50(lat.on);
const p50Off = p50(lat.off);
console.log(
  JSON.stringify({
    bench: 'tracing-overhead',
    pods: PODS,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    p50On: Number(p50On.toFixed(1)),
    p50Off: Number(p50Off.toFixed(1)),
    ratio: Number((p50On / p50Off).toFixed(3)),
    goal: '<= 1.10',
    otlpExportsOn: exported.on,
  }),
);
