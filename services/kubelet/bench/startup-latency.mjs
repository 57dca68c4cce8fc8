// Pod startup latency on one kubelet (the upstream pod-startup SLO measure):
// from the create request to the watch showing every container running, for
// 100 pods with zero simulated pull time. Prints p50/p90/p99/max.
// As deployed, apiserver and containerd run as their own processes (their
// dist/main.js); the kubelet runs in this process.
//
//   pnpm --filter @kubelab/kubelet bench        (PODS=100 CONCURRENCY=10)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { createClientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { freePort, startNatsServer, waitForPort } from '@kubelab/testing';
import { startKubelet } from '../dist/index.js';

const PODS = Number(process.env.PODS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
/** Creates per second (0: as fast as CONCURRENCY allows, a burst). */
const QPS = Number(process.env.QPS ?? 0);
const quiet = (component) => createLogger({ component, level: 'error' });

const dir = mkdtempSync(join(tmpdir(), 'kubelab-kubelet-bench-'));
const nats = await startNatsServer();
const require = createRequire(import.meta.url);
const mainOf = (pkg) => join(require.resolve(pkg), '..', 'main.js');
const children = [];
const run = (script, args) => {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, KUBELAB_LOG_LEVEL: 'error' } });
  children.push(child);
  return child;
};
const grpcPort = await freePort();
run(mainOf('@kubelab/apiserver'), ['--nats-url', nats.url, '--bind-address', '127.0.0.1', '--secure-port', '0', '--grpc-port', String(grpcPort)]);
await waitForPort(grpcPort, 20_000);
const socket = join(dir, 'containerd.sock');
run(mainOf('@kubelab/containerd'), ['--node-name', 'node-1', '--address', socket, '--root', join(dir, 'containerd'), '--health-port', '0', '--pull-speed', '0', '--pod-cidr', '10.244.1.0/24', '--v', 'error']);
for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
const apiserver = { grpcPort };
const containerd = { socketPath: socket };
const kubelet = await startKubelet({
  apiserver: `127.0.0.1:${apiserver.grpcPort}`,
  nodeName: 'node-1',
  nodeIP: '127.0.0.1',
  containerRuntimeEndpoint: `unix://${containerd.socketPath}`,
  address: '127.0.0.1',
  port: 0,
  healthzPort: -1,
  rootDir: join(dir, 'kubelet'),
  podLogsDir: join(dir, 'pods'),
  logger: quiet('kubelet'),
  // EVENTED_PLEG=1: the runtime's container events wake pod workers at once,
  // instead of the next 1 s relist (upstream's EventedPLEG feature gate).
  ...(process.env.EVENTED_PLEG === '1' ? { featureGates: { EventedPLEG: true } } : {}),
});
const cs = createClientset({ address: `127.0.0.1:${apiserver.grpcPort}`, component: 'bench' });

try {
  // Wait for the node, then warm the image so every pod sees it present.
  for (let i = 0; i < 100; i++) {
    const n = await cs.core.nodes().get('node-1').catch(() => undefined);
    if (n?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const created = new Map();
  globalThis.__created = created;
  const running = new Map();
  const watch = cs.core.pods('bench').watch({});
  let done;
  const all = new Promise((r) => (done = r));
  (async () => {
    for await (const ev of watch) {
      const p = ev.object;
      const name = p.metadata?.name;
      if (!name || running.has(name) || !created.has(name)) continue;
      const cs = p.status?.containerStatuses ?? [];
      if (cs.length && cs.every((c) => c.state?.running)) {
        running.set(name, performance.now());
        if (running.size === PODS) done();
      }
    }
  })();
  await cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } }).catch(() => {});
  const names = Array.from({ length: PODS }, (_, i) => `pod-${String(i).padStart(3, '0')}`);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < names.length) {
        const name = names[next++];
        if (QPS > 0) {
          const due = t0 + ((next - 1) * 1000) / QPS;
          if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
        }
        created.set(name, performance.now());
        await cs.core.pods('bench').create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'bench' },
          spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
        });
      }
    }),
  );
  await Promise.race([all, new Promise((_, rej) => setTimeout(() => rej(new Error(`only ${running.size}/${PODS} pods running after 120 s`)), 120_000))]);
  const total = performance.now() - t0;
  watch.stop();
  const lat = names.map((n) => running.get(n) - created.get(n)).sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)];
  const fmt = (ms) => `${ms.toFixed(0)} ms`;
  console.log(`pod startup latency, ${PODS} pods on one kubelet (${QPS > 0 ? `${QPS} creates/s` : `burst, ${CONCURRENCY} concurrent creates`}, zero pull time, created → all containers running via watch)`);
  console.log(`  p50 ${fmt(q(50))}  p90 ${fmt(q(90))}  p99 ${fmt(q(99))}  max ${fmt(lat[lat.length - 1])}  (all ${PODS} in ${fmt(total)})`);
  console.log(`  target p99 < 1000 ms: ${q(99) < 1000 ? 'met' : 'NOT met'}`);
} finally {
  cs.close();
  await kubelet.stop();
  if (process.env.DETAIL) {
    const { readFileSync } = await import('node:fs');
    const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return ((Number(f[11]) + Number(f[12])) * 10).toFixed(0); };
    console.log(`  cpu ms: apiserver ${cpu(children[0].pid)}, containerd ${cpu(children[1].pid)}, this process (kubelet + client) ${(process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000).toFixed(0)}`);
  }
  for (const c of children) {
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (c.exitCode === null) c.kill('SIGKILL');
  }
  await nats.dispose();
  rmSync(dir, { recursive: true, force: true });
}
