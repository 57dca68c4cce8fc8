import { describe, expect, it } from 'vitest';
import { ago, goFormatG, humanDuration, humanSize, humanSizeWithPrecision } from './humanize.js';

describe('humanDuration (go-units)', () => {
  it.each([
    [500, 'Less than a second'],
    [1000, '1 second'],
    [59_999, '59 seconds'],
    [60_000, 'About a minute'],
    [119_000, 'About a minute'],
    [180_000, '3 minutes'],
    [59 * 60_000, '59 minutes'],
    [60 * 60_000, 'About an hour'],
    [90 * 60_000, '2 hours'],
    [47 * 3_600_000, '47 hours'],
    [3 * 86_400_000, '3 days'],
    [20 * 86_400_000, '2 weeks'],
    [90 * 86_400_000, '3 months'],
    [800 * 86_400_000, '2 years'],
  ])('%d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));

  it('ago takes CRI nanoseconds', () => expect(ago('1000000000000', 1_000_000 + 180_000)).toBe('3 minutes ago'));
});

describe('sizes', () => {
  it.each([
    [0, 4, '0B'],
    [999, 4, '999B'],
    [1000, 4, '1kB'],
    [7_340_032, 4, '7.34MB'],
    [75_497_472, 3, '75.5MB'],
    [2_200_000, 3, '2.2MB'],
    [999_999, 3, '1e+03kB'],
    [1_234_567_890, 4, '1.235GB'],
  ])('%d at precision %d → %s', (size, p, want) => expect(humanSizeWithPrecision(size, p)).toBe(want));

  it('humanSize uses four digits', () => expect(humanSize(123_456)).toBe('123.5kB'));
  it('goFormatG drops trailing zeros', () => expect(goFormatG(4.5, 4)).toBe('4.5'));
});
