// The answers of CoreDNS's kubernetes plugin, as a pure function of the
// objects it watches (Services, EndpointSlices, Namespaces): A/AAAA for
// ClusterIP Services, ready endpoint addresses for headless ones,
// `<hostname>.<svc>.<ns>.svc` names for endpoints, SRV for ports, PTR for
// Service and endpoint addresses, CNAME for ExternalName, `a-b-c-d.<ns>.pod`
// names (`pods insecure`), NXDOMAIN/NODATA with the zone's SOA. No I/O.

import { isIP } from 'node:net';
import type { Answer, SoaAnswer } from 'dns-packet';
import type { EndpointSlice, Service } from '@kubelab/api';
import type { KubernetesSettings } from './corefile.js';

export type Rcode = 'NOERROR' | 'NXDOMAIN';

export interface Reply {
  rcode: Rcode;
  answers: Answer[];
  authority: Answer[];
  additionals: Answer[];
}

/** What the plugin knows, indexed once per change of the watched objects. */
export interface ClusterIndex {
  services: Map<string, Service>;
  /** `<ns>/<service>` → its EndpointSlices (the `kubernetes.io/service-name` label). */
  slices: Map<string, EndpointSlice[]>;
  namespaces: Set<string>;
  /** An address → the names PTR answers with (Service ClusterIPs and endpoint addresses). */
  reverse: Map<string, string[]>;
  /** The SOA serial: CoreDNS's is the time of the last change it saw (seconds). */
  serial: number;
}

const key = (ns: string, name: string) => `${ns}/${name}`;
const isHeadless = (s: Service) => s.spec?.clusterIP === 'None';
const clusterIps = (s: Service): string[] => (s.spec?.clusterIPs?.length ? s.spec.clusterIPs : s.spec?.clusterIP ? [s.spec.clusterIP] : []).filter((ip) => isIP(ip));
/** CoreDNS's endpoint name when the endpoint has no hostname: its address with dashes. */
export const dashed = (ip: string) => ip.replace(/[.:]/g, '-');
/** Ready endpoints (a condition left unset counts as ready, as in CoreDNS's EndpointSlice conversion). */
const readyEndpoints = (slices: readonly EndpointSlice[]) => slices.flatMap((sl) => (sl.endpoints ?? []).filter((e) => e.conditions?.ready !== false).map((e) => ({ e, sl })));

/** Indexes the watched objects for answer(). */
export function indexCluster(services: Iterable<Service>, slices: Iterable<EndpointSlice>, namespaces: Iterable<string>, zone: string, serial: number): ClusterIndex {
  const idx: ClusterIndex = { services: new Map(), slices: new Map(), namespaces: new Set(namespaces), reverse: new Map(), serial };
  const addReverse = (ip: string, name: string) => {
    const list = idx.reverse.get(ip) ?? [];
    if (!list.includes(name)) list.push(name);
    idx.reverse.set(ip, list);
  };
  for (const s of services) {
    const ns = s.metadata?.namespace ?? 'default';
    idx.services.set(key(ns, s.metadata?.name ?? ''), s);
    for (const ip of clusterIps(s)) addReverse(ip, `${s.metadata?.name}.${ns}.svc.${zone}`);
  }
  for (const sl of slices) {
    const svc = sl.metadata?.labels?.['kubernetes.io/service-name'];
    if (!svc) continue;
    const k = key(sl.metadata?.namespace ?? 'default', svc);
    idx.slices.set(k, [...(idx.slices.get(k) ?? []), sl]);
  }
  for (const [k, list] of idx.slices) {
    const [ns, svc] = k.split('/') as [string, string];
    if (!idx.services.has(k)) continue;
    for (const { e } of readyEndpoints(list)) for (const ip of e.addresses) addReverse(ip, `${e.hostname || dashed(ip)}.${svc}.${ns}.svc.${zone}`);
  }
  return idx;
}

/** The zone's SOA, as the kubernetes plugin writes it (refresh 7200, retry 1800, expire 86400, minimum the TTL). */
export function soa(zone: string, k: KubernetesSettings, serial: number): SoaAnswer {
  const apex = zone.replace(/\.$/, '');
  return {
    name: apex,
    type: 'SOA',
    class: 'IN',
    ttl: k.ttl,
    data: { mname: `ns.dns.${apex}`, rname: `hostmaster.${apex}`, serial, refresh: 7200, retry: 1800, expire: 86400, minimum: k.ttl },
  };
}

