import { headers } from '@nats-io/transport-node';
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { contextFromNatsHeaders, injectNatsHeaders, natsProcessSpan, natsPublishSpan } from './nats.js';
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
    expect(sub.spans()[0]!.attributes).toEqual({ 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': 'process' });
  });
});
