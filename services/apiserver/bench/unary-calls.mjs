#!/usr/bin/env node
// @ts-check
// What one lone request costs (issues 22, 25): a hollow node's kubelet or a
// controller mostly sends one request at a time (a Lease renewal, a node GET,
// a status update), so its cost is the cost of a request that wakes every
// process on the way, not a pipelined create's share of a busy stream. The
// control plane secured as `kubelab up` runs it (startProcessCluster), the
// client library as the admin; the CPU per call of the apiserver (from /proc)
// and of this client (bench/cpu.mjs), for:
//   get     ConfigMap GET (served from the watch cache)
//   update  ConfigMap GET then PUT (a read-modify-write through NATS)
//   patch   ConfigMap GET then a strategic merge PATCH of one field (as a
//           kubelet's node status and the node controller's taints go)
// at each concurrency of BENCH_CONCURRENCY (default 1,16,1: the first level
// runs while the code is still being optimized, the last on warmed code);
// update and patch only at 1 (one object: concurrent updates would conflict). Each
// level first runs BENCH_WARMUP calls unmeasured. One JSON line:
// {"bench":"apiserver-unary-calls",calls,warmup,leanBind,levels:[{what,concurrency,callsPerSec,apiserverUsPerCall,clientUsPerCall}],security}.
// This client installs the lean AsyncResource#bind as every component does
// (installLeanAsyncResourceBind); BENCH_NATIVE_BIND=1 leaves Node's own, to
// see what it costs a client (leanBind in the JSON line says which ran).
//
//   node services/apiserver/bench/unary-calls.mjs

import { fileURLToPath } from 'node:url';
import { startProcessCluster } from '@kubelab/apiserver/testing';
import { installLeanAsyncResourceBind } from '@kubelab/component-base';
import { cpuMeter } from './cpu.mjs';

// By path, as run.mjs: @kubelab/client depends on @kubelab/apiserver for its tests.
const { createClientset } = await import(new URL('../../../packages/client/dist/index.js', import.meta.url).href);

const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,16,1').split(',').map(Number);
if (!LEVELS.every((n) => Number.isInteger(n) && n > 0 && n <= 256)) throw new Error(`BENCH_CONCURRENCY must list integers 1..256, got ${process.env.BENCH_CONCURRENCY}`);
if (!(Number.isInteger(CALLS) && CALLS > 0 && CALLS <= 100_000)) throw new Error('BENCH_CALLS must be an integer 1..100000');
if (!(Number.isInteger(WARMUP) && WARMUP >= 0 && WARMUP <= 100_000)) throw new Error('BENCH_WARMUP must be an integer 0..100000');
const LEAN_BIND = process.env.BENCH_NATIVE_BIND !== '1';
if (LEAN_BIND) installLeanAsyncResourceBind();

const cluster = await startProcessCluster({ apiserver: { main: fileURLToPath(new URL('../dist/main.js', import.meta.url)) } });
const cs = createClientset({ address: cluster.apiserver.address, tls: cluster.adminTls, component: 'apiserver-unary-bench' });
try {
  const cms = cs.core.configMaps('default');
  await cms.create({ metadata: { name: 'unary' }, data: { n: '0' } });
  let n = 0;
  /** @type {Record<string, () => Promise<unknown>>} */
  const calls = {
    get: () => cms.get('unary'),
    update: async () => {
      const o = await cms.get('unary');
      o.data = { n: String(++n) };
      return cms.update(o);
    },
    patch: async () => {
      await cms.get('unary');
      return cms.patch('unary', 'strategic', { data: { n: String(++n) } });
    },
  };
  const levels = [];
  for (const concurrency of LEVELS) {
    for (const [what, call] of Object.entries(calls)) {
      if (what !== 'get' && concurrency > 1) continue;
      /** @param {number} total */
      const run = async (total) => {
        let started = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (started++ < total) await call();
          }),
        );
      };
      await run(WARMUP);
      const cpu = cpuMeter({ apiserver: cluster.apiserver.pid, client: process.pid });
      const t0 = performance.now();
      await run(CALLS);
      const seconds = (performance.now() - t0) / 1000;
      const perCall = cpu(CALLS);
      levels.push({ what, concurrency, callsPerSec: Math.round(CALLS / seconds), apiserverUsPerCall: perCall.apiserver, clientUsPerCall: perCall.client });
    }
  }
  console.log(JSON.stringify({ bench: 'apiserver-unary-calls', calls: CALLS, warmup: WARMUP, leanBind: LEAN_BIND, levels, security: cluster.security }));
} finally {
  cs.close();
  await cluster.dispose();
}
