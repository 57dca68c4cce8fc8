import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { contextFromObject, objectTraceparent, TRACEPARENT_ANNOTATION, traceparentOf, withObjectTraceparent, withTraceContextAnnotation } from './object.js';
import { setupTestTracing, summarizeSpan } from './testing.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const ctxWith = (flags: number) => trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: flags, isRemote: false });

describe('trace context annotation', () => {
  it('is named kubelab.io/traceparent', () => {
    expect(TRACEPARENT_ANNOTATION).toBe('kubelab.io/traceparent');
  });

  it('records a sampled context on a copy, leaving the original untouched', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', annotations: { a: 'b' } } };
    const out = withTraceContextAnnotation(pod, ctxWith(TraceFlags.SAMPLED));
    expect(out).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', annotations: { a: 'b', 'kubelab.io/traceparent': `00-${TRACE}-${SPAN}-01` } } });
    expect(pod.metadata.annotations).toEqual({ a: 'b' });
  });

  const nothing: [string, ReturnType<typeof ctxWith>][] = [
    ['no span', ROOT_CONTEXT],
    ['an unsampled span', ctxWith(TraceFlags.NONE)],
    ['an invalid span', trace.setSpanContext(ROOT_CONTEXT, { traceId: '0'.repeat(32), spanId: SPAN, traceFlags: 1 })],
  ];
  for (const [name, ctx] of nothing) {
    it(`records nothing for ${name} (same object back)`, () => {
      const pod: { metadata: { name: string; annotations?: Record<string, string> } } = { metadata: { name: 'web' } };
      expect(withTraceContextAnnotation(pod, ctx)).toBe(pod);
    });
  }

  it('creates metadata and annotations when missing', () => {
    expect(withTraceContextAnnotation({ kind: 'Pod' } as { kind: string; metadata?: { annotations?: Record<string, string> } }, ctxWith(1)).metadata?.annotations).toEqual({
      [TRACEPARENT_ANNOTATION]: `00-${TRACE}-${SPAN}-01`,
    });
  });

  it('continues the recorded trace: a span started under contextFromObject is its child', async () => {
    const t = setupTestTracing('kubelet');
    const pod = { metadata: { annotations: { [TRACEPARENT_ANNOTATION]: `00-${TRACE}-${SPAN}-01` } } };
    await t.tracing.withSpan('syncPod', async () => {}, { parent: contextFromObject(pod) });
    expect(summarizeSpan(t.spans()[0]!)).toMatchObject({ name: 'syncPod', traceId: TRACE, parentSpanId: SPAN });
    await t.tracing.shutdown();
  });

  const ignored: [string, unknown][] = [
    ['no annotations', { metadata: {} }],
    ['null object', null],
    ['garbage value', { metadata: { annotations: { [TRACEPARENT_ANNOTATION]: 'not-a-traceparent' } } }],
    ['all-zero trace id', { metadata: { annotations: { [TRACEPARENT_ANNOTATION]: `00-${'0'.repeat(32)}-${SPAN}-01` } } }],
  ];
  for (const [name, obj] of ignored) {
    it(`falls back to the base context for ${name}`, () => {
      const base = context.active();
      expect(contextFromObject(obj as never, base)).toBe(base);
    });
  }

  it('reads the raw value', () => {
    expect(traceparentOf({ metadata: { annotations: { [TRACEPARENT_ANNOTATION]: 'x' } } })).toBe('x');
    expect(traceparentOf({ metadata: { annotations: null } })).toBeUndefined();
  });
});

describe('objectTraceparent (the annotation of traced kinds, export on or off)', () => {
  const remote = (flags: number) => trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: flags, isRemote: true });
  const cases: [string, ReturnType<typeof ctxWith>, RegExp][] = [
    ['a local span (the request span): its own traceparent', ctxWith(TraceFlags.SAMPLED), new RegExp(`^00-${TRACE}-${SPAN}-01$`)],
    ['an unsampled local span: flag 00', ctxWith(TraceFlags.NONE), new RegExp(`^00-${TRACE}-${SPAN}-00$`)],
    ["a caller's remote context: same trace, a new span", remote(TraceFlags.NONE), new RegExp(`^00-${TRACE}-(?!${SPAN})[0-9a-f]{16}-00$`)],
    ["a sampled caller's remote context keeps the flag", remote(TraceFlags.SAMPLED), new RegExp(`^00-${TRACE}-(?!${SPAN})[0-9a-f]{16}-01$`)],
    ['nothing: a new unsampled trace', ROOT_CONTEXT, /^00-(?!4bf92f)[0-9a-f]{32}-[0-9a-f]{16}-00$/],
  ];
  for (const [name, ctx, want] of cases) {
    it(name, () => {
      expect(objectTraceparent(ctx)).toMatch(want);
    });
  }

  it('sets the annotation on a copy', () => {
    const pod = { metadata: { name: 'web', annotations: { a: 'b' } } };
    const out = withObjectTraceparent(pod, ctxWith(TraceFlags.NONE));
    expect(out.metadata.annotations).toEqual({ a: 'b', [TRACEPARENT_ANNOTATION]: `00-${TRACE}-${SPAN}-00` });
    expect(pod.metadata.annotations).toEqual({ a: 'b' });
    expect(trace.getSpanContext(contextFromObject(out))?.traceId).toBe(TRACE);
  });
});
