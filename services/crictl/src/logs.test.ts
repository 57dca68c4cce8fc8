import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatLogTime, parseCriLine, readLogs, renderRecord, selectRecords } from './logs.js';

const FILE = [
  '2026-12-01T13:33:15.123456700Z stdout F hello',
  '2026-12-01T13:33:16.000000000Z stderr F oops',
  'garbage line',
  '2026-12-01T13:33:17.5Z stdout P part one, ',
  '2026-12-01T13:33:17.6Z stdout F part two',
  '',
].join('\n');

describe('CRI log format', () => {
  it('parses a record, and refuses what is not one', () => {
    expect(parseCriLine('2026-12-01T13:33:15.1Z stderr P a b ')).toEqual({ time: '2026-12-01T13:33:15.1Z', stream: 'stderr', partial: true, content: 'a b ' });
    expect(parseCriLine('2026-12-01T13:33:15.1Z stdin F x')).toBeUndefined();
    expect(parseCriLine('not-a-time stdout F x')).toBeUndefined();
  });
  it.each([
    ['2026-12-01T13:33:15.123456700Z', '2026-12-01T13:33:15.1234567Z'],
    ['2026-12-01T13:33:16.000000000Z', '2026-12-01T13:33:16Z'],
    ['2026-12-01T13:33:16.5+02:00', '2026-12-01T13:33:16.5+02:00'],
  ])('a time prints as Go re-formats it: %s', (t, want) => expect(formatLogTime(t)).toBe(want));

  it('joins partial records into one line; --stream and --tail select', () => {
    const all = selectRecords(FILE, {});
    expect(all.map((r) => renderRecord(r, {})).join('')).toBe('hello\noops\npart one, part two\n');
    expect(selectRecords(FILE, { stream: 'stderr' }).map((r) => r.content)).toEqual(['oops']);
    expect(selectRecords(FILE, { tail: 2 }).map((r) => r.content)).toEqual(['part one, ', 'part two']);
    expect(selectRecords(FILE, { tail: 0 })).toEqual([]);
    expect(selectRecords(FILE, { sinceMs: Date.parse('2026-12-01T13:33:16Z') }).map((r) => r.content)).toEqual(['oops', 'part one, ', 'part two']);
  });

  it('--timestamps prefixes the time; stdout and stderr go to their streams; --limit-bytes cuts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crictl-logs-'));
    const path = join(dir, '0.log');
    writeFileSync(path, FILE);
    const out: string[] = [];
    const err: string[] = [];
    readLogs(path, { timestamps: true, tail: 3 }, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
    expect(out.join('')).toBe('2026-12-01T13:33:17.5Z part one, 2026-12-01T13:33:17.6Z part two\n');
    expect(err).toEqual([]);
    const limited: string[] = [];
    readLogs(path, { limitBytes: 8 }, { stdout: (s) => limited.push(s), stderr: (s) => limited.push(s) });
    expect(limited.join('')).toBe('hello\noo');
    rmSync(dir, { recursive: true, force: true });
  });
});
