#!/usr/bin/env node
// @ts-check
// Issue 18's workload benchmarks on a whole local cluster (`kubelab up
// --nodes 2`, loopback only, wall time: no --time-scale), driven with the real
// kubectl as a user would:
//
//   hpa-reaction     a Deployment (1 replica, cpu request 200m) under an
//                    autoscaler (`kubectl autoscale --cpu-percent=50 --min=1
//                    --max=4`) that has seen it idle; then `kubectl exec ...
//                    stress --cpu 1` (the load change). Recorded: load → the
//                    metrics API shows it, → the scale decision (the HPA's
//                    desiredReplicas), → 4 replicas ready. The controller's
//                    sync period (15 s) and metrics-server's resolution (15 s)
//                    are upstream's defaults, so they bound the reaction.
//   job-completions  a Job with completions=1000, parallelism=50 of busybox
//                    `true`: create → Complete, pods/s.
//
// One JSON line each. Bounded: BENCH_COMPLETIONS (1000), BENCH_PARALLELISM
// (50), BENCH_TIMEOUT_MS per step (1,800 s); BENCH_ONLY=hpa|job runs one;
// BENCH_PORT_OFFSET (23900) places the cluster's ports; BENCH_KUBECONFIG uses
// a running cluster instead of starting one.
//
//   pnpm --filter @kubelab/tests bench:workloads

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNNER = join(ROOT, 'packages/kubelab/dist/main.js');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const COMPLETIONS = Number(process.env.BENCH_COMPLETIONS ?? 1000);
const PARALLELISM = Number(process.env.BENCH_PARALLELISM ?? 50);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 1_800_000);
const ONLY = process.env.BENCH_ONLY ?? '';
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 23900);
const progress = (m) => process.env.BENCH_VERBOSE && process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let kubeconfig = process.env.BENCH_KUBECONFIG ?? '';

/** @returns {Promise<{ stdout: string, stderr: string, code: number }>} */
function kubectl(args, opts = {}) {
  return new Promise((resolve) => {
    const child = execFile(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, code: err ? Number(/** @type {any} */ (err).code ?? 1) || 1 : 0 }),
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

async function must(args, opts = {}) {
  const r = await kubectl(args, opts);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Polls fn every `everyMs` until it returns a value; throws after the step timeout. */
async function until(what, fn, everyMs = 500) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${TIMEOUT_MS / 1000}s waiting for ${what}`);
    await sleep(everyMs);
  }
}

const json = async (args) => JSON.parse(await must([...args, '-o', 'json']));

async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-bench-workloads-'));
  // Leader election as upstream, with a longer lease: on a loaded 2-core machine a 10 s renew deadline can pass,
  // and a controller-manager that loses its lease exits (no kubelet restarts it here), which stalls the job.
  const args = ['up', '--nodes', '2', '--state-dir', dir, '--port-offset', String(OFFSET), '--leader-elect-lease-duration=60s', '--leader-elect-renew-deadline=50s'];
  const runner = spawn(process.execPath, [RUNNER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  runner.stdout.on('data', (d) => (out += d));
  runner.stderr.on('data', (d) => (out += d));
  const t0 = performance.now();
  await until('cluster ready', async () => {
    if (runner.exitCode !== null) throw new Error(`kubelab up exited (${runner.exitCode}): ${out.slice(-2000)}`);
    return out.includes('cluster ready');
  });
  progress(`cluster ready after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  kubeconfig = join(dir, 'kubeconfig');
  return async () => {
    if (runner.exitCode === null) {
      runner.kill('SIGINT');
      await Promise.race([new Promise((r) => runner.once('exit', r)), sleep(60_000)]);
      if (runner.exitCode === null) runner.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: load
  namespace: bench-hpa
spec:
  replicas: 1
  selector:
    matchLabels: { app: load }
  template:
    metadata:
      labels: { app: load }
    spec:
      containers:
        - name: load
          image: docker.io/polinux/stress
          command: ["sleep", "3600"]
          resources:
            requests: { cpu: 200m }
`;

async function hpaReaction() {
  await must(['create', 'namespace', 'bench-hpa']);
  await must(['apply', '-f', '-'], { input: DEPLOYMENT });
  await must(['-n', 'bench-hpa', 'rollout', 'status', 'deployment/load', `--timeout=${TIMEOUT_MS / 1000}s`]);
  await must(['-n', 'bench-hpa', 'autoscale', 'deployment', 'load', '--cpu-percent=50', '--min=1', '--max=4']);
  // The autoscaler has read the idle pod's usage (a current metric, below the target) before the load starts.
  const idle = await until(
    'the autoscaler to see the idle pod',
    async () => {
      const h = await json(['-n', 'bench-hpa', 'get', 'hpa', 'load']);
      const u = h.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization;
      return typeof u === 'number' && u < 50 ? u : undefined;
    },
    1000,
  );
  const pod = (await json(['-n', 'bench-hpa', 'get', 'pods', '-l', 'app=load'])).items[0].metadata.name;
  progress(`idle at ${idle}%, load on ${pod}`);
  const exec = spawn(KUBECTL, ['--kubeconfig', kubeconfig, '-n', 'bench-hpa', 'exec', pod, '--', 'stress', '--cpu', '1', '--timeout', '600s'], { stdio: 'ignore' });
  const tLoad = performance.now();
  const since = (t) => Math.round(t - tLoad);
  try {
    let tMetric = 0;
    let tDecision = 0;
    const tReady = await until(
      '4 replicas ready',
      async () => {
        const now = performance.now();
        if (!tMetric) {
          const r = await kubectl(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/namespaces/bench-hpa/pods/${pod}`]);
          const cpu = r.code === 0 ? String(JSON.parse(r.stdout).containers?.[0]?.usage?.cpu ?? '0') : '0';
          // n (nanocores) or m: over the 100m target means the load is visible.
          const milli = cpu.endsWith('n') ? Number(cpu.slice(0, -1)) / 1e6 : cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
          if (milli > 100) tMetric = now;
        }
        const h = await json(['-n', 'bench-hpa', 'get', 'hpa', 'load']);
        if (!tDecision && (h.status?.desiredReplicas ?? 1) > 1) tDecision = now;
        const d = await json(['-n', 'bench-hpa', 'get', 'deployment', 'load']);
        return tDecision && (d.status?.readyReplicas ?? 0) >= 4 ? performance.now() : undefined;
      },
      500,
    );
    const events = await must(['-n', 'bench-hpa', 'get', 'events', '--field-selector', 'reason=SuccessfulRescale', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}']);
    return {
      bench: 'hpa-reaction',
      syncPeriodMs: 15_000,
      metricResolutionMs: 15_000,
      loadToMetricMs: since(tMetric),
      loadToDecisionMs: since(tDecision),
      decisionToReadyMs: Math.round(tReady - tDecision),
      loadToReadyMs: since(tReady),
      rescale: events.trim().split('\n').filter(Boolean),
    };
  } finally {
    exec.kill('SIGKILL');
    await kubectl(['delete', 'namespace', 'bench-hpa', '--wait=false']);
  }
}

