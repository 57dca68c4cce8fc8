// @ts-check
// A raw NATS KV client in a thread of its own (run.mjs's raw paths): its
// heap is not the apiserver client's, so the garbage each one makes (nats.js
// with its defaults makes an Error per request) is collected in its own
// blocks, not in the other path's. Asked by message: run `total` creates at
// `inflight`, answered with the time they took and, if asked, each latency.

import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { pump } from './pump.mjs';

/** @type {{ connectOptions: object, bucket: string, payload: Uint8Array }} */
const { connectOptions, bucket, payload } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const nc = await connect(connectOptions);
const kv = await new Kvm(jetstream(nc)).create(bucket, { history: 1, storage: 'file' });

port.on('message', async (/** @type {{ id: number, type: 'run' | 'close', total?: number, inflight?: number, prefix?: string, latencies?: boolean }} */ m) => {
  if (m.type === 'close') {
    await nc.close();
    port.postMessage({ id: m.id });
    return;
  }
  const latencies = m.latencies ? [] : undefined;
  const t0 = performance.now();
  await pump(m.total ?? 0, m.inflight ?? 1, (i) => kv.create(`/registry/configmaps/bench/${m.prefix}-${i}`, payload), latencies);
  port.postMessage({ id: m.id, ms: performance.now() - t0, latencies });
});
port.postMessage({ ready: true });
