// host-local IPAM, as the CNI plugin the runtime calls: pod IPs come from the
// node's podCIDR (given by the kubelet in UpdateRuntimeConfig), the first
// address is the bridge gateway, each IP is unique until released.

export interface Cidr {
  base: number;
  prefix: number;
}

export function parseIpv4(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

export function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Parses `a.b.c.d/n` (IPv4 only); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [ip, bits, extra] = text.split('/');
  if (extra !== undefined || ip === undefined || bits === undefined || !/^\d{1,2}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  const addr = parseIpv4(ip);
  if (addr === undefined || prefix < 8 || prefix > 30) return undefined;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { base: (addr & mask) >>> 0, prefix };
}

export class Ipam {
  private readonly used = new Map<number, string>();
  private next = 0;

  constructor(readonly cidr: Cidr) {}

  get size(): number {
    return 2 ** (32 - this.cidr.prefix);
  }

  gateway(): string {
    return formatIpv4(this.cidr.base + 1);
  }

  /** Next free address after the last one handed out (host-local's round robin); owner is the sandbox ID. */
  allocate(owner: string): string {
    const usable = this.size - 3; // network, gateway, broadcast
    for (let i = 0; i < usable; i++) {
      const offset = 2 + ((this.next + i) % usable);
      const addr = this.cidr.base + offset;
      if (!this.used.has(addr)) {
        this.used.set(addr, owner);
        this.next = (offset - 2 + 1) % usable;
        return formatIpv4(addr);
      }
    }
    throw new Error(`failed to allocate for range 0: no IP addresses available in range set: ${formatIpv4(this.cidr.base + 2)}-${formatIpv4(this.cidr.base + this.size - 2)}`);
  }

  /** Marks an address as taken (recovery); false when it is outside the range or taken. */
  claim(ip: string, owner: string): boolean {
    const addr = parseIpv4(ip);
    if (addr === undefined || addr <= this.cidr.base + 1 || addr >= this.cidr.base + this.size - 1) return false;
    if (this.used.has(addr) && this.used.get(addr) !== owner) return false;
    this.used.set(addr, owner);
    return true;
  }

  release(ip: string): void {
    const addr = parseIpv4(ip);
    if (addr !== undefined) this.used.delete(addr);
  }

  inUse(): number {
    return this.used.size;
  }
}
