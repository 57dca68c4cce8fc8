import { gzipSync } from 'node:zlib';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { setupTracing } from '@kubelab/tracing';
import { setupTestTracing } from '@kubelab/tracing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Live } from './live.js';
import { decodeExportResponse, decodeRpcStatus } from './otlp.js';
import { OtlpForwarder, startOtlpGrpc, type RunningOtlpGrpc } from './receiver.js';
import { startDashboardServer, type RunningDashboard } from './server.js';
import { SpanStore } from './spans.js';

describe('the OTLP receivers', () => {
  const store = new SpanStore({ maxSpans: 1000 });
  const live = new Live({ bufferSize: 100, nodeMonitorGracePeriodMs: 40_000 });
  let dash: RunningDashboard;
  let grpcRx: RunningOtlpGrpc;
  beforeAll(async () => {
    dash = await startDashboardServer({ live, webDir: '/nonexistent', bindAddress: '127.0.0.1', port: 0, spans: store });
    grpcRx = await startOtlpGrpc({ store, bindAddress: '127.0.0.1', port: 0, maxBody: 64 * 1024 });
  });
  afterAll(async () => {
    await dash?.close();
    await grpcRx?.close();
    store.close();
  });

  async function exportBody(name: string): Promise<{ body: Uint8Array; traceId: string }> {
    const t = setupTestTracing('kube-scheduler', { contextPropagation: 'sync' });
    await t.tracing.withSpan(name, async () => {});
    const spans = t.spans();
    await t.tracing.shutdown();
    return { body: ProtobufTraceSerializer.serializeRequest(spans)!, traceId: spans[0]!.spanContext().traceId };
  }
  const post = (body: RequestInit['body'], headers: Record<string, string>) => fetch(`${dash.url}v1/traces`, { method: 'POST', body, headers });

  it('takes a protobuf export on POST /v1/traces (200, empty ExportTraceServiceResponse) and lists the trace', async () => {
    const { body, traceId } = await exportBody('scheduleOne default/web');
    const res = await post(Buffer.from(body), { 'content-type': 'application/x-protobuf' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    const list = (await (await fetch(`${dash.url}api/traces`)).json()) as { items: { traceId: string; rootName: string; rootService: string; spanCount: number }[] };
    expect(list.items.find((t) => t.traceId === traceId)).toMatchObject({ rootName: 'scheduleOne default/web', rootService: 'kube-scheduler', spanCount: 1 });
    const one = (await (await fetch(`${dash.url}api/traces/${traceId}`)).json()) as { spans: { name: string }[] };
    expect(one.spans.map((s) => s.name)).toEqual(['scheduleOne default/web']);
  });

  it('takes a gzipped protobuf export', async () => {
    const { body, traceId } = await exportBody('gzipped');
    const res = await post(gzipSync(body), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(store.summary(traceId)?.rootName).toBe('gzipped');
  });

  it.each<[string, () => Promise<Response>, number, string, RegExp]>([
    ['protobuf garbage', () => post('definitely not protobuf', { 'content-type': 'application/x-protobuf' }), 400, 'application/x-protobuf', /^cannot decode the body as an ExportTraceServiceRequest/],
    ['JSON garbage', () => post('{"resourceSpans":', { 'content-type': 'application/json' }), 400, 'application/json', /^cannot parse the body as JSON/],
    ['a bad gzip body', () => post('not gzip', { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }), 400, 'application/x-protobuf', /^cannot gunzip the body/],
    ['a body over 4 MiB', () => post(Buffer.alloc(4 * 1024 * 1024 + 1), { 'content-type': 'application/x-protobuf' }), 413, 'application/x-protobuf', /^the body is 4194305 bytes, more than 4194304$/],
    ['a gzip bomb', () => post(gzipSync(Buffer.alloc(8 * 1024 * 1024)), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }), 413, 'application/x-protobuf', /once gunzipped$/],
    ['text/plain', () => post('hello', { 'content-type': 'text/plain' }), 415, 'application/json', /^unsupported content type "text\/plain"/],
    ['GET', () => fetch(`${dash.url}v1/traces`), 405, 'application/x-protobuf', /^GET is not allowed on \/v1\/traces/],
  ])('answers %s with %i and a google.rpc.Status', async (_name, send, code, type, message) => {
    const res = await send();
    expect(res.status).toBe(code);
    expect(res.headers.get('content-type')).toBe(type);
    const raw = Buffer.from(await res.arrayBuffer());
    const status = type === 'application/json' ? (JSON.parse(raw.toString('utf8')) as { code: number; message: string }) : decodeRpcStatus(raw);
    expect(status.code).toBe(code === 413 ? 8 : 3);
    expect(status.message).toMatch(message);
  });

  it('answers spans with bad ids with 200 and partial_success; the server keeps serving', async () => {
    const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '00000000000000000000000000000000', spanId: '0000000000000001', name: 'x' }] }] }] });
    const res = await post(body, { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: 'traceId: a span needs a non-zero trace id' } });
    const pb = await post(Buffer.from([0x0a, 0x06, 0x12, 0x04, 0x12, 0x02, 0x0a, 0x00]), { 'content-type': 'application/x-protobuf' });
    expect(pb.status).toBe(200);
    expect(decodeExportResponse(Buffer.from(await pb.arrayBuffer()))).toEqual({ rejectedSpans: 1, errorMessage: 'traceId: a span needs a non-zero trace id' });
    expect((await fetch(`${dash.url}healthz`)).status).toBe(200);
  });

  it('tells which of some trace ids it holds (GET /api/traces?ids=)', async () => {
    const { body, traceId } = await exportBody('held');
    expect((await post(Buffer.from(body), { 'content-type': 'application/x-protobuf' })).status).toBe(200);
    const r = (await (await fetch(`${dash.url}api/traces?ids=${'cd'.repeat(16)},${traceId.toUpperCase()},nonsense`)).json()) as { items: { traceId: string; rootName: string }[] };
    expect(r.items.map((t) => [t.traceId, t.rootName])).toEqual([[traceId, 'held']]);
  });

  it('answers an unknown trace with a 404 Status', async () => {
    const res = await fetch(`${dash.url}api/traces/${'ab'.repeat(16)}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: `trace "${'ab'.repeat(16)}" not found` });
  });

  it("receives the components' own OTLP/gRPC export (@kubelab/tracing's exporter pointed at --otlp-grpc-port)", async () => {
    const tracing = setupTracing({ serviceName: 'kubelet', node: 'node-1', endpoint: `127.0.0.1:${grpcRx.port}`, samplingRatePerMillion: 1_000_000, contextPropagation: 'sync', env: {} });
    let traceId = '';
    await tracing.withSpan('syncPod default/web', async (span) => {
      traceId = span.spanContext().traceId;
    });
    await tracing.forceFlush();
    await tracing.shutdown();
    expect(store.trace(traceId)?.map((s) => [s.service, s.node, s.name])).toEqual([['kubelet', 'node-1', 'syncPod default/web']]);
  });
  it('sends each protobuf export on to another collector (--otlp-forward-endpoint), from OTLP/gRPC and OTLP/HTTP alike', async () => {
    const downstream = new SpanStore({ maxSpans: 100 });
    const jaeger = await startOtlpGrpc({ store: downstream, bindAddress: '127.0.0.1', port: 0 });
    const forwarder = new OtlpForwarder(`127.0.0.1:${jaeger.port}`);
    const mine = new SpanStore({ maxSpans: 100 });
    const rx = await startOtlpGrpc({ store: mine, bindAddress: '127.0.0.1', port: 0, forwarder });
    const web = await startDashboardServer({ live, webDir: '/nonexistent', bindAddress: '127.0.0.1', port: 0, spans: mine, forwarder });
    try {
      const tracing = setupTracing({ serviceName: 'kube-scheduler', endpoint: `127.0.0.1:${rx.port}`, samplingRatePerMillion: 1_000_000, contextPropagation: 'sync', env: {} });
      let viaGrpc = '';
      await tracing.withSpan('scheduleOne default/a', async (s) => void (viaGrpc = s.spanContext().traceId));
      await tracing.shutdown();
      const { body, traceId: viaHttp } = await exportBody('over http');
      expect((await fetch(`${web.url}v1/traces`, { method: 'POST', body: Buffer.from(body), headers: { 'content-type': 'application/x-protobuf' } })).status).toBe(200);
      expect((await fetch(`${web.url}v1/traces`, { method: 'POST', body: 'garbage', headers: { 'content-type': 'application/x-protobuf' } })).status).toBe(400);
      for (let i = 0; i < 100 && forwarder.sent < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect([downstream.summary(viaGrpc)?.rootName, downstream.summary(viaHttp)?.rootName]).toEqual(['scheduleOne default/a', 'over http']);
      expect([mine.has(viaGrpc), mine.has(viaHttp), forwarder.sent, forwarder.dropped]).toEqual([true, true, 2, 0]);
    } finally {
      await web.close();
      await rx.close();
      forwarder.close();
      await jaeger.close();
    }
  });
});
