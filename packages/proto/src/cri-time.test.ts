import { describe, expect, it } from 'vitest';
import { nanosToMs } from './cri-time.js';

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
