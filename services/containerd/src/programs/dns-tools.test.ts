// nslookup, host, getent and the clients that dial by name, inside one
// container whose resolver talks to a DNS fixture server on 127.0.0.1 with
// real UDP packets: the output a learner sees in `kubectl exec`.

import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { startDnsFixture, type DnsFixture } from '../testing/dns-fixture.js';
import { startProcess, type StartedProcess } from '../testing/process.js';

const RESOLV = 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 127.0.0.1\noptions ndots:5\n';
const HOSTS = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n10.244.1.5\tclient\n';
const BUSYBOX = 'NAME="BusyBox"\nID=busybox\n';
const DEBIAN = 'NAME="Debian GNU/Linux"\nID=debian\n';
const ZONE = {
  'kubernetes.default.svc.cluster.local': { A: ['10.96.0.1'] },
  'web.default.svc.cluster.local': { A: ['127.0.0.1'] },
  'db.default.svc.cluster.local': { A: ['10.244.1.7', '10.244.2.9'] },
  '1.0.0.127.in-addr.arpa': { PTR: ['kube-dns.kube-system.svc.cluster.local'] },
  '1.0.96.10.in-addr.arpa': { PTR: ['kubernetes.default.svc.cluster.local'] },
};

let fixture: DnsFixture | undefined;
let running: StartedProcess | undefined;
afterEach(async () => {
  running?.p.kill();
  running = undefined;
  await fixture?.close();
  fixture = undefined;
});

async function container(osRelease: string, programs: string[], argv: string[] = ['sleep', '60'], files: Record<string, string> = {}, withDns = true): Promise<StartedProcess> {
  fixture = await startDnsFixture(ZONE);
  running = startProcess(argv, {
    programs,
    files: { '/etc/resolv.conf': RESOLV, '/etc/hosts': HOSTS, '/etc/os-release': osRelease, ...files },
    network: true,
    timeScale: 1,
    ...(withDns ? { dns: fixture.transport } : {}),
  });
  return running;
}

const run = (s: StartedProcess, argv: string[]) => s.p.execSync(argv, 15_000);

describe('busybox nslookup (1.36)', () => {
  it('asks A and AAAA for each search domain of a dotless name and prints each reply', async () => {
    const s = await container(BUSYBOX, ['nslookup']);
    const r = await run(s, ['nslookup', 'web']);
    expect(r.stdout).toBe(
      'Server:\t\t127.0.0.1\nAddress:\t127.0.0.1:53\n\n' +
        'Name:\tweb.default.svc.cluster.local\nAddress: 127.0.0.1\n\n' +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find web.cluster.local: NXDOMAIN\n\n" +
        '\n' +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find web.cluster.local: NXDOMAIN\n\n",
    );
    expect(r.exitCode).toBe(0);
  });

  it('asks a dotted name as it is: the FQDN answers, a partial name is NXDOMAIN', async () => {
    const s = await container(BUSYBOX, ['nslookup']);
    expect((await run(s, ['nslookup', '-type=a', 'kubernetes.default.svc.cluster.local'])).stdout).toBe(
      'Server:\t\t127.0.0.1\nAddress:\t127.0.0.1:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n',
    );
    expect((await run(s, ['nslookup', '-type=a', 'kubernetes.default'])).stdout).toBe("Server:\t\t127.0.0.1\nAddress:\t127.0.0.1:53\n\n** server can't find kubernetes.default: NXDOMAIN\n\n");
    expect(fixture!.questions.slice(-1)).toEqual(['A kubernetes.default']);
  });

  it('without a reachable server: the timeout text', async () => {
    const s = await container(BUSYBOX, ['nslookup'], undefined, {}, false);
    expect(await run(s, ['nslookup', 'web'])).toMatchObject({ stdout: ';; connection timed out; no servers could be reached\n\n', exitCode: 1 });
  });
});

describe('busybox 1.28 nslookup (the Kubernetes docs pin busybox:1.28)', () => {
  it('resolves through the search list and names addresses by their PTR records', async () => {
    const s = await container('NAME="BusyBox"\nVERSION_ID="1.28"\nID=busybox\n', ['nslookup']);
    expect(await run(s, ['nslookup', 'kubernetes.default'])).toMatchObject({
      stdout: 'Server:    127.0.0.1\nAddress 1: 127.0.0.1 kube-dns.kube-system.svc.cluster.local\n\nName:      kubernetes.default\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n',
      exitCode: 0,
    });
    expect(await run(s, ['nslookup', 'nosuch'])).toMatchObject({ stderr: "nslookup: can't resolve 'nosuch'\n", exitCode: 1 });
  });
});

describe('bind tools (dnsutils)', () => {
  it('nslookup applies the search list and prints the first answer', async () => {
    const s = await container(DEBIAN, ['nslookup', 'host']);
    expect(await run(s, ['nslookup', 'kubernetes.default'])).toMatchObject({
      stdout: 'Server:\t\t127.0.0.1\nAddress:\t127.0.0.1#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n',
      exitCode: 0,
    });
    expect(await run(s, ['nslookup', 'nosuch'])).toMatchObject({ stdout: "Server:\t\t127.0.0.1\nAddress:\t127.0.0.1#53\n\n** server can't find nosuch: NXDOMAIN\n\n", exitCode: 1 });
  });

  it('host prints each address, and NXDOMAIN as host does', async () => {
    const s = await container(DEBIAN, ['nslookup', 'host']);
    expect(await run(s, ['host', 'db'])).toMatchObject({ stdout: 'db.default.svc.cluster.local has address 10.244.1.7\ndb.default.svc.cluster.local has address 10.244.2.9\n', exitCode: 0 });
    expect(await run(s, ['host', 'nosuch'])).toMatchObject({ stdout: 'Host nosuch not found: 3(NXDOMAIN)\n', exitCode: 1 });
  });
});

describe('getent hosts (glibc)', () => {
  it('answers from /etc/hosts, then DNS; a missing name exits 2', async () => {
    const s = await container(DEBIAN, ['getent']);
    expect((await run(s, ['getent', 'hosts', 'localhost'])).stdout).toBe('::1             localhost ip6-localhost ip6-loopback\n');
    expect((await run(s, ['getent', 'hosts', 'client'])).stdout).toBe('10.244.1.5      client\n');
    expect((await run(s, ['getent', 'hosts', 'kubernetes.default'])).stdout).toBe('10.96.0.1       kubernetes.default.svc.cluster.local\n');
    expect(await run(s, ['getent', 'hosts', 'nosuch'])).toMatchObject({ stdout: '', exitCode: 2 });
  });
});

describe('clients dial Service names through the resolver', () => {
  it('wget reaches a server by a name DNS answers; an unknown name is a bad address', async () => {
    const s = await container(BUSYBOX, ['nginx', 'wget'], ['nginx', '-g', 'daemon off;'], { '/usr/share/nginx/html/index.html': 'hello from web\n' });
    await waitFor('nginx listening', () => s.ports.has(80), { timeoutMs: 5000 });
    expect(await run(s, ['wget', '-qO-', 'http://web'])).toMatchObject({ stdout: 'hello from web\n', exitCode: 0 });
    expect(await run(s, ['wget', '-qO-', 'http://nosuch'])).toMatchObject({ stderr: "wget: bad address 'nosuch'\n", exitCode: 1 });
  });

  it('curl says it could not resolve the host', async () => {
    const s = await container(DEBIAN, ['curl']);
    const r = await run(s, ['curl', '-sS', 'http://nosuch/']);
    expect(r.stderr).toBe('curl: (6) Could not resolve host: nosuch\n');
    expect(r.exitCode).toBe(6);
  });
});
