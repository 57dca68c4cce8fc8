import { describe, expect, it } from 'vitest';
import { formatIpv4, formatIpv4Cidr, ipv4CidrContains, ipv4CidrSize, ipv4Mask, parseIpv4, parseIpv4Cidr } from './ipv4.js';

describe('parseIpv4', () => {
  it.each<[string, string, number | undefined]>([
    ['a private address', '10.0.0.1', 167772161],
    ['the lowest address', '0.0.0.0', 0],
    ['the highest address, above 2^31 and still positive', '255.255.255.255', 4294967295],
    ['an octet above 255', '10.0.0.256', undefined],
    ['three octets', '10.0.1', undefined],
    ['five octets', '10.0.0.1.2', undefined],
    ['an empty octet', '10..0.1', undefined],
    ['a leading zero (octal to some parsers)', '010.0.0.1', undefined],
    ['leading blank', ' 10.0.0.1', undefined],
    ['trailing blank', '10.0.0.1 ', undefined],
    ['a sign', '+10.0.0.1', undefined],
    ['a CIDR is not an address', '10.0.0.0/8', undefined],
    ['hex', '0xa.0.0.1', undefined],
    ['an IPv6 address', '::1', undefined],
    ['empty', '', undefined],
  ])('%s: %j', (_name, text, want) => expect(parseIpv4(text)).toBe(want));
});

describe('formatIpv4', () => {
  it.each<[string, number, string]>([
    ['a private address', 167772161, '10.0.0.1'],
    ['zero', 0, '0.0.0.0'],
    ['the highest address', 4294967295, '255.255.255.255'],
    ['past the last address wraps around', 4294967296 + 1, '0.0.0.1'],
  ])('%s', (_name, n, want) => expect(formatIpv4(n)).toBe(want));
});

describe('parseIpv4Cidr', () => {
  it.each<[string, string, { base: string; prefix: number } | undefined]>([
    ['a network', '10.244.0.0/16', { base: '10.244.0.0', prefix: 16 }],
    ['host bits are cleared, as Go ParseCIDR', '10.244.1.7/16', { base: '10.244.0.0', prefix: 16 }],
    ['/0 is everything', '1.2.3.4/0', { base: '0.0.0.0', prefix: 0 }],
    ['/32 is one address', '1.2.3.4/32', { base: '1.2.3.4', prefix: 32 }],
    ['a prefix above 32', '10.244.1.0/33', undefined],
    ['a prefix with a leading zero', '10.0.0.0/08', undefined],
    ['a three-digit prefix', '10.0.0.0/100', undefined],
    ['no prefix', '10.96.0.0', undefined],
    ['an empty prefix', '10.96.0.0/', undefined],
    ['two slashes', '10.96.0.0/12/3', undefined],
    ['a bad address', '10.0.0.256/16', undefined],
    ['a blank around it', ' 10.0.0.0/8', undefined],
    ['a negative prefix', '10.0.0.0/-1', undefined],
  ])('%s: %j', (_name, text, want) => {
    const got = parseIpv4Cidr(text);
    expect(got && { base: formatIpv4(got.base), prefix: got.prefix }).toEqual(want);
  });
});

describe('networks', () => {
  const net = (text: string) => parseIpv4Cidr(text)!;
  const ip = (text: string) => parseIpv4(text)!;
  it.each<[string, number, number]>([
    ['/0', 0, 0],
    ['/8', 8, 0xff000000],
    ['/24', 24, 0xffffff00],
    ['/32', 32, 0xffffffff],
  ])('the mask of %s', (_name, prefix, want) => expect(ipv4Mask(prefix)).toBe(want));

  it.each<[string, string, number]>([
    ['a /24 holds 256', '10.0.0.0/24', 256],
    ['a /32 holds one', '10.0.0.1/32', 1],
    ['a /0 holds all', '0.0.0.0/0', 2 ** 32],
  ])('size: %s', (_name, cidr, want) => expect(ipv4CidrSize(net(cidr))).toBe(want));

  it.each<[string, string, string, boolean]>([
    ['an address inside', '10.244.0.0/16', '10.244.3.9', true],
    ['the network address itself', '10.244.0.0/16', '10.244.0.0', true],
    ['just past the end', '10.244.0.0/16', '10.245.0.0', false],
    ['anything is in /0', '0.0.0.0/0', '203.0.113.1', true],
    ['a /32 holds only its address', '127.0.0.1/32', '127.0.0.2', false],
    ['a high network (top bit set)', '192.168.0.0/16', '192.168.255.255', true],
  ])('contains: %s', (_name, cidr, addr, want) => expect(ipv4CidrContains(net(cidr), ip(addr))).toBe(want));

  it('formats a network as text', () => expect(formatIpv4Cidr(net('10.96.7.1/12'))).toBe('10.96.0.0/12'));
});
