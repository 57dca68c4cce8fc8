// Where a proxy subresource goes (upstream: pkg/registry/core/{node,pod,
// service} ResourceLocation). The name segment is `name`, `name:port` or
// `scheme:name:port` (utilnet.SplitSchemeNamePort); each kind turns it into a
// URL: a node's kubelet or another of its ports, a pod IP and port, or one
// ready endpoint of a Service. Pure functions over plain objects.

import { badRequest, StatusError, type KubeObject } from '@kubelab/api';
import type { KubeletAddress } from './env.js';

type Obj = Record<string, any>;

export interface ProxyTarget {
  scheme: 'http' | 'https';
  host: string;
  /** Absent: the scheme's default port. */
  port?: number;
  /** The kubelet's own port: dialed with the apiserver's kubelet client TLS, errors unwrapped. */
  kubelet?: true;
  /** The pod behind a pod or endpoint address, and its node (how kubelab's apiserver reaches it). */
  pod?: { namespace: string; name: string; node: string };
}

/** `name`, `name:port` or `scheme:name:port` (scheme http or https; port may be empty); undefined when malformed. */
export function splitSchemeNamePort(id: string): { scheme: 'http' | 'https' | ''; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (!name || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme: scheme as 'http' | 'https' | '', name, port };
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 });
}

const toPort = (p: string): number | undefined => (/^\d+$/.test(p) && Number(p) > 0 && Number(p) < 65536 ? Number(p) : undefined);

/** nodes/proxy: the kubelet when no port or the kubelet's port is asked, else that port of the node's address over plain transport. */
export function nodeLocation(id: string, kubelet: KubeletAddress): ProxyTarget {
  const s = splitSchemeNamePort(id);
  if (!s) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
  if (s.port === '' || s.port === String(kubelet.port)) return { scheme: 'https', host: kubelet.host, port: kubelet.port, kubelet: true };
  const port = toPort(s.port);
  if (port === undefined) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
  if (!isProxyableIp(kubelet.host)) throw badRequest('address not allowed');
  return { scheme: s.scheme || 'http', host: kubelet.host, port };
}

/** An IPv4 address a proxy may dial: upstream allows global unicast only (no loopback, link-local, multicast, unspecified). */
export function isProxyableIp(ip: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  if (a === 0 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  return true;
}

/** pods/proxy: the pod IP and the asked port, else the first container port declared (no port: the scheme's default). */
export function podLocation(id: string, pod: KubeObject): ProxyTarget {
  const s = splitSchemeNamePort(id);
  if (!s) throw badRequest(`invalid pod request ${JSON.stringify(id)}`);
  const p = pod as Obj;
  let port = s.port;
  if (port === '') {
    const declared = ((p.spec?.containers ?? []) as Obj[]).find((c) => c.ports?.length)?.ports[0]?.containerPort;
    if (declared !== undefined) port = String(declared);
  }
  const ip: string = p.status?.podIP ?? '';
  if (!isProxyableIp(ip)) throw badRequest('address not allowed');
  const target: ProxyTarget = { scheme: s.scheme || 'http', host: ip };
  if (p.spec?.nodeName) target.pod = { namespace: p.metadata?.namespace ?? '', name: p.metadata?.name ?? '', node: p.spec.nodeName };
  if (port !== '') {
    const n = toPort(port);
    if (n === undefined) throw badRequest(`invalid pod request ${JSON.stringify(id)}`);
    target.port = n;
  }
  return target;
}

/**
 * services/proxy: a port number is first mapped to the Service port's name,
 * then the Endpoints subsets are searched for a port of that name with an
 * address; `pick` chooses among candidates (upstream picks at random).
 */
export function serviceLocation(id: string, svc: KubeObject, endpoints: KubeObject | undefined, pick: (n: number) => number = (n) => Math.floor(Math.random() * n)): ProxyTarget {
  const s = splitSchemeNamePort(id);
  if (!s) throw badRequest(`invalid service request ${JSON.stringify(id)}`);
  let portName = s.port;
  if (/^\d+$/.test(s.port)) {
    const n = Number(s.port);
    const declared = ((svc as Obj).spec?.ports ?? []) as Obj[];
    const found = declared.find((p) => p.port === n);
    if (!found) throw serviceUnavailable(`no service port ${n} found for service ${JSON.stringify(s.name)}`);
    portName = found.name ?? '';
  }
  const subsets = ((endpoints as Obj | undefined)?.subsets ?? []) as Obj[];
  if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(s.name)}`);
  const start = pick(subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const ss = subsets[(start + i) % subsets.length]!;
    const addrs = (ss.addresses ?? []) as Obj[];
    if (addrs.length === 0) continue;
    const port = ((ss.ports ?? []) as Obj[]).find((p) => (p.name ?? '') === portName);
    if (!port) continue;
    const addr = addrs[pick(addrs.length)]!;
    const target: ProxyTarget = { scheme: s.scheme || 'http', host: addr.ip, port: port.port };
    if (addr.targetRef?.kind === 'Pod' && addr.nodeName) target.pod = { namespace: addr.targetRef.namespace ?? '', name: addr.targetRef.name ?? '', node: addr.nodeName };
    return target;
  }
  // upstream names the whole id here, unlike the empty-subsets case.
  throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}
