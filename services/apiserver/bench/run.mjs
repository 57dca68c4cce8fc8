#!/usr/bin/env node
// @ts-check
// apiserver benchmarks (run on dist; `pnpm --filter @kubelab/apiserver bench`).
// Starts the control plane secured as `pnpm kubelab up` runs it
// (startProcessCluster of @kubelab/apiserver/testing: a throwaway kubeadm PKI,
// nats-server with TLS and a user per certificate, the apiserver as its own
// process with HTTPS, mutual TLS on gRPC and --authorization-mode=Node,RBAC),
// so the cost of security is in every figure; the bench's client is a user
// of its own (kubelab-bench, bound by a RoleBinding: RBAC decides every
// request, no system:masters short cut). Prints one JSON line per benchmark:
//   apiserver-creates: creates/s through the client library (@kubelab/client,
//     what every component uses, over the apiserver's gRPC API) vs raw NATS KV
//     creates/s (same payload, same nats-server over TLS, a NATS user with the
//     apiserver's permissions on a bucket of its own), and their ratio
//     (target >= 0.5); with BENCH_ALWAYS_ALLOW (default 1) a second apiserver
//     on its own bucket with --authorization-mode=AlwaysAllow runs as a path
//     of its own (grpcAlwaysAllow; authorizationCost = its rate ÷ the RBAC
//     one's); each path's
//     creates/s is its saturation throughput, the best of its rates at 64, 256
//     and 512 creates in flight (BENCH_INFLIGHT; every level is printed under
//     byInflight with both paths at that level, its own ratio and each
//     path's create latency p50/p99); raw twice: with nats.js's defaults, and
//     with noAsyncTraces as the apiserver's own connection runs
//     (ratioVsNoAsyncTraces), each raw client in a worker thread of its own
//     (its garbage is not collected in the apiserver path's blocks); BENCH_CREATES (default 20,000) creates per path
//     and level, in alternating blocks (BENCH_BLOCKS, default 4);
//   apiserver-watch-latency: p50/p99 from issuing a create (client library) to
//     each of 100 watchers receiving its event, while writing up to 1,000
//     objects/s with at most 32 writes in flight (target p99 < 50 ms). The
//     watchers send the Watch request the client library sends (allow_batch)
//     but only find the object's name in the bytes: decoding 100,000 events a
//     second in one process would measure this process, not the apiserver.
// The apiserver publishes its write and watch records only while a reader
// listens (@kubelab/nats listeners.ts); BENCH_READER=1 runs the benches with
// one (a `kubelab trace --all-components` of its own: it announces itself and
// reads every record), so a line's `recordReader` says which was measured.
// Each line also carries the CPU time per operation of every process
// (cpuUsPer...: bench = this process, apiserver, nats), from /proc, and of
// the apiserver's main thread alone (apiserverMainThread: its JavaScript,
// beside V8's garbage-collecting helpers); byInflight's
// apiserverMainThreadBusy is that thread's share of the wall time (near 1:
// the apiserver's one thread is the path's bottleneck) and
// apiserverMainThreadWaiting the share it was runnable but without a core
// (the machine's cores, shared with nats-server and this client, were).
// Sizes are bounded; env BENCH_CREATES / BENCH_WARMUP / BENCH_BLOCKS / BENCH_INFLIGHT /
// BENCH_WATCH_SECONDS / BENCH_WATCH_WARMUP_SECONDS shrink or grow them.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as grpc from '@grpc/grpc-js';
import { connect } from '@nats-io/transport-node';
import { announceListening, natsAuthOptions, TRACE_NATS_IDENTITY } from '@kubelab/nats';
import { apiserverProto } from '@kubelab/proto';
import { waitFor } from '@kubelab/testing';
import { startProcessCluster } from '@kubelab/apiserver/testing';
import { cpuMeter, runQueueMeter } from './cpu.mjs';
import { pump } from './pump.mjs';
// By path, not as a dependency: @kubelab/client depends on @kubelab/apiserver
// for its tests, so the reverse edge would make a cycle. `pnpm bench` builds all first.
// BENCH_APISERVER_FLAGS adds flags to every apiserver; BENCH_CLIENT_DIST / BENCH_APISERVER_MAIN point at another build (to alternate old and new builds in one session);
// BENCH_COMPARE_MAIN (another build's dist/main.js) runs that build as a second apiserver with the same flags on a bucket of its own, measured in the
// same blocks as path `compare` (compareRatio = this build ÷ that one, and each one's CPU per create): two builds side by side on one machine in the same seconds
// (BENCH_COMPARE_NODE_ARGS: Node.js flags for that one alone; BENCH_COMPARE_FLAGS: apiserver flags for it alone).
const clientDist = process.env.BENCH_CLIENT_DIST ? new URL(`file://${process.env.BENCH_CLIENT_DIST}/index.js`).href : new URL('../../../packages/client/dist/index.js', import.meta.url).href;
const { createClientset } = await import(clientDist);

