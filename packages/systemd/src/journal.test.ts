import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJournal, followJournal, journalFile, matches, readJournal, type JournalRecord } from './journal.js';

const rec = (t: number, id: string, message: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  __REALTIME_TIMESTAMP: String(t),
  _HOSTNAME: 'node-1',
  _PID: '312',
  SYSLOG_IDENTIFIER: id,
  PRIORITY: '6',
  _TRANSPORT: 'stdout',
  MESSAGE: message,
  ...(id === 'systemd' ? {} : { _SYSTEMD_UNIT: `${id}.service` }),
  ...extra,
});

describe('matches', () => {
  it.each<[string, JournalRecord, Parameters<typeof matches>[1], boolean]>([
    ['unit', rec(1, 'kubelet', 'a'), { units: ['kubelet.service'] }, true],
    ['other unit', rec(1, 'containerd', 'a'), { units: ['kubelet.service'] }, false],
    ["systemd's line about the unit", rec(1, 'systemd', 'Started', { UNIT: 'kubelet.service' }), { units: ['kubelet.service'] }, true],
    ['identifier', rec(1, 'kernel', 'a'), { identifiers: ['kernel'] }, true],
    ['before since (ms)', rec(1000, 'kubelet', 'a'), { since: 2 }, false],
    ['after until (ms)', rec(3000, 'kubelet', 'a'), { until: 2 }, false],
    ['inside the window (ms)', rec(2000, 'kubelet', 'a'), { since: 2, until: 2 }, true],
    ['info is above -p err', rec(1, 'kubelet', 'a'), { priorities: { from: 0, to: 3 } }, false],
    ["systemd's failure (err) is within -p err", rec(1, 'systemd', "Failed with result 'signal'.", { PRIORITY: '3' }), { priorities: { from: 0, to: 3 } }, true],
    ['crit is below -p warning..err', rec(1, 'kernel', 'a', { PRIORITY: '2' }), { priorities: { from: 3, to: 4 } }, false],
  ])('%s', (_n, r, f, want) => expect(matches(r, f)).toBe(want));
});

describe('journal files', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('merges all files by time, keeps the last N, and skips torn lines', async () => {
    root = mkdtempSync(join(tmpdir(), 'journal-'));
    appendJournal(root, rec(1, 'kubelet', 'k1'));
    appendJournal(root, rec(2, 'systemd', 'Started kubelet', { UNIT: 'kubelet.service' }));
    appendJournal(root, rec(3, 'kubelet', 'k2'));
    appendJournal(root, rec(4, 'containerd', 'c1'));
    expect((await readJournal(root)).map((r) => r.MESSAGE)).toEqual(['k1', 'Started kubelet', 'k2', 'c1']);
    expect((await readJournal(root, { units: ['kubelet.service'] })).map((r) => r.MESSAGE)).toEqual(['k1', 'Started kubelet', 'k2']);
    expect((await readJournal(root, { lines: 2 })).map((r) => r.MESSAGE)).toEqual(['k2', 'c1']);
    expect((await readJournal(root, { identifiers: ['containerd'] })).map((r) => r.MESSAGE)).toEqual(['c1']);
    expect(readFileSync(journalFile(root, 'kubelet'), 'utf8').split('\n')[0]).toBe(
      '{"__REALTIME_TIMESTAMP":"1","_HOSTNAME":"node-1","_PID":"312","SYSLOG_IDENTIFIER":"kubelet","PRIORITY":"6","_TRANSPORT":"stdout","MESSAGE":"k1","_SYSTEMD_UNIT":"kubelet.service"}',
    );
  });

  it('rotates a file to .1 at the bound and still reads both', async () => {
    root = mkdtempSync(join(tmpdir(), 'journal-'));
    for (let i = 0; i < 10; i++) appendJournal(root, rec(i, 'kubelet', `line ${i}`), 600);
    expect(statSync(journalFile(root, 'kubelet')).size).toBeLessThanOrEqual(600);
    expect(existsSync(`${journalFile(root, 'kubelet')}.1`)).toBe(true);
    const got = (await readJournal(root)).map((r) => r.MESSAGE);
    expect(got.at(-1)).toBe('line 9');
    expect(got.length).toBeLessThan(10); // the oldest archive is gone: bounded
  });

  it('follows appends made after it was called, across a rotation', async () => {
    root = mkdtempSync(join(tmpdir(), 'journal-'));
    appendJournal(root, rec(1, 'kubelet', 'old'));
    const ac = new AbortController();
    const it = followJournal(root, { units: ['kubelet.service'] }, ac.signal)[Symbol.asyncIterator]();
    appendJournal(root, rec(2, 'kubelet', 'new 1'), 800);
    appendJournal(root, rec(3, 'containerd', 'not mine'));
    const first = await it.next();
    for (let i = 0; i < 3; i++) appendJournal(root, rec(4 + i, 'kubelet', `rotated ${i}`), 800);
    expect(existsSync(`${journalFile(root, 'kubelet')}.1`)).toBe(true);
    const got = [first.value.MESSAGE];
    while (got.length < 4) got.push((await it.next()).value.MESSAGE);
    ac.abort();
    expect(got).toEqual(['new 1', 'rotated 0', 'rotated 1', 'rotated 2']);
    expect((await it.next()).done).toBe(true);
  });
});