async function jobCompletions() {
  await must(['create', 'namespace', 'bench-job']);
  const job = `apiVersion: batch/v1
kind: Job
metadata:
  name: many
  namespace: bench-job
spec:
  completions: ${COMPLETIONS}
  parallelism: ${PARALLELISM}
  backoffLimit: ${COMPLETIONS}
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: work
          image: busybox:1.36
          command: ["true"]
`;
  const t0 = performance.now();
  await must(['apply', '-f', '-'], { input: job });
  let maxActive = 0;
  const status = await until(
    'the job to complete',
    async () => {
      const j = await json(['-n', 'bench-job', 'get', 'job', 'many']);
      maxActive = Math.max(maxActive, j.status?.active ?? 0);
      progress(`succeeded ${j.status?.succeeded ?? 0} active ${j.status?.active ?? 0}`);
      const done = (j.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
      return done ? { ...j.status, done: done.type } : undefined;
    },
    2000,
  );
  const secs = (performance.now() - t0) / 1000;
  // Why pods failed, if any did (at most three), before the namespace goes.
  const failedPods = (await json(['-n', 'bench-job', 'get', 'pods', '--field-selector', 'status.phase=Failed'])).items.slice(0, 3).map((p) => {
    const t = p.status?.containerStatuses?.[0]?.state?.terminated;
    return `${p.metadata.name}: ${p.status?.reason ?? t?.reason ?? ''} ${t?.exitCode ?? ''} ${p.status?.message ?? t?.message ?? ''}`.trim();
  });
  await kubectl(['delete', 'namespace', 'bench-job', '--wait=false']);
  return {
    bench: 'job-completions',
    completions: COMPLETIONS,
    parallelism: PARALLELISM,
    condition: status.done,
    succeeded: status.succeeded ?? 0,
    failed: status.failed ?? 0,
    maxActiveSeen: maxActive,
    failedPods,
    seconds: Number(secs.toFixed(1)),
    podsPerSecond: Number(((status.succeeded ?? 0) / secs).toFixed(2)),
    // The job's own clock (seconds in the API): startTime → completionTime.
    apiSeconds: status.completionTime && status.startTime ? (Date.parse(status.completionTime) - Date.parse(status.startTime)) / 1000 : undefined,
  };
}

const stop = kubeconfig ? async () => {} : await startCluster();
let failed = false;
try {
  for (const [name, run] of /** @type {const} */ ([
    ['hpa', hpaReaction],
    ['job', jobCompletions],
  ])) {
    if (ONLY && ONLY !== name) continue;
    const r = await run();
    process.stdout.write(`${JSON.stringify({ ...r, at: new Date().toISOString() })}\n`);
    if (r.bench === 'job-completions' && r.condition !== 'Complete') failed = true;
  }
} catch (err) {
  process.stderr.write(`workloads bench: ${/** @type {Error} */ (err).message}\n`);
  failed = true;
} finally {
  await stop();
}
process.exit(failed ? 1 : 0);
