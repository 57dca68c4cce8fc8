#!/usr/bin/env node
// @ts-check
// The request-path cost of a list of 5,000 pods as JSON vs protobuf (issue
// #17): an in-process secured apiserver (startTestCluster, REST on HTTPS) holds
// BENCH_LIST_PODS realistic pods (the round-trip fixture's pod, renamed); the
// whole list is fetched BENCH_LIST_ROUNDS times per encoding, alternating, and
// the median time to the last byte and the body size are printed as one JSON
// line: {"bench":"apiserver-list-encoding", ...}. JSON splices the stored
// bytes; protobuf encodes each object from the schema.

import { startTestCluster } from '@kubelab/apiserver/testing';

const PODS = Number(process.env.BENCH_LIST_PODS ?? 5000);
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 10);
const { POD } = await import(new URL('../dist/endpoints/testdata/objects.js', import.meta.url).href);

const c = await startTestCluster({ rest: true });
try {
  const pods = c.apiserver.registry.store('', 'v1', 'pods');
  if (!pods) throw new Error('no pods store');
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < PODS) {
        const i = next++;
        const pod = structuredClone(POD);
        pod.metadata = { name: `web-${i}`, namespace: 'default', labels: pod.metadata.labels, annotations: pod.metadata.annotations };
        await pods.create('default', pod, {});
      }
    }),
  );

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const measure = async (accept) => {
    const t0 = performance.now();
    const r = await c.rest('/api/v1/pods', { headers: { accept } });
    const ms = performance.now() - t0;
    if (r.status !== 200) throw new Error(`list as ${accept}: ${r.status}`);
    return { ms, bytes: Number(r.headers['content-length']) };
  };
  const json = [];
  const protobuf = [];
  // One warm-up each: the JIT compiles both paths before measuring.
  await measure('application/json');
  await measure('application/vnd.kubernetes.protobuf');
  for (let i = 0; i < ROUNDS; i++) {
    json.push(await measure('application/json'));
    protobuf.push(await measure('application/vnd.kubernetes.protobuf'));
  }
  const jsonMs = median(json.map((x) => x.ms));
  const protobufMs = median(protobuf.map((x) => x.ms));
  console.log(
    JSON.stringify({
      bench: 'apiserver-list-encoding',
      pods: PODS,
      rounds: ROUNDS,
      jsonBytes: json[0].bytes,
      protobufBytes: protobuf[0].bytes,
      bytesRatio: Number((protobuf[0].bytes / json[0].bytes).toFixed(3)),
      jsonMs: Number(jsonMs.toFixed(1)),
      protobufMs: Number(protobufMs.toFixed(1)),
      msRatio: Number((protobufMs / jsonMs).toFixed(3)),
    }),
  );
} finally {
  await c.cleanup();
}
