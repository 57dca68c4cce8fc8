import { describe, expect, it } from 'vitest';
import { formatEntry, logfmtValue } from './logrus.js';

const now = new Date('2026-12-01T13:33:17Z');

describe("logrus's TextFormatter", () => {
  it('not a terminal: time, level and msg as logfmt', () => {
    expect(formatEntry('error', 'listing containers: rpc error: code = Unavailable desc = "x"', { tty: false, now, startMs: now.getTime() })).toBe(
      'time="2026-12-01T13:33:17Z" level=error msg="listing containers: rpc error: code = Unavailable desc = \\"x\\""\n',
    );
  });
  it('a terminal: colored level, seconds since start, message padded to 44 columns', () => {
    expect(formatEntry('warning', 'short', { tty: true, now, startMs: now.getTime() - 2500 })).toBe(`\x1b[33mWARN\x1b[0m[0002] ${'short'.padEnd(44)} \n`);
  });
  it.each([
    ['plain-value_1.2/x@y', 'plain-value_1.2/x@y'],
    ['two words', '"two words"'],
  ])('quotes %s only when needed', (v, want) => expect(logfmtValue(v)).toBe(want));
});
