// @ts-check
// End-to-end scheduler throughput (issue 6 benchmark): a real nats-server, the
// apiserver and kube-scheduler as separate processes, secured as `pnpm kubelab
// up` runs them (startProcessCluster of @kubelab/apiserver/testing: NATS with
// TLS and users, the apiserver with mutual TLS and Node,RBAC, the scheduler
// as system:kube-scheduler from its scheduler.conf); N nodes registered as
// API objects (Ready in status, no kubelets or leases), then 10,000 pods
// created through the apiserver; the clock runs from the first create until
// a watch has seen every pod bound. One JSON line per cluster size.
//
//   pnpm --filter @kubelab/scheduler bench          (sizes 100,1000,5000)
//   BENCH_SIZES=100 BENCH_PODS=2000 pnpm --filter @kubelab/scheduler bench
//   BENCH_SCHED_RECORDS=1 ...   the scheduler also publishes its decision records on NATS, to a reader that
//                               announces itself (as `kubelab up` runs it with the dashboard listening)

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { createClientset } from '@kubelab/client';
import { startProcessCluster } from '@kubelab/apiserver/testing';
import { connect } from '@nats-io/transport-node';
import { SCHEDULER_NATS_IDENTITY, TRACE_NATS_IDENTITY, announceListening, natsAuthOptions, readNatsTls } from '@kubelab/nats';
import { SCHED_SUBJECT_ALL } from '@kubelab/proto/sched-record';
import { exitSignal, freePort, secureGet, waitFor } from '@kubelab/testing';

const here = dirname(fileURLToPath(import.meta.url));
// BENCH_SCHEDULER_MAIN: another build's main.js (a before/after comparison).
const SCHEDULER_MAIN = process.env.BENCH_SCHEDULER_MAIN || join(here, '../dist/main.js');
const sizes = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
const PODS = Number(process.env.BENCH_PODS ?? 10000);
const CREATE_CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const progress = (m) => process.env.BENCH_VERBOSE && process.stderr.write(`[bench] ${m}\n`);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);
const RECORDS = process.env.BENCH_SCHED_RECORDS === '1';

