import { once } from 'node:events';
import { connect, createServer, type PeerCertificate, type TLSSocket } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestPki } from '@kubelab/pki/testing';
import { rememberPeerCertificates } from './peer-certificate.js';

describe('rememberPeerCertificates', () => {
  let pki: TestPki;
  beforeAll(async () => {
    pki = await TestPki.create('kubernetes');
    rememberPeerCertificates();
  });

  it("reads a connection's verified client certificate once and keeps it; a connection without one gets {} each time", async () => {
    const serving = await pki.serving({ commonName: 'localhost' });
    const alice = await pki.client({ commonName: 'alice', organizations: ['devs'] });
    const seen: Array<[PeerCertificate, PeerCertificate, boolean]> = [];
    const server = createServer({ cert: serving.cert, key: serving.key, ca: pki.caPem, requestCert: true, rejectUnauthorized: false }, (s: TLSSocket) => {
      seen.push([s.getPeerCertificate(), s.getPeerCertificate(), s.authorized]);
      s.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    const dial = async (opts: { cert?: string; key?: string }) => {
      const c = connect({ host: '127.0.0.1', port, ca: pki.caPem, servername: 'localhost', ...opts });
      await once(c, 'close');
    };
    try {
      await dial({ cert: alice.cert, key: alice.key });
      await dial({});
    } finally {
      server.close();
    }
    const [withCert, without] = seen;
    expect(withCert![2]).toBe(true);
    expect(withCert![0].subject).toMatchObject({ CN: 'alice', O: 'devs' });
    expect(withCert![1]).toBe(withCert![0]);
    expect(without![0]).toEqual({});
    expect(without![2]).toBe(false);
  });
});
