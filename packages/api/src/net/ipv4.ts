// IPv4 addresses and CIDRs as 32-bit numbers (upstream k8s.io/utils/net and
// Go's net.ParseIP/ParseCIDR, IPv4 only). Parsing is strict, as Go's since 1.17:
// exactly four decimal octets 0–255 without leading zeros, a prefix 0–32, nothing
// around them. Malformed text gives undefined; each caller words its own error.

/** A network: its first address (host bits cleared) and prefix length. */
export interface Ipv4Cidr {
  base: number;
  prefix: number;
}

const OCTET = /^(0|[1-9][0-9]{0,2})$/;
const PREFIX = /^(0|[1-9][0-9]?)$/;

/** `10.0.0.1` → 167772161; undefined unless four octets 0–255. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** 167772161 → `10.0.0.1` (the number taken modulo 2^32). */
export function formatIpv4(n: number): string {
  const u = n >>> 0;
  return `${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}`;
}

/** The netmask of a prefix length as a number: 24 → 0xffffff00. */
export function ipv4Mask(prefix: number): number {
  return prefix <= 0 ? 0 : (0xffffffff << (32 - Math.min(prefix, 32))) >>> 0;
}

/** `10.244.1.7/16` → the network 10.244.0.0/16, as Go's ParseCIDR; undefined when malformed. */
export function parseIpv4Cidr(text: string): Ipv4Cidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const addr = parseIpv4(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (addr === undefined || !PREFIX.test(bits) || Number(bits) > 32) return undefined;
  const prefix = Number(bits);
  return { base: (addr & ipv4Mask(prefix)) >>> 0, prefix };
}

/** The number of addresses in the network (2^(32-prefix)). */
export function ipv4CidrSize(c: Ipv4Cidr): number {
  return 2 ** (32 - c.prefix);
}

/** Whether the address (a number from parseIpv4) lies in the network. */
export function ipv4CidrContains(c: Ipv4Cidr, addr: number): boolean {
  return (addr & ipv4Mask(c.prefix)) >>> 0 === c.base;
}

export function formatIpv4Cidr(c: Ipv4Cidr): string {
  return `${formatIpv4(c.base)}/${c.prefix}`;
}