// Measured creates per path and in-flight level, spread over the blocks.
const CREATES = Number(process.env.BENCH_CREATES ?? 20000);
// Creates before measuring, on each path (spread over the levels): the JIT compiles the hot code first (steady state is what is compared).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5000);
// Measured blocks per path, alternating between the paths.
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 4);
// In-flight levels the creates are measured at (each path's best is its throughput).
const INFLIGHTS = (process.env.BENCH_INFLIGHT ?? '64,256,512').split(',').map(Number);
if (!INFLIGHTS.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`BENCH_INFLIGHT must list positive integers, got ${process.env.BENCH_INFLIGHT}`);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 100);
const RATE = 1000;
const WATCH_SECONDS = Number(process.env.BENCH_WATCH_SECONDS ?? 3);
const WATCH_WARMUP_SECONDS = Number(process.env.BENCH_WATCH_WARMUP_SECONDS ?? 1);
const main = process.env.BENCH_APISERVER_MAIN ?? fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** Flags written `name=value` separated by spaces (a leading `--` allowed), as an object. @param {string | undefined} text */
function flagsOf(text) {
  return Object.fromEntries(argsOf(text).map((f) => [f.replace(/^--/, '').split('=')[0], f.split('=').slice(1).join('=')]));
}
/** Words separated by spaces (Node.js flags). @param {string | undefined} text */
function argsOf(text) {
  return (text ?? '').split(' ').filter(Boolean);
}
// BENCH_APISERVER_FLAGS: flags for every apiserver of the run, `name=value` separated by spaces
// (`enable-priority-and-fairness=false` measures what API Priority and Fairness costs, alternated with a run without).
const EXTRA_FLAGS = flagsOf(process.env.BENCH_APISERVER_FLAGS);
// A second apiserver with --authorization-mode=AlwaysAllow (its own bucket), measured as a path of its own.
const ALWAYS_ALLOW = process.env.BENCH_ALWAYS_ALLOW !== '0';
const COMPARE_MAIN = process.env.BENCH_COMPARE_MAIN;
// BENCH_COMPARE_FLAGS: flags for that one alone, as BENCH_APISERVER_FLAGS writes them (one build with and without a flag, side by side).
const COMPARE_FLAGS = flagsOf(process.env.BENCH_COMPARE_FLAGS);
/** The bench's own user: RBAC allows it what it does through a RoleBinding in each namespace it uses. */
const BENCH_USER = { commonName: 'kubelab-bench' };

const filler = 'x'.repeat(900);
const cm = (ns, name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { bench: 'true' } }, data: { filler } });
const CMS = { group: '', version: 'v1', resource: 'configmaps' };

/** Read and write system calls a process has made so far (Linux /proc/<pid>/io; 0 elsewhere). */
function syscalls(pid) {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    // A missing field throws, as a missing file does: both count as 0.
    return Number(/** @type {RegExpExecArray} */ (/syscr: (\d+)/.exec(io))[1]) + Number(/** @type {RegExpExecArray} */ (/syscw: (\d+)/.exec(io))[1]);
  } catch {
    return 0;
  }
}

