import { beforeAll, describe, expect, it } from 'vitest';
import { parseSpan, parseTimestamp, relativeAgo, shortTime, statusTimestamp, timespan } from './time.js';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

const S = 1e6;

describe('relativeAgo (format_timestamp_relative)', () => {
  it.each([
    [0, 'now'],
    [500, '500us ago'],
    [45_000, '45ms ago'],
    [5 * S, '5s ago'],
    [182 * S, '3min 2s ago'],
    [7 * 60 * S, '7min ago'],
    [(3600 + 5 * 60) * S, '1h 5min ago'],
    [7 * 3600 * S, '7h ago'],
    [26 * 3600 * S, '1 day 2h ago'],
    [3 * 86400 * S, '3 days ago'],
    [9 * 86400 * S, '1 weeks 2 days ago'],
  ])('%d µs → %s', (us, want) => expect(relativeAgo(us)).toBe(want));
});

describe('timespan (format_timespan, ms accuracy)', () => {
  it.each([
    [345_000, '345ms'],
    [1_970_000, '1.970s'],
    [48 * S, '48s'],
    [(4 * 60 + 48.123) * S, '4min 48.123s'],
    [3600 * S, '1h'],
  ])('%d µs → %s', (us, want) => expect(timespan(us)).toBe(want));
});

describe('timestamps', () => {
  const d = new Date('2026-12-01T13:33:15.123Z');
  it('formats the journal and systemctl times', () => {
    expect([shortTime(d), statusTimestamp(d)]).toEqual(['Dec 01 13:33:15', 'Tue 2026-12-01 13:33:15 UTC']);
  });

  const now = new Date('2026-12-01T13:33:15Z');
  it.each([
    ['now', '2026-12-01T13:33:15.000Z'],
    ['today', '2026-12-01T00:00:00.000Z'],
    ['yesterday', '2026-11-30T00:00:00.000Z'],
    ['5 min ago', '2026-12-01T13:28:15.000Z'],
    ['-1h', '2026-12-01T12:33:15.000Z'],
    ['1h 30min ago', '2026-12-01T12:03:15.000Z'],
    ['2026-12-01 13:30:12', '2026-12-01T13:30:12.000Z'],
    ['2026-12-01 13:30', '2026-12-01T13:30:00.000Z'],
    ['2026-11-30', '2026-11-30T00:00:00.000Z'],
    ['13:00', '2026-12-01T13:00:00.000Z'],
    ['@1796131995', '2026-12-01T13:33:15.000Z'],
  ])('--since %s', (arg, iso) => expect(new Date(parseTimestamp(arg, now)! / 1000).toISOString()).toBe(iso));

  it.each(['soon', '2026-13-01', '25:00', '5 parsecs ago', ''])('refuses %j', (arg) => expect(parseTimestamp(arg, now)).toBeUndefined());

  it('parses spans', () => expect([parseSpan('90s'), parseSpan('1h 30min'), parseSpan('x')]).toEqual([90 * S, 5400 * S, undefined]));
});
