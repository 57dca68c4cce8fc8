import { describe, expect, it } from 'vitest';
import type { IntOrString } from '../index.js';
import { getScaledValueFromIntOrPercent } from '../index.js';

describe('getScaledValueFromIntOrPercent', () => {
  it.each<[IntOrString, number, boolean, number]>([
    [3, 10, true, 3],
    [0, 10, false, 0],
    ['25%', 10, true, 3],
    ['25%', 10, false, 2],
    ['100%', 7, false, 7],
    ['0%', 7, true, 0],
    ['50%', 0, true, 0],
  ])('%s of %d (roundUp %s) = %d', (v, total, roundUp, want) => {
    expect(getScaledValueFromIntOrPercent(v, total, roundUp)).toBe(want);
  });

  it.each<[IntOrString | undefined, string]>([
    ['5', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['x%', 'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax'],
    [undefined, 'nil value for IntOrString'],
  ])('%s is refused', (v, message) => {
    expect(() => getScaledValueFromIntOrPercent(v, 10, true)).toThrow(message);
  });
});
