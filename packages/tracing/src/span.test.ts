// The lean span path (span.ts) must hand the SDK's processors and exporters
// the same span data and make the same sampling decisions as the SDK's Tracer.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { extractFromMap } from './propagation.js';
import { setupTestTracing, summarizeSpan, type TestTracing } from './testing.js';

const REMOTE_SAMPLED = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=x' };
const REMOTE_UNSAMPLED = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00' };

describe('lean spans', () => {
  let t: TestTracing;
  afterEach(async () => t?.tracing.shutdown());

  it('a sampled root, its child and a remote parent: ids, parents, trace state, kind, resource, scope', () => {
    t = setupTestTracing('kubelet', { node: 'node-1' });
    const root = t.tracing.tracer.startSpan('syncPod', { kind: SpanKind.INTERNAL }, ROOT_CONTEXT);
    const child = t.tracing.tracer.startSpan('runtime.v1.RuntimeService/RunPodSandbox', { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc' } }, trace.setSpan(ROOT_CONTEXT, root));
    const remote = t.tracing.tracer.startSpan('handle', { kind: SpanKind.SERVER }, extractFromMap(REMOTE_SAMPLED));
    for (const s of [child, root, remote]) s.end();
    const [c, r, rem] = t.spans();
    expect(r!.spanContext()).toMatchObject({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/), traceFlags: TraceFlags.SAMPLED });
    expect(summarizeSpan(c!)).toEqual({
      name: 'runtime.v1.RuntimeService/RunPodSandbox',
      kind: 'CLIENT',
      service: 'kubelet',
      traceId: r!.spanContext().traceId,
      spanId: c!.spanContext().spanId,
      parentSpanId: r!.spanContext().spanId,
      status: 'UNSET',
    });
    expect(c!.attributes).toEqual({ 'rpc.system': 'grpc' });
    expect(rem!.parentSpanContext).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', isRemote: true });
    expect(rem!.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(rem!.spanContext().traceState?.serialize()).toBe('vendor=x');
    expect(c!.resource.attributes).toMatchObject({ 'service.name': 'kubelet', 'k8s.node.name': 'node-1' });
    expect(c!.instrumentationScope).toMatchObject({ name: 'kubelab', version: '0.1.0' });
    expect([c!.droppedAttributesCount, c!.droppedEventsCount, c!.droppedLinksCount, c!.ended]).toEqual([0, 0, 0, true]);
  });

  it('samples as ParentBased(TraceIdRatioBased): the parent decides, a root asks the rate', () => {
    t = setupTestTracing('containerd', { samplingRatePerMillion: 0 });
    const root = t.tracing.tracer.startSpan('relist', {}, ROOT_CONTEXT);
    expect(root.isRecording()).toBe(false);
    expect(root.spanContext().traceFlags).toBe(TraceFlags.NONE);
    // An unsampled root still has ids of its own for its children to propagate.
    expect(trace.isSpanContextValid(root.spanContext())).toBe(true);
    const underSampled = t.tracing.tracer.startSpan('RunPodSandbox', {}, extractFromMap(REMOTE_SAMPLED));
    expect(underSampled.isRecording()).toBe(true);
    const underUnsampled = t.tracing.tracer.startSpan('RunPodSandbox', {}, extractFromMap(REMOTE_UNSAMPLED));
    expect(underUnsampled.isRecording()).toBe(false);
    expect(underUnsampled.spanContext()).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', traceFlags: TraceFlags.NONE });
    expect(underUnsampled.spanContext().spanId).not.toBe('00f067aa0ba902b7');
    for (const s of [root, underSampled, underUnsampled]) s.end();
    expect(t.spans().map((s) => s.name)).toEqual(['RunPodSandbox']);
  });

  it('a suppressed context gets an invalid, non-recording span; root: true ignores the parent', () => {
    t = setupTestTracing('apiserver');
    const parent = t.tracing.tracer.startSpan('request', {}, ROOT_CONTEXT);
    const suppressed = t.tracing.tracer.startSpan('export', {}, suppressTracing(trace.setSpan(ROOT_CONTEXT, parent)));
    expect(trace.isSpanContextValid(suppressed.spanContext())).toBe(false);
    const root = t.tracing.tracer.startSpan('other', { root: true }, trace.setSpan(ROOT_CONTEXT, parent));
    expect(root.spanContext().traceId).not.toBe(parent.spanContext().traceId);
    root.end();
    expect(t.spans()[0]!.parentSpanContext).toBeUndefined();
  });

  it('status, attributes, events, exceptions, links and names as the SDK records them; end is once', () => {
    t = setupTestTracing('scheduler');
    const s = t.tracing.tracer.startSpan('bind', {}, ROOT_CONTEXT);
    s.setAttribute('k8s.pod.name', 'web').setAttributes({ n: 1, ok: true, list: ['a', 'b'], skipped: undefined });
    s.setAttribute('', 'empty key is dropped');
    s.addEvent('queued', { attempt: 1 }).addEvent('bare');
    s.recordException(Object.assign(new Error('boom'), { name: 'BindError' }));
    s.addLink({ context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 } });
    s.setStatus({ code: SpanStatusCode.ERROR, message: 'bind failed' });
    s.setStatus({ code: SpanStatusCode.UNSET });
    s.updateName('bind web');
    s.end();
    s.end();
    s.setAttribute('late', 1);
    const [span] = t.spans();
    expect(t.spans()).toHaveLength(1);
    expect(span!.name).toBe('bind web');
    expect(span!.attributes).toEqual({ 'k8s.pod.name': 'web', n: 1, ok: true, list: ['a', 'b'] });
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bind failed' });
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([
      ['queued', { attempt: 1 }],
      ['bare', undefined],
      ['exception', { 'exception.type': 'BindError', 'exception.message': 'boom', 'exception.stacktrace': expect.stringContaining('boom') }],
    ]);
    expect(span!.links).toHaveLength(1);
  });

  it('keeps the SDK default limits: 128 attributes and events per span, the rest counted as dropped', () => {
    t = setupTestTracing('kubelet');
    const s = t.tracing.tracer.startSpan('many', {}, ROOT_CONTEXT);
    for (let i = 0; i < 130; i++) s.setAttribute(`a${i}`, i).addEvent(`e${i}`);
    s.setAttribute('a0', 'overwrites, not a new key');
    s.end();
    const [span] = t.spans();
    expect(Object.keys(span!.attributes)).toHaveLength(128);
    expect(span!.attributes.a0).toBe('overwrites, not a new key');
    expect([span!.droppedAttributesCount, span!.events.length, span!.droppedEventsCount, span!.events[0]!.name]).toEqual([2, 128, 2, 'e2']);
  });

  it('times: start ≤ end in wall-clock [s, ns], duration their difference; explicit times are honoured', () => {
    t = setupTestTracing('kubelet');
    const before = Date.now();
    const s = t.tracing.tracer.startSpan('syncPod', {}, ROOT_CONTEXT);
    s.end();
    const at = new Date('2026-01-02T03:04:05.678Z');
    t.tracing.tracer.startSpan('fixed', { startTime: at }, ROOT_CONTEXT).end(new Date(at.getTime() + 1500));
    const [live, fixed] = t.spans();
    const ms = (hr: [number, number]) => hr[0] * 1000 + hr[1] / 1e6;
    expect(ms(live!.startTime)).toBeGreaterThanOrEqual(before - 1);
    expect(ms(live!.endTime)).toBeGreaterThanOrEqual(ms(live!.startTime));
    expect(ms(live!.duration)).toBeCloseTo(ms(live!.endTime) - ms(live!.startTime), 3);
    expect(fixed!.startTime).toEqual([Math.floor(at.getTime() / 1000), 678_000_000]);
    expect(fixed!.duration).toEqual([1, 500_000_000]);
  });

  it('startActiveSpan makes the span active for its function', () => {
    t = setupTestTracing('kubelet', { contextPropagation: 'sync' });
    let active: string | undefined;
    const id = t.tracing.tracer.startActiveSpan('outer', (span) => {
      active = trace.getActiveSpan()?.spanContext().spanId;
      span.end();
      return span.spanContext().spanId;
    });
    expect(active).toBe(id);
    const viaContext: Context = context.active();
    expect(trace.getSpan(viaContext)).toBeUndefined();
  });
});
