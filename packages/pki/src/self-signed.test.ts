import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateInfo } from './certificate.js';
import { selfSignedCertKey } from './self-signed.js';

describe('selfSignedCertKey (certutil.GenerateSelfSignedCertKey)', () => {
  it('signs <host>@<unix> with its own <host>-ca@<unix> and ships the CA after the leaf', async () => {
    const now = new Date('2026-01-02T03:04:05Z');
    const { cert, key } = await selfSignedCertKey('node-1', { now });
    const [leaf, ca] = cert.split(/(?<=-----END CERTIFICATE-----\n)/);
    expect(certificateInfo(leaf!)).toMatchObject({ commonName: 'node-1@1767323045', issuerCommonName: 'node-1-ca@1767323045', dnsNames: ['node-1'], ipAddresses: [], isCa: false });
    expect(certificateInfo(ca!)).toMatchObject({ commonName: 'node-1-ca@1767323045', isCa: true });
    expect(new X509Certificate(leaf!).verify(new X509Certificate(ca!).publicKey)).toBe(true);
    expect(key).toContain('PRIVATE KEY');
  });

  it('puts an IP host among the addresses, beside the extra names', async () => {
    const { cert } = await selfSignedCertKey('10.0.0.5', { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    expect(certificateInfo(cert)).toMatchObject({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1', '10.0.0.5'] });
  });
});