/** Starts counting the apiserver's read+write system calls; the result is calls per op. */
function syscallMeter(pid) {
  const start = syscalls(pid);
  return (ops) => Number(((syscalls(pid) - start) / ops).toFixed(2));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Raw NATS KV creates on a bucket of its own: same server, TLS and
 * permissions (a user with the apiserver's, on that bucket), payload and
 * concurrency as the apiserver path. The client runs in a worker thread
 * (raw-kv-worker.mjs): a heap of its own, so neither path's garbage is
 * collected in the other's blocks.
 * @param {import('@kubelab/apiserver/testing').ProcessCluster} cluster @param {string} bucket @param {object} connectOpts
 * @returns {Promise<{ run(total: number, inflight: number, prefix: string, latencies?: number[]): Promise<number>, close(): Promise<void> }>} run: the ms `total` creates took
 */
async function rawPath(cluster, bucket, connectOpts) {
  const identity = cluster.kvWriter(bucket);
  const connectOptions = { servers: cluster.nats.url, ...natsAuthOptions(identity, await cluster.natsTls(identity)), ...connectOpts };
  const worker = new Worker(new URL('./raw-kv-worker.mjs', import.meta.url), { workerData: { connectOptions, bucket, payload: RAW_PAYLOAD } });
  let nextId = 0;
  /** @type {Map<number, (m: { ms?: number, latencies?: number[] }) => void>} */
  const waiting = new Map();
  const failed = new Promise((_, reject) => worker.once('error', reject));
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), failed]);
  worker.on('message', (m) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const ask = (msg) => {
    const id = nextId++;
    return Promise.race([new Promise((resolve) => (waiting.set(id, resolve), worker.postMessage({ id, ...msg }))), failed]);
  };
  return {
    async run(total, inflight, prefix, latencies) {
      const answer = await ask({ type: 'run', total, inflight, prefix, latencies: latencies !== undefined });
      if (latencies && answer.latencies) for (const l of answer.latencies) latencies.push(l);
      return answer.ms;
    },
    async close() {
      await ask({ type: 'close' });
      await worker.terminate();
    },
  };
}

/**
 * An apiserver path: the client library's creates, from this thread.
 * @param {(key: string) => Promise<unknown>} create
 */
function clientPath(create) {
  return {
    /** @param {number} total @param {number} inflight @param {string} prefix @param {number[]} [latencies] */
    async run(total, inflight, prefix, latencies) {
      const t0 = performance.now();
      await pump(total, inflight, (i) => create(`${prefix}-${i}`), latencies);
      return performance.now() - t0;
    },
  };
}

const RAW_PAYLOAD = new TextEncoder().encode(JSON.stringify(cm('bench', 'raw-000000')));

/**
 * An apiserver's namespaces for the bench, and what its user may do there
 * (a ClusterRole bound by a RoleBinding per namespace, as `kubectl create
 * rolebinding --clusterrole` grants a user a namespace), created as the admin.
 * @param {string} address @param {import('@kubelab/apiserver/testing').ClientTlsPem} adminTls @param {string[]} namespaces
 */
