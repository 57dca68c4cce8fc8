import { describe, expect, it } from 'vitest';
import { intToIp, parseCidr, pickFreeOffset, offsetInRange } from './ipalloc.js';
import { withDefaultTolerations } from './default-toleration-seconds.js';

describe('service IP range', () => {
  it('parses the default range and keeps network/broadcast out', () => {
    const c = parseCidr('10.96.0.0/12');
    expect(c).toMatchObject({ size: 1 << 20, text: '10.96.0.0/12' });
    expect(intToIp(c.base + 1)).toBe('10.96.0.1');
    expect(offsetInRange(c, '10.96.0.0')).toBeUndefined();
    expect(offsetInRange(c, '10.111.255.255')).toBeUndefined();
    expect(offsetInRange(c, '10.112.0.1')).toBeUndefined();
    expect(offsetInRange(c, '10.96.0.10')).toBe(10);
  });

  it('picks from the upper band first and finds the last free address', () => {
    const c = parseCidr('10.0.0.0/28'); // 14 usable, low band 16 → one band
    const used = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]);
    expect(pickFreeOffset(c, (o) => used.has(o), () => 0)).toBe(13);
    used.add(13);
    expect(pickFreeOffset(c, (o) => used.has(o))).toBeUndefined();
    const big = parseCidr('10.96.0.0/12');
    expect(pickFreeOffset(big, () => false, () => 0)).toBe(257);
  });

  it('refuses a malformed range with a hint', () => {
    expect(() => parseCidr('10.96.0.0')).toThrow('invalid service CIDR "10.96.0.0": want an IPv4 prefix between /8 and /30, e.g. 10.96.0.0/12');
  });
});

describe('DefaultTolerationSeconds', () => {
  const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  it.each([
    { name: 'none', given: undefined, want: [notReady, unreachable] },
    { name: 'tolerate-everything', given: [{ operator: 'Exists' }], want: undefined },
    { name: 'own not-ready kept', given: [{ ...notReady, tolerationSeconds: 5 }], want: [{ ...notReady, tolerationSeconds: 5 }, unreachable] },
    { name: 'NoSchedule does not count', given: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }], want: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable] },
  ])('$name', ({ given, want }) => {
    const out = withDefaultTolerations(given, 300, 300);
    expect(out === given ? undefined : out).toEqual(want);
  });
});
