import { parseTraceParent } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from './propagation.js';

const T = '0af7651916cd43dd8448eb211c80319c';
const S = 'b7ad6b7169203331';

describe('parseTraceparent (fixed offsets, no regular expression)', () => {
  // Each case against @opentelemetry/core's regex parser: the same answer.
  it.each([
    [`00-${T}-${S}-01`],
    [`00-${T}-${S}-00`],
    [`00-${T}-${S}-09`],
    [` 00-${T}-${S}-01 `],
    [`01-${T}-${S}-01-extra`],
    [`cc-${T}-${S}-01`],
    [`00-${T}-${S}-01-extra`],
    [`ff-${T}-${S}-01`],
    [`00-${'0'.repeat(32)}-${S}-01`],
    [`00-${T}-${'0'.repeat(16)}-01`],
    [`00-${T.toUpperCase()}-${S}-01`],
    [`00-${T}-${S}-0g`],
    [`00-${T}-${S}`],
    [`00_${T}-${S}-01`],
    [`0-${T}-${S}-001`],
    ['not-a-traceparent'],
    [''],
  ])('%j', (tp) => {
    const want = parseTraceParent(tp);
    expect(parseTraceparent(tp)).toEqual(want ? { ...want, isRemote: true } : undefined);
  });

  it('formats two-digit flags and round-trips', () => {
    expect(formatTraceparent({ traceId: T, spanId: S, traceFlags: 1 })).toBe(`00-${T}-${S}-01`);
    expect(formatTraceparent({ traceId: T, spanId: S, traceFlags: 0 })).toBe(`00-${T}-${S}-00`);
    expect(parseTraceparent(formatTraceparent({ traceId: T, spanId: S, traceFlags: 1 }))).toEqual({ traceId: T, spanId: S, traceFlags: 1, isRemote: true });
  });
});
