import { describe, expect, it } from 'vitest';
import { parseDuration, parseFlags, type FlagSpec } from './cli.js';

const SPECS: FlagSpec[] = [
  { name: 'all', aliases: ['a'], type: 'bool' },
  { name: 'quiet', aliases: ['q'], type: 'bool' },
  { name: 'output', aliases: ['o'], type: 'string', value: 'table' },
  { name: 'tail', type: 'int', value: -1 },
  { name: 'label', type: 'strings' },
];

describe('parseFlags (urfave/cli with short option handling)', () => {
  it('combines short booleans, takes values both ways, stops at the first argument', () => {
    const r = parseFlags(['-aq', '--output=json', '--tail', '5', '--label', 'a=b', 'ctr', '-x', 'sh'], SPECS);
    expect(r.flags).toEqual({ all: true, quiet: true, output: 'json', tail: 5, label: ['a=b'] });
    expect(r.args).toEqual(['ctr', '-x', 'sh']);
    expect([...r.set].sort()).toEqual(['all', 'label', 'output', 'quiet', 'tail']);
  });
  it('defaults stand when a flag is not given; -- ends the flags', () => {
    expect(parseFlags(['--', '-a'], SPECS)).toMatchObject({ flags: { all: undefined, output: 'table', tail: -1 }, args: ['-a'] });
  });
  it.each([
    [['-z'], 'flag provided but not defined: -z'],
    [['--tail', 'x'], 'invalid value "x" for flag --tail: parse error'],
    [['-o'], 'flag needs an argument: -o'],
  ])('%j → %s', (args, msg) => expect(() => parseFlags(args, SPECS)).toThrow(msg));
});

describe('parseDuration', () => {
  it.each([
    ['2s', 2000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['0', 0],
  ])('%s', (s, ms) => expect(parseDuration(s)).toBe(ms));
  it('refuses junk', () => expect(() => parseDuration('2x')).toThrow('invalid value "2x"'));
});
