import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { setupTestTracing, type ReadableSpan } from '@kubelab/tracing/testing';
import { describe, expect, it } from 'vitest';
import { decodeExportResponse, decodeOtlpJson, decodeOtlpProtobuf, decodeRpcStatus, encodeExportResponse, encodeRpcStatus, OtlpError, type StoredSpan } from './otlp.js';

/** A parent span with a child, made by the components' own tracing setup (the lean tracer feeding the SDK's span data). */
async function twoSpans(): Promise<ReadableSpan[]> {
  const t = setupTestTracing('kube-apiserver', { node: 'control-plane', contextPropagation: 'sync' });
  await t.tracing.withSpan(
    'POST /api/v1/namespaces/{:namespace}/pods',
    async (parent) => {
      const child = t.tracing.tracer.startSpan('KV create', { kind: SpanKind.CLIENT, attributes: { 'db.system': 'nats', 'kv.revision': 42, ok: true } }, trace.setSpan(context.active(), parent));
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'wrong last sequence' });
      child.addEvent('retry');
      child.end();
    },
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST', 'k8s.namespace.name': 'default' } },
  );
  const spans = t.spans();
  await t.tracing.shutdown();
  return spans;
}

const view = (s: StoredSpan) => ({
  name: s.name,
  kind: s.kind,
  service: s.service,
  node: s.node,
  status: s.status,
  statusMessage: s.statusMessage,
  parent: !!s.parentSpanId,
  attributes: s.attributes,
  events: s.events.map((e) => e.name),
});

