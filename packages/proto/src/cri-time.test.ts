import { describe, expect, it } from 'vitest';
import { nanosToMs, rfc3339Nano } from './cri-time.js';

describe('nanosToMs', () => {
  it.each([
    ['unset', undefined, 0],
    ['null', null, 0],
    ['empty string', '', 0],
    ['zero', '0', 0],
    ['under a millisecond', '999999', 0],
    ['one millisecond', '1000000', 1],
    ['a 2026 timestamp, beyond a double', '1796663342376912345', 1796663342376],
    ['the same as a bigint', 1796663342376912345n, 1796663342376],
    ['a number', 1_500_000, 1],
    ['a signed string', '-2000000', -2],
  ])('%s', (_name, ns, want) => {
    expect(nanosToMs(ns)).toBe(want);
  });
});

describe('rfc3339Nano', () => {
  it.each([
    ['1764596000123456789', '2025-12-01T13:33:20.123456789Z'],
    ['1764596002500000000', '2025-12-01T13:33:22.5Z'],
    ['1764596000000000000', '2025-12-01T13:33:20Z'],
    ['0', '0001-01-01T00:00:00Z'],
  ])('%s → %s', (ns, want) => expect(rfc3339Nano(ns)).toBe(want));
});
