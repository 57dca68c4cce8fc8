import { describe, expect, it } from 'vitest';
import { SpanStore } from './spans.js';
import { summarize, waterfall, type StoredSpan } from './trace-model.js';

const T = (n: number) => n.toString(16).padStart(32, '0');
const S = (n: number) => n.toString(16).padStart(16, '0');
function span(trace: number, id: number, parent: number | undefined, name: string, startMs: number, durationMs: number, over: Partial<StoredSpan> = {}): StoredSpan {
  return {
    traceId: T(trace),
    spanId: S(id),
    ...(parent ? { parentSpanId: S(parent) } : {}),
    name,
    kind: 'INTERNAL',
    service: 'kubelet',
    startMs,
    durationMs,
    status: 'UNSET',
    attributes: {},
    events: [],
    ...over,
  };
}

describe('a trace summary', () => {
  it.each<[string, StoredSpan[], { root: string; service: string; start: number; duration: number; count: number; services: string[]; errors: number }]>([
    [
      'root and children from several services',
      [
        span(1, 2, 1, 'KV create', 105, 3, { service: 'kube-apiserver' }),
        span(1, 1, undefined, 'POST pods', 100, 20, { service: 'kube-apiserver' }),
        span(1, 3, 1, 'syncPod', 130, 50, { status: 'ERROR' }),
      ],
      { root: 'POST pods', service: 'kube-apiserver', start: 100, duration: 80, count: 3, services: ['kube-apiserver', 'kubelet'], errors: 1 },
    ],
    [
      'the root has not arrived: the earliest orphan stands for it',
      [span(1, 3, 9, 'RunPodSandbox', 50, 5), span(1, 4, 9, 'syncPod', 40, 30)],
      { root: 'syncPod', service: 'kubelet', start: 40, duration: 30, count: 2, services: ['kubelet'], errors: 0 },
    ],
  ])('%s', (_name, spans, want) => {
    const s = summarize(T(1), spans);
    expect({ root: s.rootName, service: s.rootService, start: s.startMs, duration: s.durationMs, count: s.spanCount, services: s.services, errors: s.errors }).toEqual(want);
  });

  it('orders a waterfall depth-first, children by start, and survives a parent cycle', () => {
    const w = waterfall([span(1, 3, 1, 'b', 20, 1), span(1, 2, 1, 'a', 10, 1), span(1, 4, 2, 'a.1', 11, 1), span(1, 1, undefined, 'root', 0, 30), span(1, 7, 8, 'x', 5, 1), span(1, 8, 7, 'y', 6, 1)]);
    expect(w.map((r) => `${'  '.repeat(r.depth)}${r.span.name}`)).toEqual(['root', '  a', '    a.1', '  b', 'x', '  y']);
  });
});

describe('the span store', () => {
  it('keeps at most maxSpans, dropping the least recently updated traces whole', () => {
    const store = new SpanStore({ maxSpans: 5 });
    store.add([span(1, 1, undefined, 'one', 0, 1), span(1, 2, 1, 'one.a', 0, 1)]);
    store.add([span(2, 1, undefined, 'two', 1, 1), span(2, 2, 1, 'two.a', 1, 1)]);
    store.add([span(1, 3, 1, 'one.b', 2, 1)]); // trace 1 updated: trace 2 is now the oldest
    expect(store.size).toMatchObject({ spans: 5, traces: 2 });
    store.add([span(3, 1, undefined, 'three', 3, 1)]);
    expect(store.has(T(2))).toBe(false);
    expect(store.has(T(1))).toBe(true);
    expect(store.list().map((t) => t.rootName)).toEqual(['three', 'one']);
    expect(store.size).toMatchObject({ spans: 4, traces: 2 });
  });

  it('replaces a span sent twice, caps one trace, and bounds the bytes', () => {
    const store = new SpanStore({ maxSpans: 100, maxSpansPerTrace: 3 });
    store.add([span(1, 1, undefined, 'r', 0, 1), span(1, 1, undefined, 'r', 0, 2)]);
    expect(store.trace(T(1))!.map((s) => s.durationMs)).toEqual([2]);
    expect(store.add([span(1, 2, 1, 'a', 1, 1), span(1, 3, 1, 'b', 1, 1), span(1, 4, 1, 'c', 1, 1)])).toEqual({ stored: 2, dropped: 1 });
    const big = new SpanStore({ maxSpans: 1000, maxBytes: 20_000 });
    for (let i = 1; i <= 50; i++) big.add([span(i, 1, undefined, 'x', i, 1, { attributes: { v: 'y'.repeat(200) } })]);
    expect(big.size.bytes).toBeLessThanOrEqual(20_000);
    expect(big.size.traces).toBeLessThan(50);
    expect(big.has(T(50))).toBe(true);
  });

  it('tells listeners once per burst', async () => {
    const store = new SpanStore({ maxSpans: 100, notifyMs: 10 });
    let heard = 0;
    store.subscribe(() => heard++);
    for (let i = 1; i <= 20; i++) store.add([span(i, 1, undefined, 'x', i, 1)]);
    await new Promise((r) => setTimeout(r, 40));
    expect(heard).toBe(1);
    store.close();
  });
});
