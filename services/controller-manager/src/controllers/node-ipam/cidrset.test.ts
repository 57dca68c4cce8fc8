import { describe, expect, it } from 'vitest';
import { CidrSet, NO_CIDRS_REMAINING } from './cidrset.js';

describe('CIDR set', () => {
  it('hands out /24s of 10.244.0.0/16 in order, skipping occupied ones, never twice', () => {
    const s = new CidrSet('10.244.0.0/16', 24);
    expect(s.maxCidrs).toBe(256);
    s.occupy('10.244.1.0/24');
    expect([s.allocateNext(), s.allocateNext(), s.allocateNext()]).toEqual(['10.244.0.0/24', '10.244.2.0/24', '10.244.3.0/24']);
    s.release('10.244.0.0/24');
    expect(s.allocateNext()).toBe('10.244.4.0/24');
  });
  it("is exhausted with upstream's error text", () => {
    const s = new CidrSet('10.0.0.0/30', 31);
    s.allocateNext();
    s.allocateNext();
    expect(() => s.allocateNext()).toThrow(NO_CIDRS_REMAINING);
  });
  it('ignores CIDRs outside the range', () => {
    expect(new CidrSet('10.244.0.0/16', 24).occupy('192.168.0.0/24')).toBe(false);
  });
});
