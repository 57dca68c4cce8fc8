import { describe, expect, it } from 'vitest';
import { overloadedAfter } from './loop-lag.js';

describe('overloadedAfter (hysteresis of the worker loop lag)', () => {
  it.each([
    { name: 'an on-time tick keeps a quiet loop quiet', was: false, lateMs: 3, want: false },
    { name: 'a tick 250 ms late makes it overloaded', was: false, lateMs: 250, want: true },
    { name: 'in between, a quiet loop stays quiet', was: false, lateMs: 120, want: false },
    { name: 'in between, an overloaded loop stays overloaded', was: true, lateMs: 120, want: true },
    { name: 'a tick within 50 ms ends the overload', was: true, lateMs: 50, want: false },
  ])('$name', ({ was, lateMs, want }) => expect(overloadedAfter(was, lateMs)).toBe(want));
});
