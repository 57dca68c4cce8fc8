// Service → service ports (upstream pkg/proxy/serviceport.go newBaseServiceInfo):
// which Services a proxier programs at all and what each port means.

import { parseIpv4, type Service } from '@kubelab/api';
import { DEFAULT_STICKY_MAX_AGE_SECONDS, type L4Protocol, type ServicePortInfo } from './types.js';

/** `ns/name:port` (ServicePortName.String(): no colon for an unnamed port). */
export function servicePortName(namespace: string, name: string, portName: string | undefined): string {
  return portName ? `${namespace}/${name}:${portName}` : `${namespace}/${name}`;
}

/** An IPv4 address as Go's ParseIP reads it (no leading zeros): the only family this proxier programs. */
export function isIPv4(ip: string | undefined): ip is string {
  return ip !== undefined && parseIpv4(ip) !== undefined;
}

/**
 * The ports of a Service this (IPv4) proxier handles. Headless services
 * (clusterIP None), ExternalName services and services without a ClusterIP
 * yet are skipped, as upstream's ShouldSkipService does.
 */
export function servicePorts(svc: Service): Map<string, ServicePortInfo> {
  const out = new Map<string, ServicePortInfo>();
  const spec = svc.spec ?? {};
  const ns = svc.metadata.namespace ?? 'default';
  const name = svc.metadata.name ?? '';
  if (spec.type === 'ExternalName') return out;
  const clusterIP = spec.clusterIP;
  if (!clusterIP || clusterIP === 'None' || !isIPv4(clusterIP)) return out;
  const affinity = spec.sessionAffinity === 'ClientIP' ? 'ClientIP' : 'None';
  const timeout = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  // ipMode Proxy: the load balancer proxies to the nodes itself, so the node must not capture its IP (upstream skips it).
  const lbIPs = (svc.status?.loadBalancer?.ingress ?? [])
    .filter((i) => i.ipMode !== 'Proxy')
    .map((i) => i.ip)
    .filter(isIPv4);
  const externalIPs = (spec.externalIPs ?? []).filter(isIPv4);
  // externalTrafficPolicy only means something for externally reachable services (apiservice.ExternalPolicyLocal).
  const reachable = spec.type === 'NodePort' || spec.type === 'LoadBalancer' || externalIPs.length > 0;
  const externalLocal = reachable && spec.externalTrafficPolicy === 'Local';
  const hcnp = (spec as { healthCheckNodePort?: number }).healthCheckNodePort;
  const healthCheckNodePort = spec.type === 'LoadBalancer' && externalLocal && Number.isInteger(hcnp) && hcnp! > 0 ? hcnp! : 0;
  for (const p of spec.ports ?? []) {
    if (!Number.isInteger(p.port) || p.port <= 0) continue;
    const info: ServicePortInfo = {
      name: servicePortName(ns, name, p.name),
      namespace: ns,
      service: name,
      portName: p.name ?? '',
      protocol: (p.protocol ?? 'TCP') as L4Protocol,
      clusterIP,
      port: p.port,
      nodePort: spec.type === 'NodePort' || spec.type === 'LoadBalancer' ? (p.nodePort ?? 0) : 0,
      externalIPs,
      loadBalancerIPs: spec.type === 'LoadBalancer' ? lbIPs : [],
      sessionAffinity: affinity,
      stickyMaxAgeSeconds: affinity === 'ClientIP' ? (timeout ?? DEFAULT_STICKY_MAX_AGE_SECONDS) : 0,
      externalTrafficPolicy: externalLocal ? 'Local' : 'Cluster',
      internalTrafficPolicy: spec.internalTrafficPolicy === 'Local' ? 'Local' : 'Cluster',
      healthCheckNodePort,
    };
    out.set(info.name, info);
  }
  return out;
}
