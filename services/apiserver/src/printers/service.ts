// Service, Endpoints and EndpointSlice rows (upstream: printService,
// printEndpoints, printEndpointSlice).

import { since } from './duration.js';
import { formatLabels } from './labels.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';
import { joinHostPort } from '@kubelab/api';

const SHOWN = 3;

function loadBalancerIPs(svc: Obj, wide: boolean): string {
  const ingress: Obj[] = svc.status?.loadBalancer?.ingress ?? [];
  const s = ingress
    .map((i) => i.ip || i.hostname)
    .filter(Boolean)
    .join(',');
  return !wide && s.length > 16 ? `${s.slice(0, 13)}...` : s;
}

export function externalIP(svc: Obj, wide = true): string {
  const external: string[] = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIPs(svc, wide);
      if (external.length) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

export function portsString(ports: Obj[] | undefined): string {
  const s = (ports ?? []).map((p) => (p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',');
  return s || '<none>';
}

export const servicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
    col('Cluster-IP', 'string', 'The virtual IP of the service inside the cluster.'),
    col('External-IP', 'string', 'Addresses the service is reachable at from outside the cluster.'),
    col('Port(s)', 'string', 'The ports the service exposes (port[:nodePort]/protocol).'),
    AGE_COLUMN,
    col('Selector', 'string', 'The labels of the pods traffic is routed to.', 1),
  ],
  cells(svc, now) {
    const clusterIP: string = svc.spec?.clusterIPs?.[0] ?? svc.spec?.clusterIP ?? '<none>';
    return [
      svc.metadata?.name,
      svc.spec?.type ?? '',
      clusterIP || '<none>',
      externalIP(svc, true),
      portsString(svc.spec?.ports),
      since(svc.metadata?.creationTimestamp, now),
      formatLabels(svc.spec?.selector),
    ];
  },
};

/** `ip:port,...` of the first three endpoint addresses, then ` + N more...`. */
export function formatEndpoints(subsets: Obj[] | undefined): string {
  if (!subsets?.length) return '<none>';
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addrs: Obj[] = ss.addresses ?? [];
    const ports: Obj[] = ss.ports ?? [];
    if (ports.length === 0) {
      count += addrs.length;
      for (const a of addrs) {
        if (list.length === SHOWN) {
          more = true;
          break;
        }
        list.push(a.ip);
      }
      continue;
    }
    for (const p of ports) {
      count += addrs.length;
      for (const a of addrs) {
        if (list.length === SHOWN) {
          more = true;
          break;
        }
        list.push(joinHostPort(String(a.ip), p.port));
      }
    }
  }
  const s = list.join(',');
  if (more) return `${s} + ${count - SHOWN} more...`;
  return s || '<none>';
}

export const endpointsPrinter: Printer = {
  columns: [NAME_COLUMN, col('Endpoints', 'string', 'The addresses and ports of the ready endpoints.'), AGE_COLUMN],
  cells(ep, now) {
    return [ep.metadata?.name, formatEndpoints(ep.subsets), since(ep.metadata?.creationTimestamp, now)];
  },
};

function listWithMore(list: string[], more: boolean, count: number): string {
  const s = list.join(',');
  if (more) return `${s} + ${count - SHOWN} more...`;
  return s || '<unset>';
}

export function slicePorts(ports: Obj[] | undefined): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const p of ports ?? []) {
    if (list.length < SHOWN) list.push(p.port != null ? String(p.port) : p.name != null ? String(p.name) : '*');
    else more = true;
    count++;
  }
  return listWithMore(list, more, count);
}

export function sliceEndpoints(endpoints: Obj[] | undefined): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const e of endpoints ?? []) {
    for (const a of (e.addresses ?? []) as string[]) {
      if (list.length < SHOWN) list.push(a);
      else more = true;
      count++;
    }
  }
  return listWithMore(list, more, count);
}

export const endpointSlicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('AddressType', 'string', 'The kind of addresses in this slice: IPv4, IPv6 or FQDN.'),
    col('Ports', 'string', 'The ports of the endpoints.'),
    col('Endpoints', 'string', 'The endpoint addresses.'),
    AGE_COLUMN,
  ],
  cells(s, now) {
    return [s.metadata?.name, s.addressType ?? '', slicePorts(s.ports), sliceEndpoints(s.endpoints), since(s.metadata?.creationTimestamp, now)];
  },
};