/** The zone of the plugin's that holds a name, longest first; undefined when none does. */
export function zoneOf(qname: string, zones: readonly string[]): string | undefined {
  const n = qname.toLowerCase().replace(/\.?$/, '.');
  return [...zones].sort((a, b) => b.length - a.length).find((z) => z === '.' || n === z || n.endsWith(`.${z}`));
}

/** An in-addr.arpa / ip6.arpa name's address, when it names a whole one. */
export function reverseAddress(qname: string): string | undefined {
  const n = qname.toLowerCase().replace(/\.$/, '');
  if (n.endsWith('.in-addr.arpa')) {
    const parts = n.slice(0, -'.in-addr.arpa'.length).split('.');
    return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256) ? parts.reverse().join('.') : undefined;
  }
  if (n.endsWith('.ip6.arpa')) {
    const nibbles = n.slice(0, -'.ip6.arpa'.length).split('.');
    if (nibbles.length !== 32 || !nibbles.every((x) => /^[0-9a-f]$/.test(x))) return undefined;
    const hex = nibbles.reverse().join('');
    const groups = hex.match(/.{4}/g)!.map((g) => g.replace(/^0+(?=.)/, ''));
    return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
  }
  return undefined;
}

/**
 * The plugin's reply to one question, or undefined when the name is not the
 * plugin's to answer: outside its zones, or a reverse name it does not know
 * in a zone it falls through for (the next plugin, forward, gets it).
 */
