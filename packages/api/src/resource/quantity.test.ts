import { describe, expect, it } from 'vitest';
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, Quantity, mustParseQuantity, parseQuantity } from './quantity.js';

describe('parseQuantity canonical form', () => {
  it.each([
    ['plain integer stays', '2', '2'],
    ['zero', '0', '0'],
    ['milli stays', '500m', '500m'],
    ['fraction becomes milli', '0.5', '500m'],
    ['1.5 becomes 1500m', '1.5', '1500m'],
    ['1000m becomes 1', '1000m', '1'],
    ['thousands become k', '2000', '2k'],
    ['1200 keeps no suffix', '1200', '1200'],
    ['binary stays', '128Mi', '128Mi'],
    ['1Gi stays', '1Gi', '1Gi'],
    ['1024Mi becomes 1Gi', '1024Mi', '1Gi'],
    ['1.5Gi becomes 1536Mi', '1.5Gi', '1536Mi'],
    ['0.9Gi inexact falls back to decimal milli', '0.9Gi', '966367641600m'],
    ['small binary prints decimal', '0.5Ki', '512'],
    ['exponent form stays', '1e3', '1e3'],
    ['exponent normalised', '1.5e3', '1500'],
    ['10e3 stays as typed', '10e3', '10e3'],
    ['decimal exponent over 3', '12e6', '12e6'],
    ['negative milli', '-500m', '-500m'],
    ['round up to nano', '0.0000000001', '1n'],
    ['many decimals round up to nano', '0.30000000000000004', '300000001n'],
    ['zero with suffix', '0m', '0'],
    ['mega', '100M', '100M'],
    ['1000M becomes 1G', '1000M', '1G'],
    ['micro', '10u', '10u'],
    ['kilo', '1k', '1k'],
  ])('%s: %s → %s', (_name, input, want) => {
    expect(parseQuantity(input).toString()).toBe(want);
  });

  it('marshals to JSON as its string', () => {
    expect(JSON.stringify({ cpu: parseQuantity('1.5') })).toBe('{"cpu":"1500m"}');
  });
});

describe('parseQuantity errors', () => {
  it.each([
    ['empty', '', ERR_FORMAT_WRONG],
    ['letters', 'aoeu', ERR_FORMAT_WRONG],
    ['leading space', ' 1', ERR_FORMAT_WRONG],
    ['trailing space', '1 ', ERR_FORMAT_WRONG],
    ['two dots', '1.1.M', ERR_FORMAT_WRONG],
    ['lone i', '1i', ERR_SUFFIX],
    ['milli-i', '0.1mi', ERR_SUFFIX],
    ['dangling exponent', '-3.01e-', ERR_SUFFIX],
    ['unknown suffix', '5Kb', ERR_FORMAT_WRONG],
    ['huge exponent guarded', '1e99999', ERR_NUMERIC],
  ])('%s: %j', (_name, input, message) => {
    expect(() => parseQuantity(input)).toThrow(message);
  });

  it('quotes the regular expression as upstream', () => {
    expect(ERR_FORMAT_WRONG).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });

  it('mustParse names the input', () => {
    expect(() => mustParseQuantity('1i')).toThrow("cannot parse '1i': unable to parse quantity's suffix");
  });

  it('tryParse returns undefined', () => {
    expect(Quantity.tryParse('x')).toBeUndefined();
  });
});

describe('Quantity arithmetic', () => {
  it.each([
    ['milli cpu', '500m', 1, 500],
    ['fraction rounds value up', '1500m', 2, 1500],
    ['memory', '128Mi', 134217728, 134217728000],
    ['nano rounds milli up', '1n', 1, 1],
    ['negative rounds away from zero', '-1500m', -2, -1500],
  ])('%s: %s value %d milli %d', (_name, input, value, milli) => {
    const q = parseQuantity(input);
    expect(q.value()).toBe(value);
    expect(q.milliValue()).toBe(milli);
  });

  it('compares across formats', () => {
    expect(parseQuantity('1Gi').cmp(parseQuantity('1G'))).toBe(1);
    expect(parseQuantity('1000m').cmp(parseQuantity('1'))).toBe(0);
    expect(parseQuantity('100m').cmp(parseQuantity('0.2'))).toBe(-1);
    expect(parseQuantity('1024Mi').equal(parseQuantity('1Gi'))).toBe(true);
  });

  it('adds keeping the receiver format, a zero receiver takes the other', () => {
    expect(parseQuantity('500m').add(parseQuantity('1')).toString()).toBe('1500m');
    expect(parseQuantity('1Gi').add(parseQuantity('512Mi')).toString()).toBe('1536Mi');
    expect(Quantity.zero().add(parseQuantity('1Gi')).toString()).toBe('1Gi');
    expect(parseQuantity('1').sub(parseQuantity('1500m')).toString()).toBe('-500m');
  });

  it('builds from values', () => {
    expect(Quantity.fromMilli(250).toString()).toBe('250m');
    expect(Quantity.fromValue(110).toString()).toBe('110');
    expect(Quantity.fromValue(8 * 1024 * 1024 * 1024, 'BinarySI').toString()).toBe('8Gi');
  });
});

describe('MilliValue and Value as the scheduler counts them (both round up)', () => {
  it.each<[string, number]>([
    ['100m', 100],
    ['1', 1000],
    ['0.1', 100],
    ['1.5', 1500],
    ['2500u', 3],
  ])('milliValue(%s) = %d', (q, want) => {
    expect(parseQuantity(q).milliValue()).toBe(want);
  });
  it.each<[string, number]>([
    ['128Mi', 134217728],
    ['1Gi', 1073741824],
    ['1k', 1000],
    ['1e3', 1000],
    ['100m', 1],
    ['110', 110],
  ])('value(%s) = %d', (q, want) => {
    expect(parseQuantity(q).value()).toBe(want);
  });
});
