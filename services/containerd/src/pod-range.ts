// Which pod ranges this runtime may hand out. A sandbox created before the
// kubelet's UpdateRuntimeConfig (or under a client that never sends one, such
// as critest or a kubelet whose CNI does its own IPAM) gets an address from
// FALLBACK_POD_RANGE, a loopback range: on the host every 127/8 address is
// local, so a client that fetches http://<podIP> reaches the sandbox and
// nothing is routed off the machine.
//
// In pod-ip mode the runtime binds the pod IPs themselves; a range the host
// would route (10.244.0.0/16 on a laptop) sends a learner's pod traffic to
// the LAN. Such a range is taken only where its addresses exist on an
// interface of this network namespace (the project's own node namespaces);
// in loopback mode pod IPs are only reported, never bound, so any range goes.

import { networkInterfaces } from 'node:os';
import { parseIpv4, ipv4CidrSize, type Ipv4Cidr } from '@kubelab/api';
import type { NetworkMode } from './network.js';

export const FALLBACK_POD_RANGE = '127.88.0.0/16';

const LOOPBACK = { base: parseIpv4('127.0.0.0')!, size: 1 << 24 };

/** IPv4 addresses on this namespace's interfaces. */
export function localIpv4Addresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4')
    .map((a) => a.address);
}

function inRange(addr: number, base: number, size: number): boolean {
  return addr >= base && addr < base + size;
}

/** Why `cidr` may not serve pods here (undefined: it may). */
export function podRangeRefusal(cidr: Ipv4Cidr, text: string, mode: NetworkMode, localAddresses: string[]): string | undefined {
  if (mode !== 'pod-ip') return undefined;
  const size = ipv4CidrSize(cidr);
  if (inRange(cidr.base, LOOPBACK.base, LOOPBACK.size) && inRange(cidr.base + size - 1, LOOPBACK.base, LOOPBACK.size)) return undefined;
  const local = localAddresses.map(parseIpv4).some((a) => a !== undefined && a !== cidr.base && inRange(a, cidr.base, size));
  if (local) return undefined;
  return `pod CIDR ${text} is not a loopback range and none of its addresses is on this network namespace's interfaces: pod IPs bound here would be routed off the machine; use a loopback range such as ${FALLBACK_POD_RANGE}`;
}
