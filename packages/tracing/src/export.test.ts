import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { setupTracing, type Tracing } from './setup.js';

// A stand-in OTLP/gRPC collector: accepts Export calls and keeps the raw protobuf bytes.
async function fakeCollector(): Promise<{ port: number; requests: Buffer[]; close(): Promise<void> }> {
  const raw = { serialize: (b: Buffer) => b, deserialize: (b: Buffer) => b };
  const service: grpc.ServiceDefinition = {
    Export: {
      path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      requestStream: false,
      responseStream: false,
      requestSerialize: raw.serialize,
      requestDeserialize: raw.deserialize,
      responseSerialize: raw.serialize,
      responseDeserialize: raw.deserialize,
    },
  };
  const requests: Buffer[] = [];
  const server = new grpc.Server();
  server.addService(service, {
    Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
      requests.push(call.request);
      cb(null, Buffer.alloc(0)); // an empty ExportTraceServiceResponse
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  return { port, requests, close: () => new Promise<void>((r) => server.tryShutdown(() => r())) };
}

describe('OTLP export', () => {
  let tracing: Tracing | undefined;
  let collector: Awaited<ReturnType<typeof fakeCollector>> | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    await collector?.close();
  });

  it('exports sampled spans to the endpoint given as host:port (upstream style)', async () => {
    collector = await fakeCollector();
    tracing = setupTracing({ serviceName: 'kube-scheduler', endpoint: `127.0.0.1:${collector.port}`, samplingRatePerMillion: 1_000_000, env: {} });
    expect(tracing.enabled).toBe(true);
    await tracing.withSpan('scheduleOne default/web', async () => {});
    await tracing.forceFlush();
    expect(collector.requests).toHaveLength(1);
    const body = collector.requests[0]!.toString('latin1');
    expect(body).toContain('kube-scheduler');
    expect(body).toContain('scheduleOne default/web');
  });

  it('reads OTEL_EXPORTER_OTLP_ENDPOINT; unsampled roots (rate unset) send nothing', async () => {
    collector = await fakeCollector();
    tracing = setupTracing({ serviceName: 'kubelet', env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` } });
    expect(tracing.config.endpoint).toBe(`http://127.0.0.1:${collector.port}`);
    await tracing.withSpan('relist', async () => {});
    await tracing.forceFlush();
    expect(collector.requests).toEqual([]);
  });
});