async function grantBenchUser(address, adminTls, namespaces) {
  const admin = createClientset({ address, tls: adminTls, component: 'apiserver-bench-admin' });
  const rbac = 'rbac.authorization.k8s.io';
  await admin.rbac.clusterRoles().create({ metadata: { name: 'kubelab-bench' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list', 'watch'] }] });
  for (const ns of namespaces) {
    await admin.core.namespaces().create({ metadata: { name: ns } });
    await admin.rbac.roleBindings(ns).create({
      metadata: { name: 'kubelab-bench', namespace: ns },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'kubelab-bench' },
      subjects: [{ apiGroup: rbac, kind: 'User', name: BENCH_USER.commonName }],
    });
  }
  admin.close();
}

/**
 * Measures the paths in alternating blocks (BENCH_BLOCKS, default 4): each
 * block runs every in-flight level and, at each level, every path (raw, raw
 * with noAsyncTraces, apiserver, the AlwaysAllow apiserver), the orders of levels and of paths rotating
 * from block to block, so the machine's drift during the run and the growing
 * stores hit every path and level alike; creates/s, latencies and CPU per
 * create are summed over each path's blocks at a level.
 *
 * Creates per second is a path's saturation throughput: its best over the
 * in-flight levels (BENCH_INFLIGHT, default 64,256,512; every level is
 * printed, with both paths at the same level, and its own ratio). The
 * apiserver path has more stages than raw KV (client → apiserver → NATS →
 * apiserver → client), so by Little's law it needs more creates in flight to
 * keep every stage busy; one fixed level would compare a full pipeline with
 * a half-empty one.
 */
/**
 * @param {import('@kubelab/apiserver/testing').ProcessCluster} cluster
 * @param {import('@kubelab/apiserver/testing').ClientTlsPem} tls the bench user's
 * @param {import('@kubelab/apiserver/testing').ApiserverProcess | undefined} alwaysAllow
 * @param {import('@kubelab/apiserver/testing').ApiserverProcess | undefined} compare BENCH_COMPARE_MAIN's apiserver
 */
async function benchCreates(cluster, tls, alwaysAllow, compare) {
  const pids = { nats: cluster.nats.pid, apiserver: cluster.apiserver.pid };
  // Raw NATS KV, the ceiling: with the library's defaults (the target's
  // reference), and with the options the apiserver's own connection uses
  // (noAsyncTraces: no Error objects per request), the fairer ceiling.
  const raw = await rawPath(cluster, 'bench_raw', {});
  const tuned = await rawPath(cluster, 'bench_raw_tuned', { noAsyncTraces: true });
  // The client library's create, as a controller creating many objects at once calls it.
  const cs = createClientset({ address: cluster.apiserver.address, tls, component: 'apiserver-bench' });
  const cms = cs.core.configMaps('bench');
  const csAllow = alwaysAllow && createClientset({ address: alwaysAllow.address, tls, component: 'apiserver-bench' });
  const cmsAllow = csAllow?.core.configMaps('bench');
  const csCompare = compare && createClientset({ address: compare.address, tls, component: 'apiserver-bench' });
  const cmsCompare = csCompare?.core.configMaps('bench');
  /** An apiserver path's processes: the whole apiserver and its main thread alone. @param {number | undefined} pid */
  const apiserverPids = (pid) => ({ bench: process.pid, apiserver: pid, apiserverMainThread: pid ? { thread: pid } : undefined, nats: pids.nats });
  const paths = {
    raw: { pids: { bench: process.pid, nats: pids.nats }, ...raw },
    tuned: { pids: { bench: process.pid, nats: pids.nats }, ...tuned },
    grpc: { pids: apiserverPids(pids.apiserver), ...clientPath((k) => cms.create(cm('bench', k))) },
    ...(alwaysAllow && cmsAllow
      ? {
          allow: { pids: apiserverPids(alwaysAllow.pid), ...clientPath((k) => cmsAllow.create(cm('bench', k))) },
        }
      : {}),
    ...(compare && cmsCompare ? { compare: { pids: apiserverPids(compare.pid), ...clientPath((k) => cmsCompare.create(cm('bench', k))) } } : {}),
  };
  const names = Object.keys(paths);
  const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);
  const warm = Math.ceil(WARMUP / INFLIGHTS.length);
  for (const level of INFLIGHTS) for (const name of names) await paths[name].run(warm, level, `warm-${name}-${level}`);
  const per = Math.ceil(CREATES / BLOCKS);
  const acc = Object.fromEntries(INFLIGHTS.map((l) => [l, Object.fromEntries(names.map((n) => [n, { ms: 0, ops: 0, cpu: {}, syscalls: 0, runQueueMs: 0, latencies: [] }]))]));
  for (let b = 0; b < BLOCKS; b++) {
    for (const level of rotate(INFLIGHTS, b)) {
      for (const name of rotate(names, b)) {
        const p = paths[name];
        const a = acc[level][name];
        const meter = cpuMeter(p.pids);
        const sys = name === 'grpc' ? syscallMeter(pids.apiserver) : name === 'allow' ? syscallMeter(alwaysAllow?.pid) : undefined;
        const queued = name === 'grpc' ? runQueueMeter(pids.apiserver) : undefined;
        a.ms += await p.run(per, level, `${name}-${level}-${b}`, a.latencies);
        a.ops += per;
        for (const [k, us] of Object.entries(meter(1))) a.cpu[k] = (a.cpu[k] ?? 0) + us;
        if (sys) a.syscalls += sys(1);
        if (queued) a.runQueueMs += queued();
      }
    }
  }
  cs.close();
  csAllow?.close();
  csCompare?.close();
  await raw.close();
  await tuned.close();
  const perSec = (level, n) => acc[level][n].ops / (acc[level][n].ms / 1000);
  const cpuPer = (level, n) => Object.fromEntries(Object.entries(acc[level][n].cpu).map(([k, us]) => [k, Math.round(us / acc[level][n].ops)]));
  const latency = (level, n) => {
    const sorted = acc[level][n].latencies.sort((x, y) => x - y);
    return { p50Ms: Number(percentile(sorted, 50).toFixed(2)), p99Ms: Number(percentile(sorted, 99).toFixed(2)) };
  };
  const peak = (n) => INFLIGHTS.reduce((best, l) => (perSec(l, n) > perSec(best, n) ? l : best), INFLIGHTS[0]);
  const [g, r, t] = [peak('grpc'), peak('raw'), peak('tuned')];
  const aa = alwaysAllow ? peak('allow') : undefined;
  return {
    bench: 'apiserver-creates',
    security: {
      ...cluster.security,
      client: `${BENCH_USER.commonName} (RoleBinding to a ClusterRole: RBAC decides each create)`,
      rawKv: 'same nats-server, TLS, a user with the apiserver permissions on its own bucket',
    },
    objectBytes: RAW_PAYLOAD.length,
    blocks: BLOCKS,
    grpcCreatesPerSec: Math.round(perSec(g, 'grpc')),
    grpcPeakInflight: g,
    rawKvCreatesPerSec: Math.round(perSec(r, 'raw')),
    rawPeakInflight: r,
    ratio: Number((perSec(g, 'grpc') / perSec(r, 'raw')).toFixed(2)),
    target: '>= 0.5',
    rawKvNoAsyncTracesCreatesPerSec: Math.round(perSec(t, 'tuned')),
    ratioVsNoAsyncTraces: Number((perSec(g, 'grpc') / perSec(t, 'tuned')).toFixed(2)),
    cpuUsPerCreate: cpuPer(g, 'grpc'),
    cpuUsPerRawCreate: cpuPer(r, 'raw'),
    ...(aa !== undefined
      ? {
          grpcAlwaysAllowCreatesPerSec: Math.round(perSec(aa, 'allow')),
          grpcAlwaysAllowPeakInflight: aa,
          // Node,RBAC ÷ AlwaysAllow: what authorizing each create costs in throughput (1 = nothing).
          authorizationCost: Number((perSec(g, 'grpc') / perSec(aa, 'allow')).toFixed(2)),
          cpuUsPerAlwaysAllowCreate: cpuPer(aa, 'allow'),
        }
      : {}),
    byInflight: INFLIGHTS.map((l) => ({
      inflight: l,
      objects: acc[l].grpc.ops,
      grpc: Math.round(perSec(l, 'grpc')),
      raw: Math.round(perSec(l, 'raw')),
      rawNoAsyncTraces: Math.round(perSec(l, 'tuned')),
      ratio: Number((perSec(l, 'grpc') / perSec(l, 'raw')).toFixed(2)),
      ...(alwaysAllow ? { grpcAlwaysAllow: Math.round(perSec(l, 'allow')), authorizationCost: Number((perSec(l, 'grpc') / perSec(l, 'allow')).toFixed(2)) } : {}),
      grpcLatency: latency(l, 'grpc'),
      rawLatency: latency(l, 'raw'),
      cpuUsPerCreate: cpuPer(l, 'grpc'),
      cpuUsPerRawCreate: cpuPer(l, 'raw'),
      cpuUsPerRawNoAsyncTracesCreate: cpuPer(l, 'tuned'),
      ...(alwaysAllow ? { cpuUsPerAlwaysAllowCreate: cpuPer(l, 'allow') } : {}),
      ...(compare ? { compare: Math.round(perSec(l, 'compare')), compareRatio: Number((perSec(l, 'grpc') / perSec(l, 'compare')).toFixed(3)), cpuUsPerCompareCreate: cpuPer(l, 'compare') } : {}),
      apiserverSyscallsPerCreate: Number((acc[l].grpc.syscalls / acc[l].grpc.ops).toFixed(2)),
      // The share of the wall time the apiserver's main thread was on a CPU: near 1, it is what limits the path.
      apiserverMainThreadBusy: Number((acc[l].grpc.cpu.apiserverMainThread / (acc[l].grpc.ms * 1000)).toFixed(2)),
      // The share it was runnable but waiting for a core: the machine's CPU, not the thread, was short.
      apiserverMainThreadWaiting: Number((acc[l].grpc.runQueueMs / acc[l].grpc.ms).toFixed(2)),
    })),
  };
}

/**
 * @param {import('@kubelab/apiserver/testing').ProcessCluster} cluster
 * @param {import('@kubelab/apiserver/testing').ClientTlsPem} tls the bench user's
 */
async function benchWatchLatency(cluster, tls) {
  const address = cluster.apiserver.address;
  const pids = { nats: cluster.nats.pid, apiserver: cluster.apiserver.pid };
  const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
  // Each client its own connection with a large HTTP/2 window (the default 64 KiB
  // window stalls a connection carrying many busy watches), as the client library sets it.
  const opts = { 'grpc.use_local_subchannel_pool': 1, 'grpc-node.flow_control_window': 16 * 1024 * 1024 };
  const cs = createClientset({ address, tls, component: 'apiserver-bench', channelOptions: { 'grpc.use_local_subchannel_pool': 1 } });
  const writer = cs.core.configMaps('watchbench');
  const sentAt = new Map();
  const latencies = [];
  const channels = Array.from({ length: 4 }, () => new Ctor(address, grpc.credentials.createSsl(Buffer.from(tls.caPem), Buffer.from(tls.keyPem), Buffer.from(tls.certPem)), opts));
  const streams = [];
  let opened = 0;
  await new Promise((resolve) => {
    for (let w = 0; w < WATCHERS; w++) {
      const s = channels[w % channels.length].Watch({ resource: CMS, namespace: 'watchbench', resourceVersion: '0', allowBatch: true });
      s.on('metadata', () => ++opened === WATCHERS && resolve(undefined));
      const seen = (ev, now) => {
        const text = ev.object.toString('latin1');
        const i = text.indexOf('"name":"');
        const name = text.slice(i + 8, text.indexOf('"', i + 8));
        const t = sentAt.get(name);
        if (t !== undefined && ev.type === 'ADDED') latencies.push(now - t);
      };
      s.on('data', (msg) => {
        const now = performance.now();
        if (msg.batch.length > 0) for (const ev of msg.batch) seen(ev, now);
        else seen(msg, now);
      });
      s.on('error', () => undefined);
      streams.push(s);
    }
    setTimeout(resolve, 5000);
  });
  const total = RATE * WATCH_SECONDS;
  let errors = 0;
  /** Writes `count` objects named prefix-i at RATE/s; only measured ones are timed. */
  const writeAtRate = async (count, prefix, measured) => {
    const t0 = performance.now();
    const pending = new Set();
    for (let i = 0; i < count; i++) {
      // Pace at RATE/s in 10 ms slices.
      const due = t0 + (i / RATE) * 1000;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // Bounded in-flight writes: if the write path is slower than RATE the
      // achieved rate drops (reported) instead of a queue inflating latency.
      while (pending.size >= 32) await Promise.race(pending);
      const name = `${prefix}-${i}`;
      if (measured) sentAt.set(name, performance.now());
      const p = writer.create(cm('watchbench', name)).catch(() => measured && errors++);
      pending.add(p);
      p.finally(() => pending.delete(p));
    }
    await Promise.all(pending);
    return count / ((performance.now() - t0) / 1000);
  };
  // The same load first, unmeasured: the JIT compiles the watch path of both ends (steady state is what counts).
  await writeAtRate(RATE * WATCH_WARMUP_SECONDS, 'warm', false);
  const meter = cpuMeter({ bench: process.pid, apiserver: pids.apiserver, nats: pids.nats });
  const achieved = await writeAtRate(total, 'w', true);
  // Events still missing after 10 s are reported (delivered < expected), not an error.
  await waitFor('every watcher to receive every event', () => latencies.length >= total * WATCHERS, { timeoutMs: 10_000, everyMs: 50 }).catch(() => undefined);
  const cpu = meter(total);
  for (const s of streams) s.cancel();
  for (const c of channels) c.close();
  cs.close();
  latencies.sort((a, b) => a - b);
  return {
    bench: 'apiserver-watch-latency',
    watchers: WATCHERS,
    objects: total,
    warmupSeconds: WATCH_WARMUP_SECONDS,
    writeRatePerSec: Math.round(achieved),
    delivered: latencies.length,
    expected: total * WATCHERS,
    writeErrors: errors,
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    maxMs: Number(latencies[latencies.length - 1].toFixed(2)),
    target: 'p99 < 50 ms',
    cpuUsPerWrite: cpu,
  };
}

const cluster = await startProcessCluster({
  // Raw KV paths and the AlwaysAllow apiserver each write a bucket of their own.
  kvBuckets: ['bench_raw', 'bench_raw_tuned', 'kubelab_always_allow', ...(COMPARE_MAIN ? ['kubelab_compare'] : [])],
  apiserver: {
    main,
    flags: EXTRA_FLAGS,
    nodeArgs: [...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/apiprof'] : []), ...argsOf(process.env.BENCH_NODE_ARGS)],
    inheritStdout: Boolean(process.env.BENCH_APISERVER_STDOUT),
  },
});
// BENCH_READER=1: a reader of the apiserver's records for the whole run (they are not published otherwise).
const READER = process.env.BENCH_READER === '1';
let reader;
let recordsRead = 0;
const readerFields = () => ({ recordReader: READER, ...(READER ? { recordsRead } : {}) });
try {
  if (READER) {
    reader = await connect({ servers: cluster.nats.url, ...natsAuthOptions(TRACE_NATS_IDENTITY, await cluster.natsTls(TRACE_NATS_IDENTITY)) });
    reader.subscribe('kubelab.api.>', {
      callback: () => {
        recordsRead++;
      },
    });
    if (!(await announceListening(reader, ['api']).ready)) throw new Error('the apiserver did not confirm the record reader');
  }
  const alwaysAllow = ALWAYS_ALLOW && CREATES > 0 ? await cluster.startApiserver({ main, bucket: 'kubelab_always_allow', flags: { ...EXTRA_FLAGS, 'authorization-mode': 'AlwaysAllow' } }) : undefined;
  const compare =
    COMPARE_MAIN && CREATES > 0
      ? await cluster.startApiserver({
          main: COMPARE_MAIN,
          bucket: 'kubelab_compare',
          flags: { ...EXTRA_FLAGS, ...COMPARE_FLAGS },
          nodeArgs: argsOf(process.env.BENCH_COMPARE_NODE_ARGS),
        })
      : undefined;
  const tls = await cluster.clientTls(BENCH_USER);
  await grantBenchUser(cluster.apiserver.address, cluster.adminTls, ['bench', 'watchbench']);
  if (alwaysAllow) await grantBenchUser(alwaysAllow.address, cluster.adminTls, ['bench']);
  if (compare) await grantBenchUser(compare.address, cluster.adminTls, ['bench']);
  // Watch latency first: the creates leave tens of thousands of objects in the cache (a bigger heap to collect).
  const watch = WATCH_SECONDS > 0 ? await benchWatchLatency(cluster, tls) : undefined;
  if (CREATES > 0) console.log(JSON.stringify({ ...(await benchCreates(cluster, tls, alwaysAllow, compare)), ...readerFields() }));
  if (watch) console.log(JSON.stringify({ ...watch, security: { ...cluster.security, client: BENCH_USER.commonName }, ...readerFields() }));
} finally {
  await reader?.close();
  await cluster.dispose();
}
