// CoreDNS as a container's PID 1, over real UDP and TCP on 127.0.0.1: its
// Corefile, its watch of a stub apiserver (HTTPS, bearer token), answers,
// forwarding to a stub upstream, health, readiness, metrics and lameduck.

import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { TestPki } from '@kubelab/pki/testing';
import { startProcess, type StartedProcess } from '../testing/process.js';
import { KUBEADM_COREFILE } from '../testing/corefile.js';
import { dnsQuery } from './coredns.js';

const TOKEN = 'coredns-token';
let api: Server;
let upstream: UdpSocket;
let s: StartedProcess;
const watchers: ServerResponse[] = [];
const authHeaders: string[] = [];

const services = [
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace: 'default', name: 'kubernetes', resourceVersion: '5' },
    spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] },
  },
];

function udp(name: string, type: dnsPacket.RecordType): Promise<DecodedPacket & { rcode?: string }> {
  const where = s.udpPorts.get(53)!;
  const sock = createSocket('udp4');
  return new Promise((resolve, reject) => {
    sock.once('message', (m) => {
      sock.close();
      resolve(dnsPacket.decode(m));
    });
    sock.once('error', reject);
    sock.send(dnsQuery(name, type, 4242), where.hostPort, where.hostIp);
  });
}

function tcp(name: string, type: dnsPacket.RecordType): Promise<DecodedPacket & { rcode?: string }> {
  const where = s.ports.get(53)!;
  const sock = connect(where.hostPort, where.hostIp);
  let buf = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        sock.destroy();
        resolve(dnsPacket.streamDecode(buf) as DecodedPacket);
      }
    });
    sock.once('error', reject);
    sock.write(dnsPacket.streamEncode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] }));
  });
}

const get = async (port: number, path: string) => {
  const w = s.ports.get(port)!;
  const r = await fetch(`http://${w.hostIp}:${w.hostPort}${path}`);
  return { status: r.status, body: await r.text() };
};

beforeAll(async () => {
  const pki = await TestPki.create();
  const serving = await pki.serving({ dnsNames: ['kubernetes.default.svc'] });
  api = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    authHeaders.push(req.headers.authorization ?? '');
    const url = new URL(req.url ?? '/', 'https://x');
    const list = (items: unknown[]) => res.end(JSON.stringify({ kind: 'List', metadata: { resourceVersion: '10' }, items }));
    if (url.searchParams.get('watch')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (url.pathname === '/api/v1/services') watchers.push(res);
      return;
    }
    if (url.pathname === '/api/v1/services') return list(services);
    if (url.pathname === '/api/v1/namespaces') return list([{ metadata: { name: 'default' } }, { metadata: { name: 'kube-system' } }]);
    if (url.pathname === '/apis/discovery.k8s.io/v1/endpointslices') return list([]);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', () => r()));
  // The upstream nameserver: answers example.com, ignores anything else (a timeout: SERVFAIL).
  upstream = createSocket('udp4');
  upstream.on('message', (m, from) => {
    const q = dnsPacket.decode(m);
    if (q.questions?.[0]?.name !== 'example.com') return;
    upstream.send(
      dnsPacket.encode({ type: 'response', id: q.id, flags: dnsPacket.RECURSION_AVAILABLE, questions: q.questions, answers: [{ name: 'example.com', type: 'A', ttl: 300, data: '93.184.215.14' }] }),
      from.port,
      from.address,
    );
  });
  await new Promise<void>((r) => upstream.bind(0, '127.0.0.1', () => r()));
  const port = (api.address() as { port: number }).port;
  const corefile = KUBEADM_COREFILE.replace('forward . /etc/resolv.conf', `forward . 127.0.0.1:${upstream.address().port}`);
  s = startProcess(['/coredns', '-conf', '/etc/coredns/Corefile'], {
    programs: ['coredns'],
    network: true,
    timeScale: 1,
    env: { KUBELAB_APISERVER: `https://127.0.0.1:${port}` },
    files: { '/etc/coredns/Corefile': corefile, '/var/run/secrets/kubernetes.io/serviceaccount/token': `${TOKEN}\n`, '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt': pki.caPem },
  });
  await waitFor('coredns serving', () => s.log.some((l) => l.includes('CoreDNS-1.11.3')) && s.udpPorts.has(53), { timeoutMs: 10_000 });
});

afterAll(async () => {
  s?.p.kill();
  for (const w of watchers) w.destroy();
  api?.closeAllConnections();
  await new Promise((r) => api?.close(r));
  upstream?.close();
});