describe('decoding OTLP export requests', () => {
  it.each([
    ['protobuf (OTLP/HTTP and OTLP/gRPC)', (s: ReadableSpan[]) => decodeOtlpProtobuf(ProtobufTraceSerializer.serializeRequest(s)!)],
    ['JSON (OTLP/HTTP)', (s: ReadableSpan[]) => decodeOtlpJson(Buffer.from(JsonTraceSerializer.serializeRequest(s)!).toString('utf8'))],
  ])('reads what the exporter encodes as %s: ids, parents, times, kinds, status, attributes, resource', async (_name, decode) => {
    const spans = await twoSpans();
    const d = decode(spans);
    expect(d.rejected).toBe(0);
    const byName = new Map(d.spans.map((s) => [s.name, s]));
    const server = byName.get('POST /api/v1/namespaces/{:namespace}/pods')!;
    const kv = byName.get('KV create')!;
    expect(view(server)).toEqual({
      name: 'POST /api/v1/namespaces/{:namespace}/pods',
      kind: 'SERVER',
      service: 'kube-apiserver',
      node: 'control-plane',
      status: 'UNSET',
      statusMessage: undefined,
      parent: false,
      attributes: { 'http.request.method': 'POST', 'k8s.namespace.name': 'default' },
      events: [],
    });
    expect(view(kv)).toEqual({
      name: 'KV create',
      kind: 'CLIENT',
      service: 'kube-apiserver',
      node: 'control-plane',
      status: 'ERROR',
      statusMessage: 'wrong last sequence',
      parent: true,
      attributes: { 'db.system': 'nats', 'kv.revision': '42', ok: 'true' },
      events: ['retry'],
    });
    const src = spans.find((s) => s.name === 'KV create')!;
    expect(kv.traceId).toBe(src.spanContext().traceId);
    expect(kv.spanId).toBe(src.spanContext().spanId);
    expect(kv.parentSpanId).toBe(server.spanId);
    expect(kv.traceId).toBe(server.traceId);
    const startMs = src.startTime[0] * 1000 + src.startTime[1] / 1e6;
    expect(Math.abs(kv.startMs - startMs)).toBeLessThan(0.01);
    expect(kv.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.durationMs).toBeGreaterThanOrEqual(kv.durationMs);
  });

  const id = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');
  const jsonSpan = (over: Record<string, unknown>) => ({
    traceId: id(1, 16),
    spanId: id(2, 8),
    name: 'syncPod',
    kind: 1,
    startTimeUnixNano: '1764700000000000000',
    endTimeUnixNano: '1764700000002500000',
    ...over,
  });
  const req = (...spans: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'kubelet' } }] }, scopeSpans: [{ spans }] }] });

  it.each<[string, string, { spans: number; rejected: number; reason?: RegExp; check?: (s: StoredSpan) => void }]>([
    ['a well-formed span', req(jsonSpan({})), { spans: 1, rejected: 0, check: (s) => expect([s.startMs, s.durationMs, s.kind, s.service]).toEqual([1764700000000, 2.5, 'INTERNAL', 'kubelet']) }],
    [
      'numbers for times, enum names, snake_case keys',
      JSON.stringify({
        resource_spans: [
          {
            scope_spans: [
              { spans: [{ trace_id: id(7, 16), span_id: id(8, 8), name: 'x', kind: 'SPAN_KIND_SERVER', start_time_unix_nano: 1e15, end_time_unix_nano: 2e15, status: { code: 'STATUS_CODE_ERROR' } }] },
            ],
          },
        ],
      }),
      { spans: 1, rejected: 0, check: (s) => expect([s.kind, s.status, s.service, s.durationMs]).toEqual(['SERVER', 'ERROR', 'unknown_service', 1e9]) },
    ],
    [
      'an all-zero trace id is rejected (partial success)',
      req(jsonSpan({ traceId: id(0, 16) }), jsonSpan({ spanId: id(3, 8) })),
      { spans: 1, rejected: 1, reason: /traceId: a span needs a non-zero trace id/ },
    ],
    ['a short span id is rejected', req(jsonSpan({ spanId: 'abcd' })), { spans: 0, rejected: 1, reason: /spanId: 8 bytes are required, got "abcd"/ }],
    ['a time that is not a number is rejected', req(jsonSpan({ startTimeUnixNano: 'soon' })), { spans: 0, rejected: 1, reason: /startTimeUnixNano: a decimal number is required/ }],
    ['nothing to export', JSON.stringify({}), { spans: 0, rejected: 0 }],
    [
      'attribute kinds: int, double, bool, array, kvlist',
      req(
        jsonSpan({
          attributes: [
            { key: 'i', value: { intValue: '9007199254740993' } },
            { key: 'd', value: { doubleValue: 0.5 } },
            { key: 'b', value: { boolValue: false } },
            { key: 'a', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 2 }] } } },
            { key: 'm', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
          ],
        }),
      ),
      { spans: 1, rejected: 0, check: (s) => expect(s.attributes).toEqual({ i: '9007199254740993', d: '0.5', b: 'false', a: '[x, 2]', m: '{k=v}' }) },
    ],
  ])('JSON: %s', (_name, body, want) => {
    const d = decodeOtlpJson(body);
    expect(d.spans).toHaveLength(want.spans);
    expect(d.rejected).toBe(want.rejected);
    if (want.reason) expect(d.rejectReason).toMatch(want.reason);
    if (want.check) want.check(d.spans[0]!);
  });

  it('caps what one span keeps (attributes, value length)', () => {
    const attributes = Array.from({ length: 100 }, (_v, i) => ({ key: `k${i}`, value: { stringValue: 'v'.repeat(1000) } }));
    const s = decodeOtlpJson(req(jsonSpan({ attributes }))).spans[0]!;
    expect(Object.keys(s.attributes)).toHaveLength(32);
    expect(s.attributes.k0!.length).toBe(256);
  });

  it.each<[string, () => unknown, RegExp]>([
    ['protobuf garbage', () => decodeOtlpProtobuf(Buffer.from('this is not protobuf')), /^cannot decode the body as an ExportTraceServiceRequest: /],
    ['truncated protobuf', () => decodeOtlpProtobuf(Buffer.from([0x0a, 0x20, 0x01])), /^cannot decode the body as an ExportTraceServiceRequest: /],
    ['JSON that does not parse', () => decodeOtlpJson('{"resourceSpans": ['), /^cannot parse the body as JSON: /],
    ['JSON that is not an object', () => decodeOtlpJson('[1,2]'), /^the body must be an ExportTraceServiceRequest object$/],
    ['resourceSpans not an array', () => decodeOtlpJson('{"resourceSpans": 3}'), /^resourceSpans: an array is required$/],
    ['a span that is not an object', () => decodeOtlpJson('{"resourceSpans": [{"scopeSpans": [{"spans": ["x"]}]}]}'), /^spans: each item must be an object$/],
    ['an attribute without a key', () => decodeOtlpJson(req(jsonSpan({ attributes: [{ value: { stringValue: 'v' } }] }))), /^attributes: each attribute needs a string key$/],
  ])('refuses %s with an OtlpError', (_name, fn, message) => {
    expect(fn).toThrow(OtlpError);
    expect(fn).toThrow(message);
  });

  it('encodes the responses: empty on success, partial_success, google.rpc.Status', () => {
    expect(encodeExportResponse({ rejected: 0 })).toHaveLength(0);
    expect(decodeExportResponse(encodeExportResponse({ rejected: 2, rejectReason: 'bad id' }))).toEqual({ rejectedSpans: 2, errorMessage: 'bad id' });
    expect(decodeRpcStatus(encodeRpcStatus(3, 'cannot decode'))).toEqual({ code: 3, message: 'cannot decode' });
  });
});
