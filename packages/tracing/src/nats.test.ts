import { headers } from '@nats-io/transport-node';
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { contextFromNatsHeaders, injectNatsHeaders, natsProcessSpan, natsPublish, natsPublishSpan } from './nats.js';
import { setupTracing } from './setup.js';
import { setupTestTracing, summarizeSpan } from './testing.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('NATS header propagation', () => {
  it('injects traceparent into (existing) headers and extracts it back', () => {
    const t = setupTestTracing('containerd');
    const ctx = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED });
    const h = headers();
    h.set('Nats-Msg-Id', 'm1');
    const out = injectNatsHeaders(t.tracing, h, ctx)!;
    expect(out).toBe(h);
    expect([...out.keys()].sort()).toEqual(['Nats-Msg-Id', 'traceparent']);
    expect(out.get('traceparent')).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(trace.getSpanContext(contextFromNatsHeaders(out, ROOT_CONTEXT))).toMatchObject({ traceId: TRACE, spanId: SPAN, isRemote: true });
  });

  it('off: adds no headers', () => {
    const off = setupTracing({ serviceName: 'containerd', env: {} });
    expect(injectNatsHeaders(off)).toBeUndefined();
    const h = headers();
    expect(injectNatsHeaders(off, h)).toBe(h);
    expect(h.keys()).toEqual([]);
  });

  it('a message without headers continues nothing', () => {
    expect(contextFromNatsHeaders(undefined, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
  });

  it('publish and process spans share the trace: PRODUCER → CONSUMER', async () => {
    const pub = setupTestTracing('containerd');
    const sub = setupTestTracing('kubelab-trace');
    const subject = 'kubelab.cri.node-1.RunPodSandbox';
    const sent = await natsPublishSpan(pub.tracing, subject, (h) => h);
    await natsProcessSpan(sub.tracing, { subject, headers: sent }, () => {});
    const [p] = pub.spans().map(summarizeSpan);
    const [c] = sub.spans().map(summarizeSpan);
    expect(p).toMatchObject({ name: `publish ${subject}`, kind: 'PRODUCER' });
    expect(c).toMatchObject({ name: `process ${subject}`, kind: 'CONSUMER', traceId: p!.traceId, parentSpanId: p!.spanId });
    expect(sub.spans()[0]!.attributes).toEqual({ 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.name': 'process', 'messaging.operation.type': 'process' });
  });
});

describe('natsPublish', () => {
  const subject = 'kubelab.cri.node-1.StartContainer';

  it('under a sampled parent: a PRODUCER child span, its context in the headers given to publish', () => {
    const t = setupTestTracing('containerd', { node: 'node-1', samplingRatePerMillion: 0 });
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const h = headers();
    h.set('Nats-Msg-Id', 'm1');
    const sent = natsPublish(t.tracing, subject, (hdrs) => hdrs, { parent, headers: h, bodySize: 42 })!;
    const [span] = t.spans();
    expect(summarizeSpan(span!)).toEqual({ name: `publish ${subject}`, kind: 'PRODUCER', service: 'containerd', traceId: TRACE, spanId: span!.spanContext().spanId, parentSpanId: SPAN, status: 'UNSET' });
    expect(span!.attributes).toEqual({ 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.name': 'publish', 'messaging.operation.type': 'send', 'messaging.message.body.size': 42 });
    expect(sent).toBe(h);
    expect(Object.fromEntries(sent.keys().map((k) => [k, sent.get(k)]))).toEqual({ 'Nats-Msg-Id': 'm1', traceparent: `00-${TRACE}-${span!.spanContext().spanId}-01` });
  });

  it('under an unsampled parent: no recorded span, the "not sampled" decision still travels', () => {
    const t = setupTestTracing('containerd', { samplingRatePerMillion: 0 });
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.NONE, isRemote: true });
    const sent = natsPublish(t.tracing, subject, (hdrs) => hdrs, { parent })!;
    expect(t.spans()).toEqual([]);
    expect(sent.get('traceparent')).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
  });

  it('without a parent, or with tracing off: publish alone, no span, no headers', () => {
    const t = setupTestTracing('containerd');
    expect(natsPublish(t.tracing, subject, (hdrs) => hdrs, { parent: ROOT_CONTEXT })).toBeUndefined();
    const off = setupTracing({ serviceName: 'containerd', env: {} });
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED });
    expect(natsPublish(off, subject, (hdrs) => hdrs, { parent })).toBeUndefined();
    expect(t.spans()).toEqual([]);
  });

  it('a publish that throws ends its span with the exception and rethrows', () => {
    const t = setupTestTracing('containerd');
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED });
    expect(() => natsPublish(t.tracing, subject, () => { throw new Error('connection closed'); }, { parent })).toThrow('connection closed');
    expect(t.spans().map((s) => [s.name, s.events.map((e) => e.attributes?.['exception.message'])])).toEqual([[`publish ${subject}`, ['connection closed']]]);
  });
});
