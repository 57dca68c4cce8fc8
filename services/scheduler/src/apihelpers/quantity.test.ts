import { describe, expect, it } from 'vitest';
import { milliValue, quantityValue } from './quantity.js';

describe('quantities as the scheduler counts them', () => {
  const milli: [string, number][] = [['100m', 100], ['1', 1000], ['0.1', 100], ['1.5', 1500], ['2500u', 3]];
  for (const [q, want] of milli) it(`milliValue(${q}) = ${want}`, () => expect(milliValue(q)).toBe(want));
  const value: [string, number][] = [['128Mi', 134217728], ['1Gi', 1073741824], ['1k', 1000], ['1e3', 1000], ['100m', 1], ['110', 110]];
  for (const [q, want] of value) it(`value(${q}) = ${want}`, () => expect(quantityValue(q)).toBe(want));
});
