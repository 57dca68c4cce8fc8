import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ensureContextManager, installedContextPropagation, SyncContextManager } from './context.js';

const sc = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

describe('SyncContextManager', () => {
  it('makes a context active while fn runs synchronously, and restores the previous one (also after a throw)', () => {
    const m = new SyncContextManager();
    const ctx = trace.setSpanContext(ROOT_CONTEXT, sc);
    const seen: unknown[] = [];
    m.with(ctx, () => {
      seen.push(trace.getSpanContext(m.active())?.spanId);
      m.with(ROOT_CONTEXT, () => seen.push(trace.getSpanContext(m.active())));
      seen.push(trace.getSpanContext(m.active())?.spanId);
    });
    expect(() =>
      m.with(ctx, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(seen).toEqual([sc.spanId, undefined, sc.spanId]);
    expect(m.active()).toBe(ROOT_CONTEXT);
  });

  it('does not carry the context across an await (the price of having no promise hook)', async () => {
    const m = new SyncContextManager();
    const ctx = trace.setSpanContext(ROOT_CONTEXT, sc);
    const after = await m.with(ctx, async () => {
      await null;
      return m.active();
    });
    expect(after).toBe(ROOT_CONTEXT);
  });

  it('bind runs the function in the bound context, passing this and arguments', () => {
    const m = new SyncContextManager();
    const ctx = trace.setSpanContext(ROOT_CONTEXT, sc);
    const bound = m.bind(ctx, function (this: { n: number }, k: number) {
      return [this.n + k, trace.getSpanContext(m.active())?.spanId];
    });
    expect(bound.call({ n: 1 }, 2)).toEqual([3, sc.spanId]);
    expect(m.bind(ctx, 'not a function')).toBe('not a function');
  });

  it('per process: sync first, async replaces it once asked for, and a later sync request keeps async', async () => {
    const ctx = trace.setSpanContext(ROOT_CONTEXT, sc);
    const overAwait = () =>
      context.with(ctx, async () => {
        await null;
        return trace.getSpanContext(context.active())?.spanId;
      });
    ensureContextManager('sync');
    expect(installedContextPropagation()).toBe('sync');
    expect(context.with(ctx, () => context.active())).toBe(ctx);
    expect(await overAwait()).toBeUndefined();
    ensureContextManager('async');
    expect(await overAwait()).toBe(sc.spanId);
    ensureContextManager('sync');
    expect(installedContextPropagation()).toBe('async');
    expect(await overAwait()).toBe(sc.spanId);
  });
});
