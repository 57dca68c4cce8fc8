// iptables chain names (upstream pkg/proxy/iptables/proxier.go): the fixed
// chains, and the per-service / per-endpoint chains named by a hash.

import { hashPrefix } from '../hash.js';

export const KUBE_SERVICES = 'KUBE-SERVICES';
export const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
export const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
export const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
export const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
export const KUBE_FORWARD = 'KUBE-FORWARD';
export const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
export const KUBE_FIREWALL = 'KUBE-FIREWALL';

/** portProtoHash: 16 base32 chars of sha256(servicePortName + protocol). */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return hashPrefix(servicePortName + protocol, 16);
}

/** KUBE-SVC-<hash>: the service port's Cluster-policy chain. */
export function servicePortChainName(servicePortName: string, protocol: string): string {
  return `KUBE-SVC-${portProtoHash(servicePortName, protocol)}`;
}

/** KUBE-SVL-<hash>: the service port's Local-policy chain (this node's endpoints only). */
export function serviceLocalChainName(servicePortName: string, protocol: string): string {
  return `KUBE-SVL-${portProtoHash(servicePortName, protocol)}`;
}

/** KUBE-EXT-<hash>: where NodePort / external IP traffic enters. */
export function serviceExternalChainName(servicePortName: string, protocol: string): string {
  return `KUBE-EXT-${portProtoHash(servicePortName, protocol)}`;
}

/** KUBE-SEP-<hash>: one endpoint's DNAT chain; the hash includes `ip:port`. */
export function servicePortEndpointChainName(servicePortName: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${hashPrefix(servicePortName + protocol + endpoint, 16)}`;
}

const SERVICE_CHAIN_PREFIXES = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-SEP-', 'KUBE-FW-', 'KUBE-EXT-'];

/** Whether a chain is one of ours that a sync may delete when it goes stale. */
export function isServiceChainName(chain: string): boolean {
  return SERVICE_CHAIN_PREFIXES.some((p) => chain.startsWith(p));
}

/** The chain names of one service port, computed once per ServicePortInfo (upstream caches them in servicePortInfo). */
export interface ServicePortChains {
  svc: string;
  svl: string;
  ext: string;
  proto: string;
}

const portChainCache = new WeakMap<object, ServicePortChains>();
const endpointChainCache = new WeakMap<object, { svc: ServicePortChains; name: string }>();

/** Cached per service-port object: a resync of unchanged services hashes nothing. */
export function chainsFor(svc: { name: string; protocol: string }): ServicePortChains {
  let c = portChainCache.get(svc);
  if (!c) {
    const proto = svc.protocol.toLowerCase();
    const hash = portProtoHash(svc.name, proto);
    c = { svc: `KUBE-SVC-${hash}`, svl: `KUBE-SVL-${hash}`, ext: `KUBE-EXT-${hash}`, proto };
    portChainCache.set(svc, c);
  }
  return c;
}

/** KUBE-SEP-<hash> of an endpoint of a service port, cached per endpoint object (upstream endpointInfo.ChainName). */
export function endpointChainFor(svc: { name: string; protocol: string }, ep: { endpoint: string }): string {
  const chains = chainsFor(svc);
  const hit = endpointChainCache.get(ep);
  if (hit && hit.svc === chains) return hit.name;
  const name = servicePortEndpointChainName(svc.name, chains.proto, ep.endpoint);
  endpointChainCache.set(ep, { svc: chains, name });
  return name;
}