describe('coredns', () => {
  it("logs CoreDNS's startup lines", () => {
    expect(s.log.slice(0, 4)).toEqual([
      'stdout: .:53',
      expect.stringMatching(/^stdout: \[INFO\] plugin\/reload: Running configuration SHA512 = [0-9a-f]{128}$/),
      'stdout: CoreDNS-1.11.3',
      'stdout: linux/amd64, go1.21.11, a6338e9',
    ]);
  });

  it('is ready once its watches listed, with the ServiceAccount token', async () => {
    await waitFor('ready', async () => (await get(8181, '/ready')).status === 200, { timeoutMs: 10_000 });
    expect(await get(8080, '/health')).toEqual({ status: 200, body: 'OK' });
    expect(authHeaders).toContain(`Bearer ${TOKEN}`);
  });

  it('answers a Service A record over UDP and TCP, authoritative, TTL 30', async () => {
    for (const r of [await udp('kubernetes.default.svc.cluster.local', 'A'), await tcp('kubernetes.default.svc.cluster.local', 'A')]) {
      expect(r.rcode).toBe('NOERROR');
      expect(r.flag_aa).toBe(true);
      expect(r.answers).toEqual([expect.objectContaining({ name: 'kubernetes.default.svc.cluster.local', type: 'A', ttl: 30, data: '10.96.0.1' })]);
    }
    expect((await udp('kubernetes.default.svc.cluster.local', 'A')).id).toBe(4242);
  });

  it('answers NXDOMAIN with the zone SOA for a missing name', async () => {
    const r = await udp('missing.default.svc.cluster.local', 'A');
    expect(r.rcode).toBe('NXDOMAIN');
    expect(r.authorities).toEqual([expect.objectContaining({ type: 'SOA', name: 'cluster.local', data: expect.objectContaining({ mname: 'ns.dns.cluster.local', minimum: 30 }) })]);
  });

  it('follows the watch: a Service created later resolves', async () => {
    await waitFor('watch open', () => watchers.length > 0, { timeoutMs: 5000 });
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'default', name: 'web', resourceVersion: '11' }, spec: { clusterIP: '10.96.12.34' } };
    for (const w of watchers) w.write(`${JSON.stringify({ type: 'ADDED', object: svc })}\n`);
    await waitFor('web resolves', async () => JSON.stringify((await udp('web.default.svc.cluster.local', 'A')).answers).includes('"10.96.12.34"'), { timeoutMs: 5000 });
  });

  it('forwards names outside the zone upstream, SERVFAIL when it does not answer', async () => {
    const r = await udp('example.com', 'A');
    expect(r.rcode).toBe('NOERROR');
    expect(r.flag_aa).toBe(false);
    expect(r.answers?.[0]).toMatchObject({ name: 'example.com', data: '93.184.215.14' });
    expect((await udp('nowhere.test', 'A')).rcode).toBe('SERVFAIL');
    expect(s.log.some((l) => l.includes('[ERROR] plugin/errors: 2 nowhere.test. A:'))).toBe(true);
  }, 10_000);

  it("counts requests, responses and the cache's hits in CoreDNS's series", async () => {
    await udp('kubernetes.default.svc.cluster.local', 'A');
    const m = (await get(9153, '/metrics')).body;
    expect(m).toMatch(/coredns_dns_requests_total\{server="dns:\/\/:53",zone="\.",view="",proto="udp",family="1",type="A"\} \d+/);
    expect(m).toMatch(/coredns_dns_responses_total\{server="dns:\/\/:53",zone="\.",view="",rcode="NXDOMAIN",plugin="kubernetes"\} 1/);
    expect(m).toMatch(/coredns_cache_hits_total\{server="dns:\/\/:53",type="success",zones="\.",view=""\} [1-9]/);
    expect(m).toMatch(/coredns_cache_entries\{server="dns:\/\/:53",type="denial",zones="\.",view=""\} [1-9]/);
    expect(m).toContain('coredns_build_info{version="1.11.3",revision="a6338e9",goversion="go1.21.11"} 1');
  });

  it('goes into lameduck on TERM: still healthy, then exits 0', async () => {
    s.p.term();
    await waitFor('lameduck', () => s.log.includes('stdout: [INFO] plugin/health: Going into lameduck mode for 5s'), { timeoutMs: 5000 });
    expect(s.log).toContain('stdout: [INFO] SIGTERM: Shutting down servers then terminating');
    expect((await get(8080, '/health')).status).toBe(200);
    expect((await get(8181, '/ready')).status).toBe(503);
    expect((await s.p.exited).exitCode).toBe(0);
  }, 10_000);
});
