// The proxier's view of the cluster (upstream pkg/proxy: ServicePortName,
// BaseServicePortInfo, BaseEndpointInfo): what every backend renders from.

export type L4Protocol = 'TCP' | 'UDP' | 'SCTP';

/** One port of one Service: the unit every backend programs (proxy.ServicePort). */
export interface ServicePortInfo {
  /** `namespace/name:port`, or `namespace/name` for an unnamed port (ServicePortName.String()). */
  name: string;
  namespace: string;
  service: string;
  /** The ServicePort's name ('' when the Service has one unnamed port). */
  portName: string;
  protocol: L4Protocol;
  clusterIP: string;
  port: number;
  /** 0 when the Service has no node port. */
  nodePort: number;
  externalIPs: string[];
  loadBalancerIPs: string[];
  sessionAffinity: 'None' | 'ClientIP';
  /** sessionAffinityConfig.clientIP.timeoutSeconds, 10800 by default. */
  stickyMaxAgeSeconds: number;
  /** Local only when the port is externally accessible (apiservice.ExternalPolicyLocal). */
  externalTrafficPolicy: 'Cluster' | 'Local';
  internalTrafficPolicy: 'Cluster' | 'Local';
  /** spec.healthCheckNodePort of a LoadBalancer with externalTrafficPolicy Local, else 0. */
  healthCheckNodePort: number;
}

/** One endpoint of one service port (proxy.BaseEndpointInfo). */
export interface EndpointInfo {
  ip: string;
  port: number;
  /** `ip:port`, the string every chain hash includes. */
  endpoint: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName?: string;
  /** Whether the endpoint runs on this node. */
  isLocal: boolean;
}

/** The whole state a sync renders: service ports and their usable endpoints. */
export interface ProxySnapshot {
  /** Service ports by ServicePortName string, in sorted order. */
  services: ServicePortInfo[];
  /** All known endpoints per ServicePortName string, sorted by `ip:port`. */
  endpoints: Map<string, EndpointInfo[]>;
}

/** Node facts and settings the renderers read (a subset of KubeProxyConfiguration). */
export interface ProxyConfig {
  nodeName: string;
  /** The node's own IPv4 addresses (NodePort destinations in ipvs mode). */
  nodeIPs: string[];
  /** Pod CIDR of the cluster: traffic from outside it is masqueraded (detectLocalMode ClusterCIDR). */
  clusterCIDR: string;
  /** Service CIDR: nftables drops traffic to unallocated ClusterIPs in it. */
  serviceCIDR: string;
  masqueradeAll: boolean;
  /** iptables.masqueradeBit (default 14 → mark 0x4000). */
  masqueradeBit: number;
  /** iptables.localhostNodePorts (default true). */
  localhostNodePorts: boolean;
  /** ipvs.scheduler (default rr). */
  ipvsScheduler: string;
}

export const DEFAULT_STICKY_MAX_AGE_SECONDS = 10800;

/** NodePort, external IPs or load-balancer IPs (BaseServicePortInfo.ExternallyAccessible). */
export function externallyAccessible(svc: ServicePortInfo): boolean {
  return svc.nodePort > 0 || svc.externalIPs.length > 0 || svc.loadBalancerIPs.length > 0;
}

/** Cluster endpoints are needed for Cluster internal policy and for any external traffic (short-circuiting). */
export function usesClusterEndpoints(svc: ServicePortInfo): boolean {
  return svc.internalTrafficPolicy !== 'Local' || externallyAccessible(svc);
}

/** Local endpoints are needed for internalTrafficPolicy Local or an externally reachable externalTrafficPolicy Local. */
export function usesLocalEndpoints(svc: ServicePortInfo): boolean {
  return svc.internalTrafficPolicy === 'Local' || (svc.externalTrafficPolicy === 'Local' && externallyAccessible(svc));
}

export function defaultProxyConfig(overrides: Partial<ProxyConfig> = {}): ProxyConfig {
  return {
    nodeName: 'node-1',
    nodeIPs: [],
    clusterCIDR: '10.244.0.0/16',
    serviceCIDR: '10.96.0.0/12',
    masqueradeAll: false,
    masqueradeBit: 14,
    localhostNodePorts: true,
    ipvsScheduler: 'rr',
    ...overrides,
  };
}

/** The mark KUBE-MARK-MASQ sets, as upstream prints it (`0x4000` for bit 14). */
export function masqueradeMark(bit: number): string {
  return `0x${(1 << bit).toString(16)}`;
}
