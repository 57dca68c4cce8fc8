// host-local IPAM, as the CNI plugin the runtime calls: pod IPs come from the
// node's podCIDR (given by the kubelet in UpdateRuntimeConfig), the first
// address is the bridge gateway, each IP is unique until released.

import { formatIpv4, ipv4CidrSize, parseIpv4, parseIpv4Cidr, type Ipv4Cidr } from '@kubelab/api';

/**
 * A pod range this IPAM serves: an IPv4 CIDR from /8 (a bounded range) to /30
 * (network, gateway, broadcast and one pod); undefined otherwise.
 */
export function parsePodCidr(text: string): Ipv4Cidr | undefined {
  const c = parseIpv4Cidr(text);
  return c && c.prefix >= 8 && c.prefix <= 30 ? c : undefined;
}

export class Ipam {
  private readonly used = new Map<number, string>();
  private next = 0;

  constructor(readonly cidr: Ipv4Cidr) {}

  get size(): number {
    return ipv4CidrSize(this.cidr);
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
