#!/usr/bin/env node
// @ts-check
// Issue 22's zone benchmark: the node lifecycle controller at size.
// `kubelab up --nodes N --hollow` (3 zones round-robin), then, as a user
// would, `kubelab hollow stop` and the real kubectl:
//
//   1. a whole zone (zone-a) down while the others run: the zone is fully
//      disrupted, so its nodes are tainted unreachable:NoExecute at
//      --node-eviction-rate;
//   2. BENCH_PARTIAL (60%) of zone-b down: partial disruption in a zone
//      larger than --large-cluster-size-threshold, so
//      --secondary-node-eviction-rate.
//
// Recorded, as one JSON line, per state: the configured rate, the rate
// measured from the taints' timeAdded over the first BENCH_TAINTS taints
// added once the zone's state settled, one node-monitor period after every
// stopped node is NotReady ((n-1) ÷ (last - first); timeAdded has whole
// seconds; taintsBeforeState counts the earlier ones, made at the normal
// rate while the zone still counted as Normal; a zone whose rate is 0 is
// watched for 30 s and its taints counted), and the times from
// `hollow stop` to the first node NotReady, to all stopped nodes NotReady
// and to the first taint; then `hollow start` → every node Ready and
// untainted again.
//
// Bounded: BENCH_NODES (300), BENCH_RATE (1), BENCH_SECONDARY_RATE (0.1),
// BENCH_LARGE (50), BENCH_TAINTS (20 at the normal rate; 4 at the
// secondary), BENCH_GRACE (the controller-manager's default when unset),
// BENCH_TIMEOUT_MS per step (420 s), BENCH_PORT_OFFSET (24600),
// BENCH_STATE_DIR (a fresh temp dir, removed after). The cluster is always
// stopped at the end.
//
//   pnpm --filter @kubelab/kubemark bench:zones

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, gone, progress, round, run, waiter } from './harness.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RUNNER = join(ROOT, 'packages/kubelab/dist/main.js');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const NODES = Number(process.env.BENCH_NODES ?? 300);
const RATE = Number(process.env.BENCH_RATE ?? 1);
const SECONDARY = Number(process.env.BENCH_SECONDARY_RATE ?? 0.1);
const LARGE = Number(process.env.BENCH_LARGE ?? 50);
const TAINTS = Number(process.env.BENCH_TAINTS ?? 20);
const PARTIAL = Number(process.env.BENCH_PARTIAL ?? 0.6);
const GRACE = process.env.BENCH_GRACE;
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 420_000);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 24600);
/** The node lifecycle controller's --node-monitor-period (5 s) and the taints' whole-second timeAdded: the zone's state is settled by then. */
const STATE_SETTLED_MS = 6_000;
/** How long a zone whose rate is 0 is watched for taints once its state settled: none may come. */
const ZERO_RATE_WINDOW_MS = 30_000;

const dir = process.env.BENCH_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'kubelab-bench-zones-'));
const kubeconfig = join(dir, 'kubeconfig');

const kubectl = (args) => run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { timeoutMs: 300_000 });
const hollow = (args) => run(process.execPath, [RUNNER, 'hollow', ...args, '--state-dir', dir], { timeoutMs: 300_000 });

const until = waiter(TIMEOUT_MS);

/** Every node: name, zone, Ready status, the unreachable NoExecute taint's timeAdded (ms) if any. */
async function nodes() {
  const list = JSON.parse(await kubectl(['get', 'nodes', '-o', 'json']));
  return list.items.map((n) => ({
    name: n.metadata.name,
    zone: n.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
    ready: n.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '',
    tainted: (() => {
      const t = (n.spec?.taints ?? []).find((x) => x.effect === 'NoExecute' && x.key === 'node.kubernetes.io/unreachable');
      return t ? Date.parse(t.timeAdded) : undefined;
    })(),
  }));
}

