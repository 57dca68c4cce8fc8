import { describe, expect, it } from 'vitest';
import { humanDuration, since } from './duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  it.each([
    [-3 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 1 * s, '2m1s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 5 * m, '3h5m'],
    [8 * h + 5 * m, '8h'],
    [26 * h, '26h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [5 * d + 3 * h, '5d3h'],
    [8 * d + 3 * h, '8d'],
    [400 * d, '400d'],
    [730 * d, '2y'],
    [3 * 365 * d + 12 * d, '3y12d'],
    [9 * 365 * d, '9y'],
  ])('%d ms → %s', (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });

  it('since() of an unset or bad timestamp is <unknown>', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(since(undefined, now)).toBe('<unknown>');
    expect(since('garbage', now)).toBe('<unknown>');
    expect(since('2024-12-31T23:55:00Z', now)).toBe('5m');
  });
});
