// The TLS server name a component's client sends, as Go's crypto/tls does:
// none for an address target (checked against the certificate's IP SANs),
// the host name otherwise. A TLS front records each ClientHello's server
// name and hands the bytes on to a plain gRPC server.
import * as net from 'node:net';
import * as tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { apiserverProto, type ResourceServiceHandlers } from '@kubelab/proto';
import type { CertKeyPem } from '@kubelab/pki';
import { TestPki } from '@kubelab/pki/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientset } from '../clientset/clientset.js';
import { grpcCodeOf } from './errors.js';
import { withoutAddressServerName } from './credentials.js';

const POD = Buffer.from('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"}}');

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('withoutAddressServerName', () => {
  it.each([
    ['127.0.0.1', undefined],
    ['::1', undefined],
    ['10.96.0.1', undefined],
    ['localhost', 'localhost'],
    ['kubernetes.default.svc', 'kubernetes.default.svc'],
    [undefined, undefined],
  ])('servername %s → %s', (servername, want) => {
    const options: tls.ConnectionOptions = { host: '127.0.0.1', ...(servername !== undefined ? { servername } : {}) };
    withoutAddressServerName(options);
    expect(options.servername).toBe(want);
    expect(options.host).toBe('127.0.0.1');
  });
});

/** A plain gRPC server answering Get, behind a TLS front that records the server name of each handshake. */
async function tlsFront(serving: CertKeyPem): Promise<{ port: number; serverNames: Array<string | false | null> }> {
  const server = new grpc.Server();
  server.addService(apiserverProto().kubelab.apiserver.v1.ResourceService.service, { Get: (_call, cb) => cb(null, { json: POD }) } as Partial<ResourceServiceHandlers> as ResourceServiceHandlers);
  const backend = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  cleanups.push(() => void server.forceShutdown());

  const serverNames: Array<string | false | null> = [];
  const front = tls.createServer({ cert: serving.cert, key: serving.key, ALPNProtocols: ['h2'] }, (socket) => {
    serverNames.push(socket.servername);
    const up = net.connect(backend, '127.0.0.1');
    socket.pipe(up).pipe(socket);
    socket.on('error', () => up.destroy());
    up.on('error', () => socket.destroy());
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  cleanups.push(() => void front.close());
  return { port: (front.address() as net.AddressInfo).port, serverNames };
}

describe('the TLS server name on a real connection', () => {
  const warnings: string[] = [];
  const onWarning = (w: Error & { code?: string }) => warnings.push(w.code ?? w.name);

  it('sends none for an address (no DEP0123) and checks the address against the IP SANs; sends a host name', async () => {
    process.on('warning', onWarning);
    cleanups.push(() => void process.off('warning', onWarning));
    const pki = await TestPki.create();
    const front = await tlsFront(await pki.serving()); // SANs localhost, 127.0.0.1
    const tlsConfig = { caPem: pki.caPem, certPem: '', keyPem: '' };

    for (const host of ['127.0.0.1', 'localhost']) {
      const cs = createClientset({ address: `${host}:${front.port}`, tls: tlsConfig, healthCheck: false });
      cleanups.push(() => cs.close());
      expect((await cs.core.pods('default').get('web')).metadata?.name).toBe('web');
    }
    expect(front.serverNames).toEqual([false, 'localhost']);
    expect(warnings).not.toContain('DEP0123');
  });

  it("refuses an address that is not among the certificate's IP SANs", async () => {
    const pki = await TestPki.create();
    const front = await tlsFront(await pki.ca.issue({ commonName: 'kube-apiserver', usages: ['server'], dnsNames: ['kubernetes'] }, { algorithm: 'ECDSA-P256' }));
    const cs = createClientset({ address: `127.0.0.1:${front.port}`, tls: { caPem: pki.caPem, certPem: '', keyPem: '' }, healthCheck: false, timeoutMs: 3_000, readRetries: { attempts: 1 } });
    cleanups.push(() => cs.close());
    const err = await cs.core
      .pods('default')
      .get('web')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(grpcCodeOf(err)).toBe(grpc.status.UNAVAILABLE);
    expect(String((err as Error).message)).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list/);
  });
});