/** Stops `names` (via `hollow stop`), follows them until `taints` of them are tainted; the state's figures. */
async function disrupt(label, stopArgs, configured, taints, runnerAlive) {
  const t0 = Date.now();
  const out = await hollow(['stop', ...stopArgs]);
  const stopped = (/: (.*)$/m.exec(out)?.[1] ?? '').split(' ').filter(Boolean);
  progress(`${label}: stopped ${stopped.length} nodes`);
  const r = { stopped: stopped.length, configuredRate: configured };
  /** @type {number | undefined} when every stopped node was first seen NotReady */
  let allDownAt;
  await until(`${label}: ${taints} taints`, async () => {
    runnerAlive();
    const ns = (await nodes()).filter((n) => stopped.includes(n.name));
    const now = (Date.now() - t0) / 1000;
    const down = ns.filter((n) => n.ready !== 'True').length;
    if (down > 0 && r.firstNotReadySeconds === undefined) r.firstNotReadySeconds = round(now);
    if (down === stopped.length && r.allNotReadySeconds === undefined) {
      r.allNotReadySeconds = round(now);
      allDownAt = Date.now();
    }
    const all = ns.map((n) => n.tainted).filter((t) => t !== undefined);
    if (all.length > 0 && r.firstTaintSeconds === undefined) r.firstTaintSeconds = round(now);
    r.taintsBeforeState = all.filter((t) => allDownAt === undefined || t < allDownAt + STATE_SETTLED_MS).length;
    // The rate of the zone's state: taints from one monitor period after every stopped node is NotReady (before
    // that the zone counts as Normal while its nodes go NotReady one by one, and upstream taints at the normal rate).
    const times = allDownAt === undefined ? [] : all.filter((t) => t >= allDownAt + STATE_SETTLED_MS).sort((a, b) => a - b);
    // A zone whose rate is 0 (partially disrupted, at most --large-cluster-size-threshold nodes): none for a while.
    if (configured === 0 && allDownAt !== undefined && Date.now() >= allDownAt + STATE_SETTLED_MS + ZERO_RATE_WINDOW_MS) {
      r.taintsMeasured = times.length;
      r.measuredRate = round(times.length / (ZERO_RATE_WINDOW_MS / 1000), 3);
      return true;
    }
    if (configured > 0 && times.length >= taints) {
      const span = (times[taints - 1] - times[0]) / 1000;
      r.taintsMeasured = taints;
      r.measuredRate = span > 0 ? round((taints - 1) / span, 3) : null;
      return true;
    }
    return false;
  });
  const t1 = Date.now();
  await hollow(['start', ...stopArgs]);
  await until(`${label}: every node Ready and untainted`, async () => {
    runnerAlive();
    const ns = await nodes();
    return ns.length === NODES + 1 && ns.every((n) => n.ready === 'True' && n.tainted === undefined);
  });
  r.recoverSeconds = round((Date.now() - t1) / 1000);
  progress(`${label}: ${JSON.stringify(r)}`);
  return r;
}

async function main() {
  const flags = [`--node-eviction-rate=${RATE}`, `--secondary-node-eviction-rate=${SECONDARY}`, `--large-cluster-size-threshold=${LARGE}`, ...(GRACE ? [`--node-monitor-grace-period=${GRACE}`] : [])];
  const args = ['up', '--nodes', String(NODES), '--hollow', '--state-dir', dir, '--port-offset', String(OFFSET), ...flags];
  const t0 = performance.now();
  const runner = spawn(process.execPath, [RUNNER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  runner.stdout.on('data', (d) => (out = (out + d).slice(-20_000)));
  runner.stderr.on('data', (d) => (out = (out + d).slice(-20_000)));
  const runnerAlive = () => {
    if (gone(runner)) throw new Error(`kubelab up exited (${runner.exitCode ?? runner.signalCode}): ${out}`);
  };
  const zoneSize = Math.ceil(NODES / 3);
  const result = { bench: 'hollow-zones', nodes: NODES, zones: 3, zoneSize, flags, cpus: cpus().length, memGiB: round(totalmem() / 2 ** 30), node: process.version };
  try {
    await until('the kubeconfig', async () => (runnerAlive(), existsSync(kubeconfig)));
    let seen = -1;
    await until(`${NODES + 1} nodes Ready`, async () => {
      runnerAlive();
      const ns = await nodes();
      const up = ns.filter((n) => n.ready === 'True' && n.tainted === undefined).length;
      if (up !== seen) progress(`${up} nodes Ready after ${round((performance.now() - t0) / 1000)} s`);
      seen = up;
      return ns.length === NODES + 1 && up === NODES + 1;
    });
    result.readySeconds = round((performance.now() - t0) / 1000);
    result.loadavgBefore = round(loadavg()[0]);
    result.FullDisruption = await disrupt('zone-a down', ['--zone', 'zone-a'], RATE, Math.min(TAINTS, zoneSize), runnerAlive);
    const partial = Math.ceil(zoneSize * PARTIAL);
    result.PartialDisruption = await disrupt(`${partial} of zone-b down`, ['--zone', 'zone-b', '--count', String(partial)], zoneSize > LARGE ? SECONDARY : 0, 4, runnerAlive);
    result.loadavgAfter = round(loadavg()[0]);
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
