// EndpointSlice → endpoints per service port (upstream pkg/proxy/endpointslicecache.go
// and CategorizeEndpoints): which backends a service port may send traffic to.

import { LABEL_SERVICE_NAME, type EndpointSlice } from '@kubelab/api';
import { isIPv4, servicePortName } from './serviceport.js';
import type { EndpointInfo, ServicePortInfo } from './types.js';

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
