// Pure helpers for the service IP and node port allocators (upstream:
// pkg/registry/core/service/ipallocator and portallocator).

import { formatIpv4Cidr, ipv4CidrSize, parseIpv4, parseIpv4Cidr } from '@kubelab/api';

export interface Cidr {
  base: number;
  bits: number;
  size: number;
  text: string;
}

/** The service range (--service-cluster-ip-range): an IPv4 CIDR from /8 to /30 (room for the kubernetes Service's IP and one more). */
export function parseCidr(text: string): Cidr {
  const c = parseIpv4Cidr(text);
  if (!c || c.prefix < 8 || c.prefix > 30) {
    throw new Error(`invalid service CIDR ${JSON.stringify(text)}: want an IPv4 prefix between /8 and /30, e.g. 10.96.0.0/12`);
  }
  return { base: c.base, bits: c.prefix, size: ipv4CidrSize(c), text: formatIpv4Cidr(c) };
}

/** Offset of `ip` in the range if it is a usable address (not network/broadcast). */
export function offsetInRange(c: Cidr, ip: string): number | undefined {
  const n = parseIpv4(ip);
  if (n === undefined) return undefined;
  const off = n - c.base;
  return off >= 1 && off <= c.size - 2 ? off : undefined;
}

/** Picks a free offset: random in the upper band first (the lower band is for static IPs), as upstream. */
export function pickFreeOffset(c: Cidr, used: (off: number) => boolean, rand: () => number = Math.random): number | undefined {
  const usable = c.size - 2;
  const lowBand = Math.min(Math.max(16, Math.floor(c.size / 16)), 256);
  const bands: Array<[number, number]> =
    usable > lowBand
      ? [
          [lowBand + 1, usable],
          [1, lowBand],
        ]
      : [[1, usable]];
  for (const [lo, hi] of bands) {
    const n = hi - lo + 1;
    const start = Math.floor(rand() * n);
    for (let i = 0; i < n; i++) {
      const off = lo + ((start + i) % n);
      if (!used(off)) return off;
    }
  }
  return undefined;
}

export interface PortRange {
  base: number;
  size: number;
  text: string;
}

export function parsePortRange(text: string): PortRange {
  const m = /^(\d+)-(\d+)$/.exec(text.trim());
  const lo = m ? Number(m[1]) : NaN;
  const hi = m ? Number(m[2]) : NaN;
  if (!m || lo < 1 || hi > 65535 || lo > hi) throw new Error(`invalid service node port range ${JSON.stringify(text)}: want LOW-HIGH, e.g. 30000-32767`);
  return { base: lo, size: hi - lo + 1, text: `${lo}-${hi}` };
}
