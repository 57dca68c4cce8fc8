import { once } from 'node:events';
import { connect, createServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CertificateAuthority, certificateInfo, createCsr, distinguishedName, parseCsr } from './certificate.js';
import { generateKeyPair } from './keys.js';

describe('distinguishedName', () => {
  it.each([
    ['kube-apiserver', [], 'CN=kube-apiserver'],
    ['system:node:node-1', ['system:nodes'], 'O=system:nodes, CN=system:node:node-1'],
    ['jane', ['dev', 'ops'], 'O=dev, O=ops, CN=jane'],
    ['a,b', [], 'CN=a\\,b'],
  ] as const)('%s %j', (cn, o, want) => expect(distinguishedName(cn, o)).toBe(want));
});

describe('CertificateAuthority', () => {
  it('issues client certificates whose CN and O read back as user and groups', async () => {
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const pair = await ca.issue({ commonName: 'system:node:node-1', organizations: ['system:nodes'], usages: ['client'] }, { algorithm: 'ECDSA-P256' });
    const info = certificateInfo(pair.cert);
    expect(info).toMatchObject({ commonName: 'system:node:node-1', organizations: ['system:nodes'], issuerCommonName: 'kubernetes', isCa: false });
    expect(info.notAfter.getTime() - Date.now()).toBeGreaterThan(364 * 86400_000);
    expect(certificateInfo(ca.certPem)).toMatchObject({ commonName: 'kubernetes', isCa: true });
    expect(pair.key).toContain('-----BEGIN EC PRIVATE KEY-----');
  });

  it('writes RSA keys as PKCS#1, as kubeadm does, and reloads the CA from its PEM files', async () => {
    const ca = await CertificateAuthority.create('kubernetes');
    expect(ca.keyPem).toContain('-----BEGIN RSA PRIVATE KEY-----');
    const again = await CertificateAuthority.fromPem(ca.certPem, ca.keyPem);
    const pair = await again.issue({ commonName: 'x', usages: ['client'] }, { algorithm: 'ECDSA-P256' });
    expect(certificateInfo(pair.cert).issuerCommonName).toBe('kubernetes');
  });

  it('serves mutual TLS that Node verifies against the CA, and refuses another CA', async () => {
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const other = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const server = await ca.issue({ commonName: 'kube-apiserver', usages: ['server'], dnsNames: ['kubernetes', 'localhost'], ipAddresses: ['127.0.0.1'] }, { algorithm: 'ECDSA-P256' });
    expect(certificateInfo(server.cert)).toMatchObject({ dnsNames: ['kubernetes', 'localhost'], ipAddresses: ['127.0.0.1'] });
    const good = await ca.issue({ commonName: 'jane', organizations: ['dev'], usages: ['client'] }, { algorithm: 'ECDSA-P256' });
    const bad = await other.issue({ commonName: 'mallory', usages: ['client'] }, { algorithm: 'ECDSA-P256' });
    const srv = createServer({ cert: server.cert, key: server.key, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (s: TLSSocket) => {
      const peer = s.getPeerCertificate();
      s.end(s.authorized ? `ok ${String(peer.subject.CN)}` : `no ${String(s.authorizationError)}`);
    });
    srv.listen(0, '127.0.0.1');
    await once(srv, 'listening');
    const port = (srv.address() as AddressInfo).port;
    const ask = async (pair: { cert: string; key: string }) => {
      const c = connect({ host: '127.0.0.1', port, ca: ca.certPem, cert: pair.cert, key: pair.key });
      let text = '';
      c.on('data', (d: Buffer) => (text += d.toString()));
      await once(c, 'end');
      return text;
    };
    try {
      expect(await ask(good)).toBe('ok jane');
      expect(await ask(bad)).toMatch(/^no /);
    } finally {
      srv.close();
    }
  });

  it('signs an expired certificate when asked for an issue time in the past', async () => {
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const pair = await ca.issue({ commonName: 'old', usages: ['client'], now: new Date('2020-01-01T00:00:00Z'), validityDays: 1 }, { algorithm: 'ECDSA-P256' });
    expect(certificateInfo(pair.cert).notAfter.toISOString()).toBe('2020-01-02T00:00:00.000Z');
  });
});

describe('CSRs', () => {
  it('round-trip the subject and carry a key the CA can sign', async () => {
    const keys = await generateKeyPair('ECDSA-P256');
    const pem = await createCsr({ commonName: 'system:node:node-2', organizations: ['system:nodes'] }, keys);
    expect(pem).toContain('-----BEGIN CERTIFICATE REQUEST-----');
    const csr = await parseCsr(pem);
    expect(csr).toMatchObject({ commonName: 'system:node:node-2', organizations: ['system:nodes'] });
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const cert = await ca.sign(csr.publicKey, { commonName: csr.commonName, organizations: csr.organizations, usages: ['client'] });
    expect(certificateInfo(cert).commonName).toBe('system:node:node-2');
  });

  it('refuses what is not a CSR', async () => {
    await expect(parseCsr('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n')).rejects.toThrow(/CERTIFICATE REQUEST/);
  });
});
