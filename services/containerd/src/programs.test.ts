import { describe, expect, it } from 'vitest';
import { stressBytes } from './programs.js';

describe('stress (polinux/stress)', () => {
  it('reads sizes with stress suffixes', () => {
    expect([stressBytes('150M', 0), stressBytes('1g', 0), stressBytes('512k', 0), stressBytes('10', 0), stressBytes('x', 7)]).toEqual([150 * 1024 * 1024, 1024 ** 3, 512 * 1024, 10, 7]);
  });
});
