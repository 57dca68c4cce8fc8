import { afterEach, describe, expect, it } from 'vitest';
import { hostsLookup, parseResolvConf, ResolveError, resolveHost, searchCandidates } from './resolver.js';
import { startDnsFixture, type DnsFixture } from './testing/dns-fixture.js';

const CLUSTER_FIRST = 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 127.0.0.1\noptions ndots:5 timeout:1 attempts:2\n';
const HOSTS = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n10.244.1.5\tweb-0.web.default.svc.cluster.local\tweb-0\n\n# Entries added by HostAliases.\n10.1.2.3\tfoo.remote\tbar.remote\n';
const files = (f: Record<string, string>) => ({ readFile: async (p: string) => f[p] ?? Promise.reject(new Error('ENOENT')) });

let fixture: DnsFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('resolv.conf and hosts', () => {
  it('reads nameservers (at most 3), the last search line and the options, with glibc defaults', () => {
    expect(
      parseResolvConf('nameserver 1.1.1.1\nnameserver 2.2.2.2\nnameserver 3.3.3.3\nnameserver 4.4.4.4\nsearch a.example\nsearch b.example c.example.\noptions ndots:5 timeout:2 attempts:3\n'),
    ).toEqual({
      nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3'],
      search: ['b.example', 'c.example'],
      ndots: 5,
      timeoutMs: 2000,
      attempts: 3,
    });
    expect(parseResolvConf('')).toEqual({ nameservers: ['127.0.0.1'], search: [], ndots: 1, timeoutMs: 5000, attempts: 2 });
  });

  it('finds any name of a hosts line, case-insensitively', () => {
    expect(hostsLookup(HOSTS, 'WEB-0')).toEqual(['10.244.1.5']);
    expect(hostsLookup(HOSTS, 'bar.remote')).toEqual(['10.1.2.3']);
    expect(hostsLookup(HOSTS, 'web')).toEqual([]);
  });

  it.each([
    ['web', 5, ['web.default.svc.cluster.local', 'web.svc.cluster.local', 'web.cluster.local', 'web']],
    ['kubernetes.default', 5, ['kubernetes.default.default.svc.cluster.local', 'kubernetes.default.svc.cluster.local', 'kubernetes.default.cluster.local', 'kubernetes.default']],
    ['kubernetes.default', 1, ['kubernetes.default', 'kubernetes.default.default.svc.cluster.local', 'kubernetes.default.svc.cluster.local', 'kubernetes.default.cluster.local']],
    ['example.com.', 5, ['example.com']],
  ])('search order of %s with ndots:%i', (name, ndots, want) => {
    expect(searchCandidates(name, { search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], ndots })).toEqual(want);
  });
});

describe('resolveHost against a DNS server (real UDP packets)', () => {
  it('walks the search list until an answer, skipping NXDOMAIN', async () => {
    fixture = await startDnsFixture({ 'kubernetes.default.svc.cluster.local': { A: ['10.96.0.1'] } });
    const r = await resolveHost('kubernetes.default', files({ '/etc/resolv.conf': CLUSTER_FIRST, '/etc/hosts': HOSTS }), fixture.transport);
    expect(r).toEqual({ addresses: ['10.96.0.1'], canonical: 'kubernetes.default.svc.cluster.local' });
    expect(fixture.questions).toEqual(['A kubernetes.default.default.svc.cluster.local', 'A kubernetes.default.svc.cluster.local']);
  });

  it('answers /etc/hosts names without a query', async () => {
    fixture = await startDnsFixture({});
    const r = await resolveHost('foo.remote', files({ '/etc/resolv.conf': CLUSTER_FIRST, '/etc/hosts': HOSTS }), fixture.transport);
    expect(r.addresses).toEqual(['10.1.2.3']);
    expect(fixture.questions).toEqual([]);
  });

  it('a name nowhere is ENOTFOUND after every candidate was asked', async () => {
    fixture = await startDnsFixture({});
    const err = await resolveHost('nosuch', files({ '/etc/resolv.conf': CLUSTER_FIRST }), fixture.transport).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolveError);
    expect((err as ResolveError).code).toBe('ENOTFOUND');
    expect(fixture.questions).toEqual(['A nosuch.default.svc.cluster.local', 'A nosuch.svc.cluster.local', 'A nosuch.cluster.local', 'A nosuch']);
  });

  it('a silent server is EAI_AGAIN after timeout × attempts', async () => {
    fixture = await startDnsFixture({}, { silent: true });
    const t0 = Date.now();
    const err = await resolveHost('web', files({ '/etc/resolv.conf': CLUSTER_FIRST }), fixture.transport).catch((e: unknown) => e);
    expect((err as ResolveError).code).toBe('EAI_AGAIN');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    expect(fixture.questions).toEqual(['A web.default.svc.cluster.local', 'A web.default.svc.cluster.local']);
  });

  it('without a pod network (loopback mode) only /etc/hosts answers', async () => {
    await expect(resolveHost('web-0', files({ '/etc/hosts': HOSTS }), undefined)).resolves.toEqual({ addresses: ['10.244.1.5'], canonical: 'web-0' });
    await expect(resolveHost('web', files({ '/etc/hosts': HOSTS, '/etc/resolv.conf': CLUSTER_FIRST }), undefined)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
