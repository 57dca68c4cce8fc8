// EndpointSlice → endpoints per service port (upstream pkg/proxy/endpointslicecache.go
// and CategorizeEndpoints): which backends a service port may send traffic to.

import { LABEL_SERVICE_NAME, type EndpointSlice } from '@kubelab/api';
import { isIPv4, servicePortName } from './serviceport.js';
import { usesClusterEndpoints, usesLocalEndpoints, type EndpointInfo, type ServicePortInfo } from './types.js';

/**
 * The endpoints one slice contributes, keyed by ServicePortName. Ports are
 * matched to service ports by name (the slice's port carries the resolved
 * targetPort number). Only the first address of an endpoint counts; missing
 * conditions mean ready/serving and not terminating, as the API documents.
 */
export function sliceEndpoints(slice: EndpointSlice, nodeName: string): Map<string, EndpointInfo[]> {
  const out = new Map<string, EndpointInfo[]>();
  const svc = slice.metadata.labels?.[LABEL_SERVICE_NAME];
  if (!svc || slice.addressType !== 'IPv4') return out;
  const ns = slice.metadata.namespace ?? 'default';
  for (const port of slice.ports ?? []) {
    if (port.port === undefined || !Number.isInteger(port.port) || port.port <= 0) continue;
    const spn = servicePortName(ns, svc, port.name);
    const list: EndpointInfo[] = [];
    for (const ep of slice.endpoints ?? []) {
      const ip = ep.addresses?.[0];
      if (!isIPv4(ip)) continue;
      const ready = ep.conditions?.ready ?? true;
      list.push({
        ip,
        port: port.port,
        endpoint: `${ip}:${port.port}`,
        ready,
        serving: ep.conditions?.serving ?? ready,
        terminating: ep.conditions?.terminating ?? false,
        ...(ep.nodeName ? { nodeName: ep.nodeName } : {}),
        isLocal: ep.nodeName === nodeName,
      });
    }
    out.set(spn, list);
  }
  return out;
}

/** Merges slices of one service: duplicates (same ip:port) collapse, order is by `ip:port`. */
export function mergeEndpoints(lists: EndpointInfo[][]): EndpointInfo[] {
  const seen = new Map<string, EndpointInfo>();
  for (const list of lists) for (const ep of list) if (!seen.has(ep.endpoint)) seen.set(ep.endpoint, ep);
  return [...seen.values()].sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
}

/** The endpoints one service port uses, split by traffic policy (proxy.CategorizeEndpoints). */
export interface CategorizedEndpoints {
  /** For Cluster policy: ready endpoints anywhere, or else the serving+terminating ones. */
  cluster: EndpointInfo[];
  /** For Local policy: this node's ready endpoints, or else its serving+terminating ones. */
  local: EndpointInfo[];
  /** Every endpoint some rule of this node may send to (needs an endpoint chain), by `ip:port`. */
  allReachable: EndpointInfo[];
  /** Whether any usable endpoint exists anywhere in the cluster. */
  hasAny: boolean;
}

function byEndpoint(a: EndpointInfo, b: EndpointInfo): number {
  return a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0;
}

/**
 * CategorizeEndpoints (topology hints are out of scope): cluster endpoints
 * fall back to serving+terminating ones when none is ready, so connections
 * drain instead of being refused; local endpoints do the same on this node.
 */
export function categorizeEndpoints(svc: ServicePortInfo, all: EndpointInfo[]): CategorizedEndpoints {
  let cluster: EndpointInfo[] = [];
  let local: EndpointInfo[] = [];
  let hasAny = false;
  if (usesClusterEndpoints(svc)) {
    cluster = all.filter((e) => e.ready);
    if (cluster.length === 0) cluster = all.filter((e) => e.serving && e.terminating);
    hasAny = cluster.length > 0;
  }
  if (!usesLocalEndpoints(svc)) return { cluster, local, allReachable: cluster, hasAny };
  let localReady = false;
  let localTerminating = false;
  for (const e of all) {
    if (e.ready) {
      hasAny = true;
      if (e.isLocal) localReady = true;
    } else if (e.serving && e.terminating) {
      hasAny = true;
      if (e.isLocal) localTerminating = true;
    }
  }
  if (localReady) local = all.filter((e) => e.isLocal && e.ready);
  else if (localTerminating) local = all.filter((e) => e.isLocal && e.serving && e.terminating);
  if (!usesClusterEndpoints(svc)) return { cluster, local, allReachable: local, hasAny };
  // Without the terminating fallback, local ⊆ cluster; otherwise merge the two lists.
  if (!localTerminating || localReady) return { cluster, local, allReachable: cluster, hasAny };
  const merged = new Map<string, EndpointInfo>();
  for (const e of [...cluster, ...local]) merged.set(e.endpoint, e);
  return { cluster, local, allReachable: [...merged.values()].sort(byEndpoint), hasAny };
}

/**
 * The endpoints a service port sends cluster traffic to (CategorizeEndpoints,
 * Cluster policy): the ready ones; when none is ready, the ones that are
 * serving and terminating, so connections drain instead of being refused.
 */
export function usableEndpoints(_svc: ServicePortInfo, all: EndpointInfo[]): EndpointInfo[] {
  const ready = all.filter((e) => e.ready);
  if (ready.length > 0) return ready;
  return all.filter((e) => e.serving && e.terminating);
}
