// In-process, algorithm-only throughput: the scheduling cycle (filter, score,
// select, assume) for 10,000 pods against 100/1,000/5,000 nodes held in the
// scheduler cache — no apiserver, no binding. Labelled as such in its JSON.

import { CycleState, Framework, SchedulerCache, defaultProfile, newAlgorithmState, newInTreeRegistry, schedulePod } from '../dist/index.js';

const sizes = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
const PODS = Number(process.env.BENCH_PODS ?? 10000);

function node(i) {
  const allocatable = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}`, 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
    spec: {},
    status: { capacity: allocatable, allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function pod(i) {
  return {
    metadata: { name: `pod-${i}`, namespace: 'default', uid: `u${i}` },
    spec: {
      schedulerName: 'default-scheduler',
      containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
  };
}

for (const n of sizes) {
  const cache = new SchedulerCache();
  for (let i = 0; i < n; i++) cache.addNode(node(i));
  const fwk = new Framework(newInTreeRegistry(), defaultProfile(), cache, {});
  const algo = newAlgorithmState();
  const pods = Array.from({ length: PODS }, (_, i) => pod(i));
  const t0 = performance.now();
  let scheduled = 0;
  for (const p of pods) {
    const out = schedulePod(fwk, algo, new CycleState(), p, cache.list());
    if (!out.ok) continue;
    cache.assumePod({ ...p, spec: { ...p.spec, nodeName: out.result.suggestedHost } });
    scheduled++;
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(
    JSON.stringify({
      bench: 'scheduler-algorithm-only',
      what: 'in-process, no apiserver, no binding',
      nodes: n,
      pods: PODS,
      scheduled,
      seconds: +secs.toFixed(3),
      podsPerSecond: Math.round(scheduled / secs),
    }),
  );
}