/** CPU seconds (user+system) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

function spawnNode(script, args, name) {
  const nodeArgs = name === 'scheduler' && process.env.BENCH_SCHEDULER_NODE_ARGS ? process.env.BENCH_SCHEDULER_NODE_ARGS.split(' ') : [];
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, KUBELAB_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error', KUBELAB_LOG_FORMAT: 'json' },
  });
  let tail = '';
  child.stderr.on('data', (d) => {
    tail = (tail + d).slice(-4000);
    if (process.env.BENCH_LOG_LEVEL) process.stderr.write(`[${name}] ${d}`);
  });
  let stopping = false;
  child.on('exit', (code, sig) => {
    if (!stopping) process.stderr.write(`${name} exited (${code ?? sig}): ${tail}\n`);
  });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        stopping = true;
        if (child.exitCode !== null) return resolve(undefined);
        child.once('exit', () => resolve(undefined));
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

async function pool(n, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/** @returns {import('@kubelab/api').Node} */
function node(i) {
  const allocatable = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}`, 'kubernetes.io/os': 'linux' } },
    spec: {},
    status: { capacity: allocatable, allocatable, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] },
  };
}

/** @returns {import('@kubelab/api').Pod} */
function pod(i) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'default' },
    spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
  };
}

async function runSize(nodes, mode) {
  const cluster = await startProcessCluster({ nodes: [], ...(process.env.BENCH_APISERVER_NODE_ARGS ? { apiserver: { nodeArgs: process.env.BENCH_APISERVER_NODE_ARGS.split(' ') } } : {}) });
  const grpcAddress = cluster.apiserver.address;
  const schedPort = await freePort();
  const procs = [];
  /** @type {import('@nats-io/transport-node').NatsConnection | undefined} */
  let reader;
  try {
    progress('apiserver up');
    // The bench creates nodes and pods as kubeadm's admin.conf user (cluster-admin through RBAC).
    const cs = createClientset({ address: grpcAddress, tls: cluster.adminTls, component: 'scheduler-bench' });
    // /metrics is for whom RBAC lets read it (system:monitoring): the admin's client certificate.
    const asAdmin = { cert: cluster.adminTls.certPem, key: cluster.adminTls.keyPem };
    // The apiserver creates the default namespace at startup; wait for it.
    await waitFor('the default namespace', () => cs.core.namespaces().get('default'), { timeoutMs: 10_000, everyMs: 100 });
    const tNodes = performance.now();
    await pool(nodes, 64, async (i) => {
      const n = node(i);
      const created = await cs.core.nodes().create(n);
      await cs.core.nodes().updateStatus({ ...created, status: n.status });
    });
    const nodeSecs = (performance.now() - tNodes) / 1000;
    progress(`${nodes} nodes in ${nodeSecs.toFixed(1)} s`);

    const natsArgs = [];
    /** Records seen by a reader (the dashboard's identity, kubelab:trace), and their bytes. */
    const seenRecords = { count: 0, bytes: 0 };
    if (RECORDS) {
      const f = await cluster.natsTlsFiles(SCHEDULER_NATS_IDENTITY);
      natsArgs.push('--nats-url', cluster.nats.url, '--nats-ca-file', f.caFile, '--nats-cert-file', f.certFile, '--nats-key-file', f.keyFile);
      reader = await connect({ servers: cluster.nats.url, ...natsAuthOptions(TRACE_NATS_IDENTITY, readNatsTls(await cluster.natsTlsFiles(TRACE_NATS_IDENTITY))) });
      reader.subscribe(SCHED_SUBJECT_ALL, {
        callback: (err, m) => {
          if (err) return;
          seenRecords.count++;
          seenRecords.bytes += m.data.length;
        },
      });
      // The scheduler records only while a reader listens; it starts later and asks who does.
      announceListening(reader, ['sched']);
    }
    const startScheduler = async () => {
      const sched = spawnNode(
        SCHEDULER_MAIN,
        [
          ...['--apiserver-grpc-address', grpcAddress, '--kubeconfig', await cluster.kubeconfig('scheduler')],
          ...['--secure-port', String(schedPort), '--bind-address', '127.0.0.1', '--leader-elect=false'],
          ...natsArgs,
        ],
        'scheduler',
      );
      procs.push(sched);
      // The secure port serves HTTPS (self-signed); /readyz is always allowed.
      await waitFor('the scheduler /readyz', async () => (await secureGet(schedPort, '/readyz')).status === 200, { timeoutMs: 60_000, everyMs: 100, signal: exitSignal(sched.child, 'scheduler') });
      progress('scheduler ready');
      return sched;
    };
    const createPods = () => pool(PODS, CREATE_CONCURRENCY, (i) => cs.core.pods('default').create(pod(i)));
    /** @type {ReturnType<typeof spawnNode> | undefined} */
    let sched;
    let tCreate0 = 0;
    let tCreated = 0;
    if (mode === 'backlog') {
      tCreate0 = performance.now();
      await createPods();
      tCreated = performance.now();
      progress(`backlog of ${PODS} pods created`);
    } else sched = await startScheduler();

    // Count bound pods from a list+watch that relists if the apiserver closes a lagging watch.
    const bound = new Set();
    let firstBind = 0;
    let lastBind = 0;
    let resolveAll;
    const allBound = new Promise((r) => (resolveAll = r));
    const seen = (p) => {
      if (!p.spec?.nodeName || bound.has(p.metadata.name)) return;
      const now = performance.now();
      if (bound.size === 0) firstBind = now;
      lastBind = now;
      bound.add(p.metadata.name);
      if (bound.size === PODS) resolveAll();
    };
    /** @type {import('@kubelab/client').WatchStream<import('@kubelab/api').WatchEvent<import('@kubelab/api').Pod>> | undefined} */
    let watch;
    let watchStopped = false;
    const watching = (async () => {
      while (!watchStopped) {
        const list = await cs.core.pods('default').list();
        for (const p of list.items) seen(p);
        watch = cs.core.pods('default').watch({ resourceVersion: list.metadata.resourceVersion });
        try {
          for await (const ev of watch) if (ev.type === 'ADDED' || ev.type === 'MODIFIED') seen(ev.object);
        } catch {}
        if (!watchStopped) progress(`watch ended after ${bound.size} bound; relisting`);
      }
    })();
    const pids = { apiserver: cluster.apiserver.pid, nats: cluster.nats.pid };
    // In stream mode the scheduler runs already: what it used to start (loading, syncing the nodes) is no pod's, as for the
    // apiserver and nats; in backlog mode the clock includes its start by design.
    const schedulerStart = sched ? cpuSeconds(sched.child.pid) : 0;
    const cpu0 = { apiserver: cpuSeconds(pids.apiserver), nats: pids.nats ? cpuSeconds(pids.nats) : 0, scheduler: schedulerStart, bench: process.cpuUsage() };
    let t0;
    if (mode === 'backlog') {
      t0 = performance.now();
      sched = await startScheduler();
    } else {
      t0 = performance.now();
      tCreate0 = t0;
      await createPods();
      tCreated = performance.now();
      progress(`created ${PODS} pods; ${bound.size} bound so far`);
    }
    let timer;
    const timeout = new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`only ${bound.size}/${PODS} pods bound after ${TIMEOUT_MS} ms`)), TIMEOUT_MS)));
    try {
      await Promise.race([allBound, timeout]);
    } catch (err) {
      const m = (await secureGet(schedPort, '/metrics', asAdmin)).body;
      progress(
        m
          .split('\n')
          .filter((l) => /^scheduler_(schedule_attempts|pending)/.test(l))
          .join('\n'),
      );
      throw err;
    } finally {
      clearTimeout(timer);
    }
    const done = performance.now();
    watchStopped = true;
    watch?.stop();
    await watching.catch(() => undefined);
    const benchCpu = process.cpuUsage(cpu0.bench);
    const used = {
      apiserver: cpuSeconds(pids.apiserver) - cpu0.apiserver,
      // Both modes have started it by now.
      scheduler: cpuSeconds(/** @type {NonNullable<typeof sched>} */ (sched).child.pid) - cpu0.scheduler,
      nats: pids.nats ? cpuSeconds(pids.nats) - cpu0.nats : 0,
    };
    const cpu = {
      apiserver: +used.apiserver.toFixed(2),
      scheduler: +used.scheduler.toFixed(2),
      nats: pids.nats ? +used.nats.toFixed(2) : null,
      benchClient: +((benchCpu.user + benchCpu.system) / 1e6).toFixed(2),
    };
    const metrics = (await secureGet(schedPort, '/metrics', asAdmin)).body;
    // prom-client writes the labels in the order they were set: either order counts.
    const attempts = metrics
      .split('\n')
      .find((l) => l.startsWith('scheduler_schedule_attempts_total{') && l.includes('result="scheduled"') && l.includes('profile="default-scheduler"'))
      ?.split(' ')[1];
    cs.close();
    const e2e = (done - t0) / 1000;
    return {
      bench: mode === 'backlog' ? 'scheduler-e2e-backlog' : 'scheduler-e2e',
      security: { ...cluster.security, scheduler: 'system:kube-scheduler (scheduler.conf)', client: 'kubernetes-admin (admin.conf)' },
      what:
        mode === 'backlog'
          ? 'pods created first; clock from kube-scheduler start, incl. its informer sync, until every pod is bound'
          : 'nats + apiserver + kube-scheduler processes; clock from the first pod create until every pod is bound',
      nodes,
      pods: PODS,
      podsPerSecond: Math.round(PODS / e2e),
      seconds: +e2e.toFixed(2),
      createRate: Math.round(PODS / ((tCreated - tCreate0) / 1000)),
      bindWindowPodsPerSecond: Math.round(PODS / ((lastBind - firstBind) / 1000)),
      schedulerScheduledAttempts: Number(attempts ?? 0),
      nodeSetupSeconds: +nodeSecs.toFixed(1),
      cpuSecondsDuringRun: cpu,
      ...(mode === 'backlog' ? {} : { schedulerStartCpuSeconds: +schedulerStart.toFixed(2) }),
      // Issue 25's figure: the CPU of apiserver, scheduler and nats per scheduled pod (goal <= 1 ms).
      cpuMsPerPod: +(((used.apiserver + used.scheduler + used.nats) * 1000) / PODS).toFixed(3),
      ...(RECORDS ? { decisionRecords: seenRecords.count, decisionRecordBytesAvg: seenRecords.count ? Math.round(seenRecords.bytes / seenRecords.count) : 0 } : {}),
    };
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await reader?.close();
    await cluster.dispose();
  }
}

const modes = (process.env.BENCH_MODES ?? 'stream').split(',');
for (const n of sizes)
  for (const mode of modes) {
    try {
      console.log(JSON.stringify(await runSize(n, mode)));
    } catch (err) {
      console.log(JSON.stringify({ nodes: n, pods: PODS, mode, error: err instanceof Error ? err.message : String(err) }));
      process.exitCode = 1;
    }
  }
