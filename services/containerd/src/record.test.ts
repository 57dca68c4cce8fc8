// The trace ids a CRI call record carries: the SERVER span's, with the caller's
// span as parent when both are in one trace (test/tracing.test.ts: over CRI).

import { describe, expect, it } from 'vitest';
import { continueTrace, spanTrace } from './record.js';

describe('spanTrace / continueTrace', () => {
  const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  it.each([
    [
      'continues the caller when the span is in its trace',
      { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: 'aaaaaaaaaaaaaaaa' },
      tp,
      { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: 'aaaaaaaaaaaaaaaa', parentSpanId: '00f067aa0ba902b7' },
    ],
    [
      'no parent when the span started a new trace',
      { traceId: '11111111111111111111111111111111', spanId: 'bbbbbbbbbbbbbbbb' },
      tp,
      { traceId: '11111111111111111111111111111111', spanId: 'bbbbbbbbbbbbbbbb' },
    ],
    [
      'no parent without a traceparent',
      { traceId: '11111111111111111111111111111111', spanId: 'bbbbbbbbbbbbbbbb' },
      undefined,
      { traceId: '11111111111111111111111111111111', spanId: 'bbbbbbbbbbbbbbbb' },
    ],
    [
      'no parent for an all-zero traceparent',
      { traceId: '00000000000000000000000000000000', spanId: 'bbbbbbbbbbbbbbbb' },
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      { traceId: '00000000000000000000000000000000', spanId: 'bbbbbbbbbbbbbbbb' },
    ],
  ])('%s', (_name, span, traceparent, want) => {
    expect(spanTrace(span, traceparent)).toEqual(want);
  });

  it('tracing off: makes up a child span id of the caller', () => {
    const t = continueTrace(tp);
    expect(t).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: expect.stringMatching(/^[0-9a-f]{16}$/), parentSpanId: '00f067aa0ba902b7' });
  });
});
