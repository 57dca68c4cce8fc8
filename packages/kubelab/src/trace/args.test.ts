import { describe, expect, it } from 'vitest';
import { parseSince, parseTraceArgs } from './args.js';

const NOW = Date.parse('2025-01-02T12:00:00Z');
const parse = (...argv: string[]) => parseTraceArgs(argv, {}, NOW);

describe('kubelab trace flags', () => {
  it('no arguments: everything live from the default NATS, relists hidden', () => {
    expect(parse()).toEqual({ filter: { nodes: [], methods: [], all: false }, json: false, allComponents: false, holdMs: 250, natsUrl: 'nats://127.0.0.1:4222' });
  });
  it('every filter', () => {
    expect(
      parse(
        '--node',
        'node-2',
        '--pod=default/probedemo',
        '--method',
        'ExecSync,StopContainer',
        '--method=createcontainer',
        '--since',
        '5m',
        '--json',
        '--all',
        '--all-components',
        '--nats-url',
        'nats://127.0.0.1:14222',
      ),
    ).toEqual({
      filter: { nodes: ['node-2'], pod: { namespace: 'default', name: 'probedemo' }, methods: ['ExecSync', 'StopContainer', 'CreateContainer'], all: true },
      since: new Date('2025-01-02T11:55:00Z'),
      json: true,
      allComponents: true,
      holdMs: 250,
      natsUrl: 'nats://127.0.0.1:14222',
    });
  });
  it('KUBELAB_NATS_URL from the environment', () => {
    expect(parseTraceArgs([], { KUBELAB_NATS_URL: 'nats://10.0.0.1:4222' }, NOW).natsUrl).toBe('nats://10.0.0.1:4222');
  });
  const errors: [string[], string][] = [
    [['web'], 'kubelab trace takes no arguments, got "web" (filter with --pod, --node, --method)'],
    [['--method', 'Probe'], 'invalid argument "Probe" for "--method" flag: not a CRI method'],
    [['--pod', 'a/b/c'], 'invalid argument "a/b/c" for "--pod" flag: want NAME or NAMESPACE/NAME'],
    [['--since', 'yesterday'], 'invalid argument "yesterday" for "--since" flag: want a duration like 5m or 1h, or an RFC 3339 time like 2025-01-02T15:04:05Z'],
    [['--follow'], 'unknown flag: --follow'],
  ];
  for (const [argv, msg] of errors) it(`rejects ${argv.join(' ')}`, () => expect(() => parse(...argv)).toThrow(msg));
});

describe('parseSince', () => {
  it.each([
    ['90s', '2025-01-02T11:58:30.000Z'],
    ['1h30m', '2025-01-02T10:30:00.000Z'],
    ['2025-01-02T11:00:00Z', '2025-01-02T11:00:00.000Z'],
    ['2025-01-02T13:00:00+02:00', '2025-01-02T11:00:00.000Z'],
  ])('%s → %s', (raw, want) => expect(parseSince(raw, NOW).toISOString()).toBe(want));
  it('refuses a negative duration', () => expect(() => parseSince('-5m', NOW)).toThrow('for "--since" flag'));
});
