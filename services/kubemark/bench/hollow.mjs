#!/usr/bin/env node
// @ts-check
// Issue 22's hollow-node benchmark: `kubelab up --nodes N --hollow` on this
// machine, driven with the real kubectl as a user would. Recorded, as one
// JSON line:
//
//   readySeconds      runner start → every node (N hollow + control-plane) Ready
//   rssMiB            RSS of the hollow-node worker processes (sum), once Ready
//                     and settled; perNodeMiB = that ÷ N (kubelet + runtime)
//   controlPlaneMiB   RSS of the control plane's processes, for scale
//   workerReadySeconds  the first hollow worker's start → every node Ready
//                     (the control plane's own start left out); readyAt: the
//                     same for 25/50/75/100 % of the hollow nodes
//   startedSeconds    the first worker's start → its last node started (its
//                     kubelet registered), from the workers' logs;
//                     cpuMsPerNodeStart = the workers' CPU by then ÷ N (also
//                     on a timeout, as nodes may flap NotReady on a loaded
//                     machine before all are Ready)
//   registeredNodes   hollow Nodes in the API (any status) at the last poll
//   workerCpuSeconds  CPU (user + system) of the hollow workers from their
//                     start until every node is Ready (sum); cpuMsPerNode =
//                     that ÷ N: what one node's start costs its worker
//   otherCpuSeconds   the same for each other process of the runner (apiserver,
//                     nats, controller-manager, …) from its start, by name
//   pods              BENCH_PODS > 0: a Deployment of that many pause pods;
//                     podsSeconds = create → readyReplicas == BENCH_PODS,
//                     podsPerSecond, and the workers' RSS after (rssWithPodsMiB)
//
// Bounded: BENCH_NODES (1000), BENCH_PODS (0), BENCH_TIMEOUT_MS per step
// (300 s), BENCH_SETTLE_MS before the memory reading (15 s),
// BENCH_PORT_OFFSET (24500), BENCH_STATE_DIR (a fresh temp dir, removed
// after), BENCH_ROOT (the kubelab checkout whose build runs: another
// worktree's, for same-window comparisons). The cluster is always stopped
// at the end.
//
//   pnpm --filter @kubelab/kubemark bench

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, gone, followNodes, progress, round, run, sleep, waiter } from './harness.mjs';

const ROOT = process.env.BENCH_ROOT ?? fileURLToPath(new URL('../../../', import.meta.url));
const RUNNER = join(ROOT, 'packages/kubelab/dist/main.js');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const NODES = Number(process.env.BENCH_NODES ?? 1000);
const PODS = Number(process.env.BENCH_PODS ?? 0);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 15_000);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 24500);

const dir = process.env.BENCH_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'kubelab-bench-hollow-'));
const kubeconfig = join(dir, 'kubeconfig');

const kubectl = (args, input) => run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { input });

const until = waiter(TIMEOUT_MS);

/** The runner's processes from its pid files (run/<name>.pid): [name, pid]. */
function runnerPids() {
  const run = join(dir, 'run');
  return (existsSync(run) ? readdirSync(run) : []).filter((f) => f.endsWith('.pid')).map((f) => [f.slice(0, -'.pid'.length), readFileSync(join(run, f), 'utf8').trim()]);
}

/** RSS in MiB of the runner's processes whose names `match`.
 * @param {(name: string) => boolean} match
 */
function rssMiB(match) {
  let kib = 0;
  for (const [name, pid] of runnerPids()) {
    if (!match(name)) continue;
    const m = /VmRSS:\s+(\d+) kB/.exec(existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '');
    if (m) kib += Number(m[1]);
  }
  return round(kib / 1024);
}

/** CPU seconds (user + system) of every other process of the runner, by name: where the rest of the start went. */
function otherCpuSeconds() {
  const out = {};
  for (const [name, pid] of runnerPids()) {
    const t = isWorker(name) ? undefined : procTimes(pid);
    if (t) out[name] = round(t.cpu);
  }
  return out;
}

/** A hollow-node worker's name (run/hollow-node-<w>.pid). */
const isWorker = (/** @type {string} */ name) => /^hollow-node-\d+$/.test(name);

/** The hollow workers' pids. */
function workerPids() {
  return runnerPids()
    .filter(([name]) => isWorker(name))
    .map(([, pid]) => pid);
}

/** CPU seconds (user + system) of the hollow workers so far (sum). */
const workerCpu = () => workerPids().reduce((s, pid) => s + (procTimes(pid)?.cpu ?? 0), 0);

const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts in 1/100 s
/** From /proc/<pid>/stat: CPU seconds used (utime + stime) and the start in seconds since boot. */
function procTimes(pid) {
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return f.length > 20 ? { cpu: (Number(f[11]) + Number(f[12])) / TICKS, start: Number(f[19]) / TICKS } : undefined;
}
const uptime = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);

