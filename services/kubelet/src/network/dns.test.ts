import type { Pod, PodSpec } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { fitLimits, mergeDNSOptions, parseResolvConf, podDNS, podDNSRecorded, podHostnameAndDomain, type DNSSettings } from './dns.js';

const node = parseResolvConf('# node\nnameserver 192.168.1.1\nnameserver 192.168.1.2\nsearch corp.example. lab.example\noptions edns0\n');
const settings: DNSSettings = { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: '/etc/resolv.conf', host: node, nodeIPs: ['172.18.0.3'] };
const pod = (spec: Partial<PodSpec> = {}, ns = 'shop'): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: ns, name: 'web-0', uid: 'u1' }, spec: { containers: [], ...spec } });

describe('pod DNS per dnsPolicy (upstream GetPodDNS)', () => {
  it('parses the node resolv.conf: last search line, trailing dots dropped', () => {
    expect(node).toEqual({ servers: ['192.168.1.1', '192.168.1.2'], searches: ['corp.example', 'lab.example'], options: ['edns0'] });
  });

  it.each([
    ['ClusterFirst', {}, { servers: ['10.96.0.10'], searches: ['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'lab.example'], options: ['ndots:5'] }],
    ['ClusterFirst on the host network falls back to Default', { hostNetwork: true }, node],
    [
      'ClusterFirstWithHostNet',
      { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' as const },
      { servers: ['10.96.0.10'], searches: ['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'lab.example'], options: ['ndots:5'] },
    ],
    ['Default', { dnsPolicy: 'Default' as const }, node],
    [
      'None with dnsConfig',
      { dnsPolicy: 'None' as const, dnsConfig: { nameservers: ['1.1.1.1'], searches: ['a.example'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } },
      { servers: ['1.1.1.1'], searches: ['a.example'], options: ['ndots:2', 'edns0'] },
    ],
    [
      'ClusterFirst merged with dnsConfig: duplicates once, options overridden',
      { dnsConfig: { nameservers: ['10.96.0.10', '8.8.8.8'], searches: ['cluster.local', 'x.example'], options: [{ name: 'ndots', value: '1' }] } },
      { servers: ['10.96.0.10', '8.8.8.8'], searches: ['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'lab.example', 'x.example'], options: ['ndots:1'] },
    ],
  ])('%s', (_name, spec, want) => {
    expect(podDNS(pod(spec), settings).config).toEqual(want);
  });

  it('ClusterFirst without clusterDNS falls back to Default with MissingClusterDNS', () => {
    const r = podDNS(pod(), { ...settings, clusterDNS: [] });
    expect(r.config).toEqual(node);
    expect(r.missingClusterDNS).toBe('kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.');
  });

  it('Default with --resolv-conf="" uses the local nameserver and search "."', () => {
    expect(podDNS(pod({ dnsPolicy: 'Default' }), { ...settings, resolvConf: '', host: { servers: [], searches: [], options: [] } }).config).toEqual({
      servers: ['127.0.0.1'],
      searches: ['.'],
      options: [],
    });
  });

  it('trims to 3 nameservers and records upstream DNSConfigForming events', () => {
    const events: string[] = [];
    const c = podDNSRecorded(
      pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'] } }),
      settings,
      { event: (_r, type, reason, m) => events.push(`${type} ${reason} ${m}`) },
      'node-1',
    );
    expect(c.servers).toEqual(['1.1.1.1', '1.1.1.2', '1.1.1.3']);
    expect(events).toEqual(['Warning DNSConfigForming Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 1.1.1.2 1.1.1.3']);
  });

  it('trims search paths to 32 and to 2048 characters from the end', () => {
    const many = Array.from({ length: 40 }, (_, i) => `d${i}.example`);
    const r = fitLimits({ servers: [], searches: many, options: [] });
    expect(r.config.searches).toEqual(many.slice(0, 32));
    expect(r.warnings).toEqual([`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${many.slice(0, 32).join(' ')}`]);
    const long = Array.from({ length: 10 }, (_, i) => `${String(i).padEnd(250, 'x')}`);
    const fitted = fitLimits({ servers: [], searches: long, options: [] }).config.searches;
    expect(fitted).toEqual(long.slice(0, 8));
    expect(fitted.join(' ').length).toBeLessThanOrEqual(2048);
    expect(fitLimits({ servers: [], searches: ['ok.example', 'y'.repeat(254)], options: [] }).config.searches).toEqual(['ok.example']);
  });

  it('merges options by name', () => {
    expect(mergeDNSOptions(['ndots:5', 'edns0'], [{ name: 'ndots', value: '2' }, { name: 'single-request' }])).toEqual(['ndots:2', 'edns0', 'single-request']);
  });

  it('hostname and subdomain FQDN (upstream GeneratePodHostNameAndDomain)', () => {
    expect(podHostnameAndDomain(pod({ hostname: 'db-0', subdomain: 'db' }), 'cluster.local')).toEqual({ hostname: 'db-0', domain: 'db.shop.svc.cluster.local' });
    const p = pod();
    p.metadata.name = `${'a'.repeat(62)}-bbb`;
    expect(podHostnameAndDomain(p, 'cluster.local')).toEqual({ hostname: 'a'.repeat(62), domain: '' });
  });
});
