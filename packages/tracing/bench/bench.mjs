// Overhead of the gRPC tracing interceptors on a unary call over loopback:
// no tracing vs tracing off vs on-but-unsampled vs on at 100% (spans batched
// to an exporter that drops them, so only the SDK's own cost is measured).
// Rounds are interleaved and medians compared within this run. Bounded by BENCH_CALLS.
import * as grpc from '@grpc/grpc-js';
import { grpcClientInterceptors, injectMetadata, setupTracing, traceServerHandlers, context, trace, SpanKind } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const json = { serialize: (v) => Buffer.from(JSON.stringify(v)), deserialize: (b) => JSON.parse(b.toString()) };
const service = {
  RunPodSandbox: {
    path: '/runtime.v1.RuntimeService/RunPodSandbox',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
const Client = grpc.makeGenericClientConstructor(service, 'RuntimeService');
const dropExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };

const configs = {
  none: () => undefined,
  off: () => setupTracing({ serviceName: 'bench', env: {} }),
  unsampled: () => setupTracing({ serviceName: 'bench', exporter: dropExporter, batch: true, env: {} }),
  sampled: () => setupTracing({ serviceName: 'bench', exporter: dropExporter, batch: true, samplingRatePerMillion: 1_000_000, env: {} }),
};

async function rig(tracing) {
  const impl = { RunPodSandbox: (call, cb) => cb(null, { podSandboxId: call.request.name }) };
  const server = new grpc.Server();
  server.addService(service, tracing ? traceServerHandlers(tracing, service, impl) : impl);
  const port = await new Promise((res, rej) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), tracing ? { interceptors: grpcClientInterceptors(tracing) } : {});
  const call = () => new Promise((res, rej) => client.RunPodSandbox({ name: 'web' }, (e, r) => (e ? rej(e) : res(r))));
  return {
    call,
    close: async () => {
      client.close();
      await new Promise((r) => server.tryShutdown(r));
      await tracing?.shutdown();
    },
  };
}

const rigs = {};
for (const [name, make] of Object.entries(configs)) {
  rigs[name] = await rig(make());
  for (let i = 0; i < 300; i++) await rigs[name].call(); // warm-up
}
const perCall = Object.fromEntries(Object.keys(configs).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const name of Object.keys(configs)) {
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await rigs[name].call();
    perCall[name].push(((performance.now() - t0) * 1000) / CALLS);
  }
}
for (const r of Object.values(rigs)) await r.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r3 = (n) => Math.round(n * 1000) / 1000;
const base = median(perCall.none);
for (const name of Object.keys(configs)) {
  const m = median(perCall[name]);
  console.log(JSON.stringify({ bench: `grpc unary call, tracing ${name}`, calls: CALLS * ROUNDS, medianUsPerCall: r3(m), ratioToNone: r3(m / base) }));
}
const ratioOff = median(perCall.off) / base;
console.log(JSON.stringify({ bench: 'grpc tracing off overhead', ratioToNone: r3(ratioOff), goal: 1.05, ok: ratioOff <= 1.05 }));

// The CPU the client side adds per sampled call, without the network's noise:
// start a CLIENT span, inject traceparent into metadata, end the span.
const sampled = configs.sampled();
const N = 20_000;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const span = sampled.tracer.startSpan('runtime.v1.RuntimeService/RunPodSandbox', { kind: SpanKind.CLIENT });
  injectMetadata(new grpc.Metadata(), trace.setSpan(context.active(), span));
  span.end();
}
const us = ((performance.now() - t0) * 1000) / N;
await sampled.shutdown();
console.log(JSON.stringify({ bench: 'client span + traceparent inject (sampled)', iterations: N, usPerCall: r3(us), shareOfMedianCall: r3(us / base) }));
