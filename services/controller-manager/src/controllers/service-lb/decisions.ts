// The service load-balancer controller's decisions (upstream
// k8s.io/cloud-provider/controllers/service, with the address pool of kind's
// cloud-provider-kind as the "cloud"): which Services want a load balancer,
// and which address a new one gets. Pure functions, no I/O.

import { formatIpv4, ipv4CidrContains, ipv4CidrSize, parseIpv4, type Ipv4Cidr, type Service } from '@kubelab/api';

/** Upstream's finalizer: the controller releases the load balancer before the Service goes (servicehelper.LoadBalancerCleanupFinalizer). */
export const LB_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

/** wantsLoadBalancer: type LoadBalancer without a loadBalancerClass (a class names another implementation). */
export function wantsLoadBalancer(svc: Service): boolean {
  return svc.spec?.type === 'LoadBalancer' && svc.spec.loadBalancerClass === undefined;
}

/** needsCleanup: the Service is going or no longer wants one, and still carries the finalizer. */
export function needsCleanup(svc: Service): boolean {
  const has = svc.metadata.finalizers?.includes(LB_CLEANUP_FINALIZER) ?? false;
  return has && (!!svc.metadata.deletionTimestamp || !wantsLoadBalancer(svc));
}

/** The IPv4 ingress addresses a Service's status holds inside the pool (what this controller gave it). */
export function ingressInPool(svc: Service, pool: Ipv4Cidr): string[] {
  return (svc.status?.loadBalancer?.ingress ?? [])
    .map((i) => i.ip ?? '')
    .filter((ip) => {
      const n = parseIpv4(ip);
      return n !== undefined && ipv4CidrContains(pool, n);
    });
}

/**
 * The address for a Service: the one it has, else spec.loadBalancerIP when it
 * lies in the pool and is free, else the lowest free address (network and
 * broadcast addresses excluded). `undefined` with a reason when none fits.
 */
export function chooseAddress(svc: Service, pool: Ipv4Cidr, used: ReadonlySet<string>): { ip?: string; error?: string } {
  const current = ingressInPool(svc, pool)[0];
  if (current) return { ip: current };
  const requested = svc.spec?.loadBalancerIP;
  if (requested) {
    const n = parseIpv4(requested);
    if (n === undefined || !ipv4CidrContains(pool, n)) return { error: `requested loadBalancerIP ${requested} is not in the load balancer range ${formatIpv4(pool.base)}/${pool.prefix}` };
    if (used.has(requested)) return { error: `requested loadBalancerIP ${requested} is already in use` };
    return { ip: requested };
  }
  const size = ipv4CidrSize(pool);
  const [first, last] = size > 2 ? [1, size - 2] : [0, size - 1];
  for (let off = first; off <= last; off++) {
    const ip = formatIpv4(pool.base + off);
    if (!used.has(ip)) return { ip };
  }
  return { error: `no free address in the load balancer range ${formatIpv4(pool.base)}/${pool.prefix}` };
}
