// Pure helpers for the service IP and node port allocators (upstream:
// pkg/registry/core/service/ipallocator and portallocator).

export interface Cidr {
  base: number;
  bits: number;
  size: number;
  text: string;
}

export function ipToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function parseCidr(text: string): Cidr {
  const [ip, bitsText] = text.split('/');
  const base = ipToInt(ip ?? '');
  const bits = Number(bitsText);
  if (base === undefined || !Number.isInteger(bits) || bits < 8 || bits > 30) {
    throw new Error(`invalid service CIDR ${JSON.stringify(text)}: want an IPv4 prefix between /8 and /30, e.g. 10.96.0.0/12`);
  }
  const size = 2 ** (32 - bits);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (base & mask) >>> 0, bits, size, text: `${intToIp((base & mask) >>> 0)}/${bits}` };
}

/** Offset of `ip` in the range if it is a usable address (not network/broadcast). */
export function offsetInRange(c: Cidr, ip: string): number | undefined {
  const n = ipToInt(ip);
  if (n === undefined) return undefined;
  const off = n - c.base;
  return off >= 1 && off <= c.size - 2 ? off : undefined;
}

/** Picks a free offset: random in the upper band first (the lower band is for static IPs), as upstream. */
export function pickFreeOffset(c: Cidr, used: (off: number) => boolean, rand: () => number = Math.random): number | undefined {
  const usable = c.size - 2;
  const lowBand = Math.min(Math.max(16, Math.floor(c.size / 16)), 256);
  const bands: Array<[number, number]> = usable > lowBand ? [[lowBand + 1, usable], [1, lowBand]] : [[1, usable]];
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
