import { describe, expect, it } from 'vitest';
import { parseCriLog, renderLine, selectLines } from './logs.js';

const LOG = [
  '2025-01-01T12:00:00.000000001Z stdout F first',
  '2025-01-01T12:00:01.000000000Z stderr P part one, ',
  '2025-01-01T12:00:01.100000000Z stderr F part two',
  '2025-01-01T12:00:05.000000000Z stdout F last',
  '2025-01-01T12:00:06.000000000Z stdout F incompl',
].join('\n');

describe('CRI log reading', () => {
  it('joins partial lines and keeps an unterminated tail for later', () => {
    const { lines, rest } = parseCriLog(LOG);
    expect(lines.map((l) => l.text)).toEqual(['first', 'part one, part two', 'last']);
    expect(rest).toBe('2025-01-01T12:00:06.000000000Z stdout F incompl');
  });

  it('applies tailLines, sinceSeconds and timestamps', () => {
    const { lines } = parseCriLog(LOG + '\n');
    expect(selectLines(lines, { tailLines: 2 }, 0).map((l) => l.text)).toEqual(['last', 'incompl']);
    expect(selectLines(lines, { sinceSeconds: 2 }, Date.parse('2025-01-01T12:00:06Z')).map((l) => l.text)).toEqual(['last', 'incompl']);
    expect(renderLine(lines[0]!, true)).toBe('2025-01-01T12:00:00.000000001Z first\n');
    expect(renderLine(lines[0]!, false)).toBe('first\n');
  });
});