export function answer(qname: string, qtype: string, idx: ClusterIndex, k: KubernetesSettings): Reply | undefined {
  const zone = zoneOf(qname, k.zones);
  if (!zone) return undefined;
  const name = qname.replace(/\.$/, '');
  const apex = zone.replace(/\.$/, '');
  const ttl = k.ttl;
  const nx = (): Reply => ({ rcode: 'NXDOMAIN', answers: [], authority: [soa(zone, k, idx.serial)], additionals: [] });
  const nodata = (): Reply => ({ rcode: 'NOERROR', answers: [], authority: [soa(zone, k, idx.serial)], additionals: [] });
  const found = (answers: Answer[], additionals: Answer[] = []): Reply => (answers.length ? { rcode: 'NOERROR', answers, authority: [], additionals } : nodata());

  if (zone.endsWith('arpa.')) {
    const ip = reverseAddress(name);
    const names = ip === undefined ? undefined : idx.reverse.get(ip);
    if (names && (qtype === 'PTR' || qtype === 'ANY')) return found(names.map((data) => ({ name, type: 'PTR', class: 'IN', ttl, data })));
    if (names) return nodata();
    return k.fallthrough?.some((f) => f === '.' || f === zone) ? undefined : nx();
  }

  const lower = name.toLowerCase();
  if (lower === apex) {
    if (qtype === 'SOA') return found([soa(zone, k, idx.serial)]);
    if (qtype === 'NS') return found([{ name, type: 'NS', class: 'IN', ttl, data: `ns.dns.${apex}` }]);
    return nodata();
  }
  // CoreDNS answers the schema version of the DNS specification it follows.
  if (lower === `dns-version.${apex}`) return qtype === 'TXT' ? found([{ name, type: 'TXT', class: 'IN', ttl, data: '1.1.0' }]) : nodata();
  const segs = lower.slice(0, -apex.length - 1).split('.');
  const kind = segs.pop();
  if (kind === 'pod') return pod(name, qtype, segs, idx, k, found, nodata, nx);
  if (kind !== 'svc') return nx();
  if (segs.length === 0) return nodata();
  const ns = segs.pop()!;
  if (segs.length === 0) return idx.namespaces.has(ns) || [...idx.services.keys()].some((s) => s.startsWith(`${ns}/`)) ? nodata() : nx();
  const svcName = segs.pop()!;
  const svc = idx.services.get(key(ns, svcName));
  if (!svc) return nx();
  const svcFqdn = `${svcName}.${ns}.svc.${apex}`;
  const endpoints = readyEndpoints(idx.slices.get(key(ns, svcName)) ?? []);
  const addrRecords = (owner: string, ips: readonly string[], type: string): Answer[] =>
    ips.filter((ip) => (type === 'A' ? isIP(ip) === 4 : type === 'AAAA' ? isIP(ip) === 6 : false)).map((ip) => ({ name: owner, type: type as 'A', class: 'IN' as const, ttl, data: ip }));

  if (svc.spec?.type === 'ExternalName') {
    if (segs.length) return nx();
    const target = (svc.spec.externalName ?? '').replace(/\.$/, '');
    return found([{ name, type: 'CNAME', class: 'IN', ttl, data: target }]);
  }

  // <endpoint>.<svc>.<ns>.svc: an endpoint's hostname or dashed address.
  if (segs.length === 1 && !segs[0]!.startsWith('_')) {
    const id = segs[0]!;
    const ips = endpoints.flatMap(({ e }) => e.addresses.filter((ip) => (e.hostname || dashed(ip)) === id));
    if (!ips.length) return nx();
    return found(qtype === 'A' || qtype === 'AAAA' ? addrRecords(name, ips, qtype) : []);
  }

  // _<port>._<proto>.<svc>.<ns>.svc (or the service's own name): SRV.
  let portName: string | undefined;
  let proto: string | undefined;
  if (segs.length === 2 && segs.every((s) => s.startsWith('_'))) {
    portName = segs[0]!.slice(1);
    proto = segs[1]!.slice(1);
  } else if (segs.length) return nx();
  const matches = (p: { name?: string; protocol?: string }) => portName === undefined || ((p.name ?? '').toLowerCase() === portName && (p.protocol ?? 'TCP').toLowerCase() === proto);

  if (!isHeadless(svc)) {
    const ports = (svc.spec?.ports ?? []).filter(matches);
    if (portName !== undefined && !ports.length) return nx();
    if (qtype === 'SRV') {
      const weight = Math.floor(100 / Math.max(ports.length, 1));
      const add = addrRecords(svcFqdn, clusterIps(svc), 'A').concat(addrRecords(svcFqdn, clusterIps(svc), 'AAAA'));
      return found(
        ports.map((p) => ({ name, type: 'SRV', class: 'IN', ttl, data: { priority: 0, weight, port: p.port, target: svcFqdn } })),
        add,
      );
    }
    return found(addrRecords(name, clusterIps(svc), qtype));
  }

  // Headless: the ready endpoints themselves.
  const targets = endpoints.flatMap(({ e, sl }) => e.addresses.map((ip) => ({ ip, host: `${e.hostname || dashed(ip)}.${svcFqdn}`, ports: (sl.ports ?? []).filter(matches) })));
  if (portName !== undefined && !targets.some((t) => t.ports.length)) return nx();
  if (!targets.length) return nx();
  if (qtype === 'SRV') {
    const srv = targets.flatMap((t) => t.ports.map((p) => ({ t, p })));
    const weight = Math.floor(100 / Math.max(srv.length, 1));
    return found(
      srv.map(({ t, p }) => ({ name, type: 'SRV', class: 'IN', ttl, data: { priority: 0, weight, port: p.port ?? 0, target: t.host } })),
      srv.flatMap(({ t }) => addrRecords(t.host, [t.ip], isIP(t.ip) === 6 ? 'AAAA' : 'A')),
    );
  }
  if (portName !== undefined) return nodata();
  return found(
    addrRecords(
      name,
      targets.map((t) => t.ip),
      qtype,
    ),
  );
}

/** `a-b-c-d.<ns>.pod.<zone>`: with `pods insecure` the address the name spells, whether or not such a pod exists. */
function pod(name: string, qtype: string, segs: string[], idx: ClusterIndex, k: KubernetesSettings, found: (a: Answer[]) => Reply, nodata: () => Reply, nx: () => Reply): Reply {
  if (k.pods === 'disabled') return nx();
  if (segs.length === 0) return nodata();
  if (segs.length === 1) return idx.namespaces.has(segs[0]!) ? nodata() : nx();
  if (segs.length !== 2) return nx();
  const id = segs[0]!;
  const v4 = id.replace(/-/g, '.');
  const ip = isIP(v4) === 4 ? v4 : isIP(id.replace(/-/g, ':')) === 6 ? id.replace(/-/g, ':') : undefined;
  if (!ip) return nx();
  const type = isIP(ip) === 4 ? 'A' : 'AAAA';
  return found(qtype === type ? [{ name, type, class: 'IN', ttl: k.ttl, data: ip } as Answer] : []);
}
