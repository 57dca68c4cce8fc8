// A CIDR set (pkg/controller/nodeipam/ipam/cidrset): the cluster CIDR cut
// into subnets of one mask size, handed out in order from a rotating
// candidate, never twice; occupy marks a subnet taken (a node that has it).

import { formatIpv4Cidr, parseIpv4Cidr } from '@kubelab/api';

export class CidrSetError extends Error {
  override name = 'CidrSetError';
}

/** upstream ErrCIDRRangeNoCIDRsRemaining */
export const NO_CIDRS_REMAINING = 'CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range';

export class CidrSet {
  private readonly base: number;
  private readonly subnetSize: number;
  readonly maxCidrs: number;
  private readonly used: Uint8Array;
  private next = 0;
  private allocated = 0;

  constructor(
    readonly clusterCidr: string,
    readonly maskSize: number,
  ) {
    const cluster = parseIpv4Cidr(clusterCidr.trim());
    // Go's net.ParseCIDR error text.
    if (!cluster) throw new CidrSetError(`invalid CIDR address: ${clusterCidr}`);
    const { base, prefix } = cluster;
    if (maskSize < prefix) throw new CidrSetError(`--node-cidr-mask-size ${maskSize} is smaller than the cluster CIDR's /${prefix}`);
    if (maskSize - prefix > 16) throw new CidrSetError('CIDRSet: the number of node CIDRs is too large (clusterCIDRMask + 16 < nodeMask)');
    this.base = base;
    this.subnetSize = 2 ** (32 - maskSize);
    this.maxCidrs = 2 ** (maskSize - prefix);
    this.used = new Uint8Array(this.maxCidrs);
  }

  /** AllocateNext: the next free subnet as text; throws when none is left. */
  allocateNext(): string {
    if (this.allocated >= this.maxCidrs) throw new CidrSetError(NO_CIDRS_REMAINING);
    for (let i = 0; i < this.maxCidrs; i++) {
      const idx = (this.next + i) % this.maxCidrs;
      if (this.used[idx]) continue;
      this.used[idx] = 1;
      this.allocated++;
      this.next = (idx + 1) % this.maxCidrs;
      return this.format(idx);
    }
    throw new CidrSetError(NO_CIDRS_REMAINING);
  }

  /** Marks a subnet used (a node already has it); false when outside this set. */
  occupy(cidr: string): boolean {
    const idx = this.index(cidr);
    if (idx === undefined) return false;
    if (!this.used[idx]) {
      this.used[idx] = 1;
      this.allocated++;
    }
    return true;
  }

  release(cidr: string): void {
    const idx = this.index(cidr);
    if (idx === undefined || !this.used[idx]) return;
    this.used[idx] = 0;
    this.allocated--;
  }

  private index(cidr: string): number | undefined {
    const p = parseIpv4Cidr(cidr.trim());
    if (!p || p.prefix !== this.maskSize) return undefined;
    const off = p.base - this.base;
    if (off < 0 || off % this.subnetSize !== 0) return undefined;
    const idx = off / this.subnetSize;
    return idx < this.maxCidrs ? idx : undefined;
  }

  private format(idx: number): string {
    return formatIpv4Cidr({ base: this.base + idx * this.subnetSize, prefix: this.maskSize });
  }
}