/** Whether every worker's log says its nodes all started (worker.ts: `N hollow nodes started (…) in Xs`). */
function workersStarted() {
  const logs = join(dir, 'logs');
  const files = existsSync(logs) ? readdirSync(logs).filter((f) => /^hollow-node-\d+\.log$/.test(f)) : [];
  return files.length > 0 && files.length === workerPids().length && files.every((f) => / hollow nodes started \(/.test(readFileSync(join(logs, f), 'utf8')));
}

/** Nodes registered (any status) and Ready, the control-plane node included. */
let registered = 0;
const readyNodes = async () => {
  const lines = (await kubectl(['get', 'nodes', '--no-headers'])).split('\n').filter((l) => l.trim());
  registered = lines.length;
  return lines.filter((l) => / Ready /.test(l)).length;
};

const deployment = (replicas) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: density, namespace: default }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: density } }
  template:
    metadata: { labels: { app: density } }
    spec:
      containers:
        - name: pause
          image: registry.k8s.io/pause:3.10
          resources: { requests: { cpu: 1m, memory: 1Mi } }
`;

async function main() {
  const args = ['up', '--nodes', String(NODES), '--hollow', '--state-dir', dir, '--port-offset', String(OFFSET)];
  const t0 = performance.now();
  const runner = spawn(process.execPath, [RUNNER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  runner.stdout.on('data', (d) => (out = (out + d).slice(-20_000)));
  runner.stderr.on('data', (d) => (out = (out + d).slice(-20_000)));
  const runnerAlive = () => {
    if (gone(runner)) throw new Error(`kubelab up exited (${runner.exitCode ?? runner.signalCode}): ${out}`);
  };
  const result = { bench: 'hollow-nodes', nodes: NODES, cpus: cpus().length, memGiB: round(totalmem() / 2 ** 30), node: process.version };
  try {
    await until('the kubeconfig', async () => {
      runnerAlive();
      return existsSync(kubeconfig);
    });
    let last = -1;
    /** The first worker's start (seconds since boot), once a worker runs. */
    let workerStart;
    const readyAt = {};
    // Also on a timeout: how far the nodes got, and what the workers had spent by then.
    result.readyAt = readyAt;
    // Followed through a watch, not listed each second (harness.mjs followNodes).
    const nodes = followNodes(KUBECTL, kubeconfig);
    await until(
      `${NODES + 1} nodes Ready`,
      async () => {
        runnerAlive();
        const seen = nodes.counts();
        registered = seen.registered;
        const n = seen.ready;
        const starts = workerPids()
          .map(procTimes)
          .filter(Boolean)
          .map((t) => t.start);
        if (starts.length) workerStart = Math.min(...starts);
        result.readyNodes = Math.max(0, n - 1);
        result.registeredNodes = Math.max(0, registered - 1);
        if (result.startedSeconds === undefined && workerStart !== undefined && workersStarted()) {
          result.startedSeconds = round(uptime() - workerStart);
          result.cpuMsPerNodeStart = round((workerCpu() * 1000) / NODES);
        }
        result.workerCpuSeconds = round(workerCpu());
        const sinceWorker = workerStart === undefined ? undefined : round(uptime() - workerStart);
        if (n !== last) progress(`${n} nodes Ready after ${round((performance.now() - t0) / 1000)} s${sinceWorker === undefined ? '' : ` (${sinceWorker} s after the first worker started)`}`);
        last = n;
        // The control-plane node is one of the n; the quarters count hollow nodes.
        for (const q of [25, 50, 75, 100]) if (readyAt[q] === undefined && sinceWorker !== undefined && n - 1 >= (NODES * q) / 100) readyAt[q] = sinceWorker;
        return n >= NODES + 1;
      },
      1000,
    ).finally(() => nodes.stop());
    result.readySeconds = round((performance.now() - t0) / 1000);
    result.workerCpuSeconds = round(workerCpu());
    result.cpuMsPerNode = round((result.workerCpuSeconds * 1000) / NODES);
    if (workerStart !== undefined) result.workerReadySeconds = round(uptime() - workerStart);
    result.otherCpuSeconds = otherCpuSeconds();
    result.workers = workerPids().length;
    await sleep(SETTLE_MS);
    result.rssMiB = rssMiB(isWorker);
    result.perNodeMiB = round(result.rssMiB / NODES, 2);
    result.controlPlaneMiB = Object.fromEntries(['apiserver', 'scheduler', 'controller-manager', 'nats'].map((p) => [p, rssMiB((n) => n === p)]));
    result.stillReady = await readyNodes();
    result.loadavg1 = round(loadavg()[0]);
    if (PODS > 0) {
      const tp = performance.now();
      await kubectl(['apply', '-f', '-'], deployment(PODS));
      let seen = -1;
      await until(
        `${PODS} pods ready`,
        async () => {
          const ready = Number((await kubectl(['get', 'deployment', 'density', '-o', 'jsonpath={.status.readyReplicas}'])) || 0);
          if (ready !== seen) progress(`${ready}/${PODS} pods ready after ${round((performance.now() - tp) / 1000)} s`);
          seen = ready;
          return ready >= PODS;
        },
        2000,
      );
      result.pods = PODS;
      result.podsSeconds = round((performance.now() - tp) / 1000);
      result.podsPerSecond = round(PODS / result.podsSeconds);
      result.rssWithPodsMiB = rssMiB(isWorker);
      result.nodesReadyWithPods = await readyNodes();
    }
  } catch (e) {
    result.error = /** @type {Error} */ (e).message.slice(0, 2000);
  } finally {
    if (!gone(runner)) {
      runner.kill('SIGINT');
      await exited(runner, 120_000);
      if (!gone(runner)) runner.kill('SIGKILL');
    }
    if (!process.env.BENCH_STATE_DIR) rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return result.error ? 1 : 0;
}

process.exitCode = await main();
