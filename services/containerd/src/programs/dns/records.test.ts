import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '@kubelab/api';
import { KUBEADM_COREFILE } from '../../testing/corefile.js';
import { parseCorefile } from './corefile.js';
import { answer, indexCluster, reverseAddress, type Reply } from './records.js';

const k = parseCorefile(KUBEADM_COREFILE).kubernetes!;

const svc = (ns: string, name: string, spec: Service['spec']): Service => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: ns, name }, spec });
const slice = (ns: string, service: string, endpoints: EndpointSlice['endpoints'], ports: EndpointSlice['ports']): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { namespace: ns, name: `${service}-abcde`, labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints,
  ports,
});

const services = [
  svc('default', 'kubernetes', { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] }),
  svc('default', 'web', { clusterIP: '10.96.12.34', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
  svc('kube-system', 'kube-dns', {
    clusterIP: '10.96.0.10',
    ports: [
      { name: 'dns', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
    ],
  }),
  svc('default', 'nginx', { clusterIP: 'None', ports: [{ name: 'web', port: 80, protocol: 'TCP' }] }),
  svc('default', 'empty', { clusterIP: 'None' }),
  svc('default', 'db', { type: 'ExternalName', externalName: 'db.example.com' }),
  svc('default', 'dual', { clusterIP: '10.96.7.7', clusterIPs: ['10.96.7.7', 'fd00:10:96::7'] }),
];
const slices = [
  slice(
    'default',
    'nginx',
    [
      { addresses: ['10.244.1.5'], hostname: 'web-0', conditions: { ready: true } },
      { addresses: ['10.244.2.6'], hostname: 'web-1', conditions: { ready: true } },
      { addresses: ['10.244.2.9'], conditions: { ready: false } },
      { addresses: ['10.244.1.8'] },
    ],
    [{ name: 'web', port: 8080, protocol: 'TCP' }],
  ),
];
const idx = indexCluster(services, slices, ['default', 'kube-system', 'quiet'], 'cluster.local', 1700000000);

const soa = {
  name: 'cluster.local',
  type: 'SOA',
  class: 'IN',
  ttl: 30,
  data: { mname: 'ns.dns.cluster.local', rname: 'hostmaster.cluster.local', serial: 1700000000, refresh: 7200, retry: 1800, expire: 86400, minimum: 30 },
};
const nx: Reply = { rcode: 'NXDOMAIN', answers: [], authority: [soa], additionals: [] } as Reply;
const nodata: Reply = { rcode: 'NOERROR', answers: [], authority: [soa], additionals: [] } as Reply;
const rr = (name: string, type: string, data: unknown) => ({ name, type, class: 'IN', ttl: 30, data });
const ok = (answers: unknown[], additionals: unknown[] = []): Reply => ({ rcode: 'NOERROR', answers, authority: [], additionals }) as Reply;

describe('the kubernetes plugin answers', () => {
  it.each<[string, string, string, Reply | undefined]>([
    ['ClusterIP Service A', 'kubernetes.default.svc.cluster.local', 'A', ok([rr('kubernetes.default.svc.cluster.local', 'A', '10.96.0.1')])],
    ['names are case-insensitive, answered as asked', 'Web.Default.svc.cluster.local.', 'A', ok([rr('Web.Default.svc.cluster.local', 'A', '10.96.12.34')])],
    ['AAAA of an IPv4 Service: NODATA', 'web.default.svc.cluster.local', 'AAAA', nodata],
    ['dual-stack AAAA', 'dual.default.svc.cluster.local', 'AAAA', ok([rr('dual.default.svc.cluster.local', 'AAAA', 'fd00:10:96::7')])],
    ['missing Service: NXDOMAIN with the SOA', 'nothere.default.svc.cluster.local', 'A', nx],
    ['missing namespace', 'web.nons.svc.cluster.local', 'A', nx],
    ['a namespace name exists (NODATA)', 'quiet.svc.cluster.local', 'A', nodata],
    ['svc.cluster.local exists', 'svc.cluster.local', 'A', nodata],
    ['the search path expansion of a full name', 'web.default.svc.cluster.local.default.svc.cluster.local', 'A', nx],
    ['neither svc nor pod', 'web.default.foo.cluster.local', 'A', nx],
    [
      'headless: the ready endpoints',
      'nginx.default.svc.cluster.local',
      'A',
      ok([rr('nginx.default.svc.cluster.local', 'A', '10.244.1.5'), rr('nginx.default.svc.cluster.local', 'A', '10.244.2.6'), rr('nginx.default.svc.cluster.local', 'A', '10.244.1.8')]),
    ],
    ['headless without endpoints: NXDOMAIN', 'empty.default.svc.cluster.local', 'A', nx],
    ['a StatefulSet pod by hostname', 'web-1.nginx.default.svc.cluster.local', 'A', ok([rr('web-1.nginx.default.svc.cluster.local', 'A', '10.244.2.6')])],
    ['an endpoint without hostname by its dashed address', '10-244-1-8.nginx.default.svc.cluster.local', 'A', ok([rr('10-244-1-8.nginx.default.svc.cluster.local', 'A', '10.244.1.8')])],
    ['a not-ready endpoint has no name', 'web-2.nginx.default.svc.cluster.local', 'A', nx],
    [
      'SRV of a named port',
      '_https._tcp.kubernetes.default.svc.cluster.local',
      'SRV',
      ok(
        [rr('_https._tcp.kubernetes.default.svc.cluster.local', 'SRV', { priority: 0, weight: 100, port: 443, target: 'kubernetes.default.svc.cluster.local' })],
        [rr('kubernetes.default.svc.cluster.local', 'A', '10.96.0.1')],
      ),
    ],
    [
      'SRV of the UDP port',
      '_dns._udp.kube-dns.kube-system.svc.cluster.local',
      'SRV',
      ok(
        [rr('_dns._udp.kube-dns.kube-system.svc.cluster.local', 'SRV', { priority: 0, weight: 100, port: 53, target: 'kube-dns.kube-system.svc.cluster.local' })],
        [rr('kube-dns.kube-system.svc.cluster.local', 'A', '10.96.0.10')],
      ),
    ],
    ['SRV of a port the Service lacks', '_dns._tcp.kube-dns.kube-system.svc.cluster.local', 'SRV', nx],
    [
      'SRV of a headless Service: one per endpoint',
      '_web._tcp.nginx.default.svc.cluster.local',
      'SRV',
      ok(
        [
          rr('_web._tcp.nginx.default.svc.cluster.local', 'SRV', { priority: 0, weight: 33, port: 8080, target: 'web-0.nginx.default.svc.cluster.local' }),
          rr('_web._tcp.nginx.default.svc.cluster.local', 'SRV', { priority: 0, weight: 33, port: 8080, target: 'web-1.nginx.default.svc.cluster.local' }),
          rr('_web._tcp.nginx.default.svc.cluster.local', 'SRV', { priority: 0, weight: 33, port: 8080, target: '10-244-1-8.nginx.default.svc.cluster.local' }),
        ],
        [
          rr('web-0.nginx.default.svc.cluster.local', 'A', '10.244.1.5'),
          rr('web-1.nginx.default.svc.cluster.local', 'A', '10.244.2.6'),
          rr('10-244-1-8.nginx.default.svc.cluster.local', 'A', '10.244.1.8'),
        ],
      ),
    ],
    ['ExternalName: CNAME', 'db.default.svc.cluster.local', 'A', ok([rr('db.default.svc.cluster.local', 'CNAME', 'db.example.com')])],
    ['PTR of a ClusterIP', '1.0.96.10.in-addr.arpa', 'PTR', ok([rr('1.0.96.10.in-addr.arpa', 'PTR', 'kubernetes.default.svc.cluster.local')])],
    ['PTR of a headless endpoint', '6.2.244.10.in-addr.arpa.', 'PTR', ok([rr('6.2.244.10.in-addr.arpa', 'PTR', 'web-1.nginx.default.svc.cluster.local')])],
    ['PTR of an unknown address falls through (to forward)', '8.8.8.8.in-addr.arpa', 'PTR', undefined],
    ['a pod name (pods insecure)', '10-244-1-99.default.pod.cluster.local', 'A', ok([rr('10-244-1-99.default.pod.cluster.local', 'A', '10.244.1.99')])],
    ['a pod name that is no address', 'web.default.pod.cluster.local', 'A', nx],
    ['the zone apex SOA', 'cluster.local', 'SOA', ok([soa])],
    ['a name outside the zone is not the plugin’s', 'example.com', 'A', undefined],
  ])('%s: %s %s', (_what, name, type, want) => {
    expect(answer(name, type, idx, k)).toEqual(want);
  });

  it('reads reverse names of whole addresses only', () => {
    expect(reverseAddress('10.0.96.10.in-addr.arpa.')).toBe('10.96.0.10');
    expect(reverseAddress('0.96.10.in-addr.arpa')).toBeUndefined();
    expect(reverseAddress(`${'7.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f'}.ip6.arpa`)).toBe('fd00:10:96::7');
  });

  it('answers PTR for an IPv6 ClusterIP', () => {
    expect(answer('7.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa', 'PTR', idx, k)?.answers).toEqual([
      rr('7.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa', 'PTR', 'dual.default.svc.cluster.local'),
    ]);
  });
});
