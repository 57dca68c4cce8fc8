import { beforeAll, describe, expect, it } from 'vitest';
import type { JournalRecord } from '@kubelab/systemd';
import { formatRecord, parseJournalctlArgs, UsageError } from './journalctl.js';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

const kubelet: JournalRecord = {
  __REALTIME_TIMESTAMP: String(Date.parse('2026-12-01T13:33:15.123Z') * 1000),
  _HOSTNAME: 'node-1',
  _PID: '312',
  _SYSTEMD_UNIT: 'kubelet.service',
  SYSLOG_IDENTIFIER: 'kubelet',
  PRIORITY: '6',
  _TRANSPORT: 'stdout',
  MESSAGE: 'I1201 13:33:15.123456     312 kubelet.go:123] "message"',
};
const kernel: JournalRecord = { ...kubelet, _PID: undefined, _SYSTEMD_UNIT: undefined, SYSLOG_IDENTIFIER: 'kernel', _TRANSPORT: 'kernel', MESSAGE: 'EXT4-fs error' };

describe('formatRecord', () => {
  it.each([
    ['short', kubelet, 'Dec 01 13:33:15 node-1 kubelet[312]: I1201 13:33:15.123456     312 kubelet.go:123] "message"'],
    ['short', kernel, 'Dec 01 13:33:15 node-1 kernel: EXT4-fs error'],
    ['short-iso', kubelet, '2026-12-01T13:33:15+00:00 node-1 kubelet[312]: I1201 13:33:15.123456     312 kubelet.go:123] "message"'],
    ['cat', kubelet, 'I1201 13:33:15.123456     312 kubelet.go:123] "message"'],
  ] as const)('%s', (mode, r, want) => expect(formatRecord(r, mode)).toBe(want));

  it('json prints the stored fields', () => expect(JSON.parse(formatRecord(kubelet, 'json'))).toEqual(kubelet));
});

describe('parseJournalctlArgs', () => {
  const now = new Date('2026-12-01T13:33:15Z');
  const ms = (iso: string) => Date.parse(iso);
  it.each<[string[], object]>([
    [['-u', 'kubelet'], { filter: { units: ['kubelet.service'] }, follow: false, mode: 'short' }],
    [['-ukubelet', '-n5', '--no-pager'], { filter: { units: ['kubelet.service'], lines: 5 }, follow: false, mode: 'short' }],
    [['--unit=containerd', '-n', '20', '-o', 'cat'], { filter: { units: ['containerd.service'], lines: 20 }, follow: false, mode: 'cat' }],
    [['-n', '-u', 'kubelet'], { filter: { units: ['kubelet.service'], lines: 10 }, follow: false, mode: 'short' }],
    [['-f', '-u', 'kubelet'], { filter: { units: ['kubelet.service'], lines: 10 }, follow: true, mode: 'short' }],
    [['-k'], { filter: { identifiers: ['kernel'] }, follow: false, mode: 'short' }],
    [['-p', 'err', '-u', 'kubelet'], { filter: { units: ['kubelet.service'], priorities: { from: 0, to: 3 } }, follow: false, mode: 'short' }],
    [['-p4'], { filter: { priorities: { from: 0, to: 4 } }, follow: false, mode: 'short' }],
    [['--priority=warning..err'], { filter: { priorities: { from: 3, to: 4 } }, follow: false, mode: 'short' }],
    [['--since', '5 min ago', '--until', 'now'], { filter: { since: ms('2026-12-01T13:28:15Z'), until: ms('2026-12-01T13:33:15Z') }, follow: false, mode: 'short' }],
  ])('%j', (argv, want) => expect(parseJournalctlArgs(argv, now)).toEqual(want));

  it.each([
    [['--since', 'soon'], 'Failed to parse timestamp: soon'],
    [['-o', 'yaml'], "Unknown output format 'yaml'."],
    [['-p', 'loud'], 'Unknown log level loud'],
    [['-n', 'x'], undefined],
    [['--bogus'], "unrecognized option '--bogus'"],
    [['--since', 'now', '--until', 'yesterday'], '--since= must be before --until=.'],
  ])('refuses %j', (argv, message) => {
    if (message === undefined) return expect(() => parseJournalctlArgs(argv as string[], now)).toThrow(UsageError);
    expect(() => parseJournalctlArgs(argv as string[], now)).toThrow(message);
  });
});
