// In-process, algorithm-only throughput: the scheduling cycle (filter, score,
// select, assume) for 10,000 pods against 100/1,000/5,000 nodes held in the
// scheduler cache — no apiserver, no binding. Labelled as such in its JSON.

import { CycleState, Framework, SchedulerCache, buildDecisionRecord, defaultProfile, newAlgorithmState, newInTreeRegistry, schedulePod } from '../dist/index.js';
import { encodeSchedulingDecisionRecord } from '@kubelab/proto/sched-record';

const sizes = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
const PODS = Number(process.env.BENCH_PODS ?? 10000);
// BENCH_SCHED_RECORDS=1: each cycle also builds and encodes its decision record, as the scheduler does with --nats-url (the publish itself is a buffered socket write, not measured here).
const RECORDS = process.env.BENCH_SCHED_RECORDS === '1';

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
  let recordBytes = 0;
  for (const p of pods) {
    const state = new CycleState();
    const allNodes = cache.list();
    const startPerf = performance.now();
    const detail = RECORDS ? {} : undefined;
    const out = schedulePod(fwk, algo, state, p, allNodes, detail);
    if (detail) {
      const outcome = out.ok ? { result: 'Scheduled', node: out.result.suggestedHost } : { result: 'Unschedulable', message: 'fit error' };
      const rec = buildDecisionRecord({ fwk, state, pod: p, allNodes, detail, cycle: scheduled, attempts: 1, startMs: Date.now(), durationMs: performance.now() - startPerf, ...outcome });
      recordBytes += encodeSchedulingDecisionRecord(rec).length;
    }
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
      ...(RECORDS ? { decisionRecords: true, recordBytesAvg: Math.round(recordBytes / PODS) } : {}),
    }),
  );
}
