// CPU per unary gRPC call (client + server in this process, loopback), untraced
// vs traced, measured with process.cpuUsage() — not wall time: the build
// machine is shared. Modes alternate every BLOCK calls (so they share the
// machine's load alike) and the totals are compared within one run. Calls are
// made as the kubelet's CRI client makes them (deadline, metadata, the
// caller's trace context; a sampled parent when sampling):
//   none        tracing off (no interceptor, no server wrapper)
//   *-icpt      CLIENT span by grpcClientInterceptors (the path of streams and
//               of callers that do not build their own metadata)
//   *-site      CLIENT span started by the call site (startClientRpc), as the
//               client library and the kubelet's CRI client do
//   *-before    the interceptor path of another build of this package
//               (BEFORE_DIST=bench/before/dist/index.js: a copy of its dist
//               inside this package, so its imports resolve), for
//               before/after figures in one run
// Bounded: CALLS calls per mode. MODES=sampled-site with `node --cpu-prof`
// profiles one mode alone.
import * as grpc from '@grpc/grpc-js';
import { trace, SpanKind, ROOT_CONTEXT } from '@opentelemetry/api';
import * as current from '../dist/index.js';

const before = process.env.BEFORE_DIST ? await import(new URL(process.env.BEFORE_DIST, `file://${process.cwd()}/`).href) : undefined;

const CALLS = Number(process.env.CALLS ?? 20_000);
const BLOCK = Number(process.env.BLOCK ?? 100);
const INFLIGHT = Number(process.env.INFLIGHT ?? 1);
const MODES = (process.env.MODES ?? `none,unsampled-icpt,unsampled-site,sampled-icpt,sampled-site${before ? ',unsampled-before,sampled-before' : ''}`).split(',');

const json = { serialize: (v) => Buffer.from(JSON.stringify(v)), deserialize: (b) => JSON.parse(b.toString()) };
const service = {
  RunPodSandbox: {
    path: '/runtime.v1.RuntimeService/RunPodSandbox',
    originalName: 'runPodSandbox',
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
const tracingFor = (lib, sampled) =>
  lib.setupTracing({ serviceName: 'bench', exporter: dropExporter, batch: true, contextPropagation: 'sync', env: {}, ...(sampled ? { samplingRatePerMillion: 1_000_000 } : {}) });

async function rig(mode) {
  const [sampling, how] = mode.split('-');
  const lib = how === 'before' ? before : current;
  const tracing = mode === 'none' ? undefined : tracingFor(lib, sampling === 'sampled');
  const impl = { RunPodSandbox: (call, cb) => cb(null, { podSandboxId: call.request.config.metadata.name }) };
  const server = new grpc.Server();
  server.addService(service, tracing ? lib.traceServerHandlers(tracing, service, impl) : impl);
  const port = await new Promise((res, rej) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), tracing ? { interceptors: lib.grpcClientInterceptors(tracing) } : {});
  // The caller's context: a sampled span (the kubelet's syncPod) when sampling, none otherwise.
  const parentSpan = sampling === 'sampled' ? tracing.tracer.startSpan('syncPod', { kind: SpanKind.INTERNAL }, ROOT_CONTEXT) : undefined;
  const traceContext = parentSpan ? trace.setSpan(ROOT_CONTEXT, parentSpan) : ROOT_CONTEXT;
  const req = { config: { metadata: { name: 'web-0', uid: '3f1c', namespace: 'default', attempt: 0 }, hostname: 'web-0', labels: { app: 'web' } }, runtimeHandler: '' };
  const path = client.RunPodSandbox.path;
  const one =
    how === 'site'
      ? () =>
          new Promise((res, rej) => {
            const md = new grpc.Metadata();
            const opts = { deadline: Date.now() + 10_000 };
            const done = lib.startClientRpc(tracing, path, md, opts, traceContext);
            client.RunPodSandbox(req, md, opts, (e, r) => {
              done(e);
              if (e) rej(e);
              else res(r);
            });
          })
      : () =>
          new Promise((res, rej) => {
            const opts = tracing ? { deadline: Date.now() + 10_000, traceContext } : { deadline: Date.now() + 10_000 };
            client.RunPodSandbox(req, new grpc.Metadata(), opts, (e, r) => (e ? rej(e) : res(r)));
          });
  const run = async (n) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next++ < n) await one();
      }),
    );
  };
  return {
    run,
    close: async () => {
      parentSpan?.end();
      client.close();
      await new Promise((r) => server.tryShutdown(r));
      await tracing?.shutdown();
    },
  };
}

const rigs = {};
for (const mode of MODES) {
  rigs[mode] = await rig(mode);
  await rigs[mode].run(2000); // warm-up: optimized code, settled heap
}
const us = Object.fromEntries(MODES.map((m) => [m, 0]));
for (let b = 0; b < CALLS / BLOCK; b++) {
  for (const mode of b % 2 ? [...MODES].reverse() : MODES) {
    const c0 = process.cpuUsage();
    await rigs[mode].run(BLOCK);
    const c = process.cpuUsage(c0);
    us[mode] += c.user + c.system;
  }
}
for (const r of Object.values(rigs)) await r.close();

const r1 = (n) => Math.round(n * 10) / 10;
const base = us.none !== undefined ? us.none / CALLS : undefined;
for (const mode of MODES) {
  const m = us[mode] / CALLS;
  console.log(
    JSON.stringify({
      bench: 'grpc unary call CPU (client + server)',
      mode,
      inflight: INFLIGHT,
      calls: CALLS,
      cpuUsPerCall: r1(m),
      ...(base ? { extraUs: r1(m - base), ratio: Math.round((m / base) * 1000) / 1000 } : {}),
    }),
  );
}
