import { describe, expect, it } from 'vitest';
import { deepFreeze } from './freeze.js';

describe('deepFreeze', () => {
  it('freezes objects and arrays all the way down, not bytes, and takes a cycle', () => {
    const v: { a: Array<{ b: number }>; buf: Buffer; self?: unknown } = { a: [{ b: 1 }], buf: Buffer.from('x') };
    v.self = v;
    expect(deepFreeze(v)).toBe(v);
    expect(Object.isFrozen(v)).toBe(true);
    expect(Object.isFrozen(v.a)).toBe(true);
    expect(Object.isFrozen(v.a[0])).toBe(true);
    expect(Object.isFrozen(v.buf)).toBe(false);
  });

  it.each([null, undefined, 1, 'x'])('passes %s through', (x) => expect(deepFreeze(x)).toBe(x));
});
