import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CertificateAuthority, certificateInfo, createCsr } from './certificate.js';
import { keyUsagesFromStrings, signingValidity, verifyCsr } from './csr.js';
import { generateKeyPair, type KeyAlgorithm } from './keys.js';

const kubeletCsr = async (alg: KeyAlgorithm = 'ECDSA-P256') => createCsr({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }, await generateKeyPair(alg));

describe('verifyCsr', () => {
  it.each<KeyAlgorithm>(['ECDSA-P256', 'RSA-2048'])('reads and verifies a %s request', async (alg) => {
    const v = verifyCsr(await kubeletCsr(alg));
    expect(v).toMatchObject({ commonName: 'system:node:node-1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [] });
  });

  it('refuses what is no CSR, and a tampered signature, with upstream texts', async () => {
    expect(() => verifyCsr('hello')).toThrow('PEM block type must be CERTIFICATE REQUEST');
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    expect(() => verifyCsr(ca.certPem)).toThrow('PEM block type must be CERTIFICATE REQUEST');
    const pem = await kubeletCsr();
    const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    der[der.length - 3]! ^= 0xff; // inside the signature
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    expect(() => verifyCsr(tampered)).toThrow('x509: ECDSA verification failure');
    const rsa = Buffer.from((await kubeletCsr('RSA-2048')).replace(/-----[^-]+-----|\s/g, ''), 'base64');
    rsa[rsa.length - 3]! ^= 0xff;
    expect(() => verifyCsr(`-----BEGIN CERTIFICATE REQUEST-----\n${rsa.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`)).toThrow('crypto/rsa: verification error');
  });
});

describe('keyUsagesFromStrings', () => {
  it.each<[string[], number, string[]]>([
    [['digital signature', 'client auth'], 1, ['1.3.6.1.5.5.7.3.2']],
    [['digital signature', 'key encipherment', 'client auth'], 1 | 4, ['1.3.6.1.5.5.7.3.2']],
    [['signing', 'key encipherment', 'server auth'], 1 | 4, ['1.3.6.1.5.5.7.3.1']],
    [['cert sign', 'crl sign', 'any'], 32 | 64, ['2.5.29.37.0']],
    [['email protection', 's/mime'], 0, ['1.3.6.1.5.5.7.3.4']],
  ])('%j', (usages, keyUsage, ext) => {
    expect(keyUsagesFromStrings(usages)).toEqual({ keyUsage, extKeyUsages: ext });
  });
  it('an unknown usage is an error', () => expect(() => keyUsagesFromStrings(['client auth', 'flying'])).toThrow('unrecognized usage: flying'));
});

describe('signingValidity (PermissiveSigningPolicy)', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const caEnd = new Date('2030-01-01T00:00:00Z');
  const H = 3600_000;
  it.each<[string, number, Date, string, string]>([
    ['a year: backdated at both ends', 8760 * H, caEnd, '2025-12-31T23:55:00.000Z', '2026-12-31T23:55:00.000Z'],
    ['an hour is short: the end is not backdated', H, caEnd, '2025-12-31T23:55:00.000Z', '2026-01-01T01:00:00.000Z'],
    ['never past the CA', 8760 * H, new Date('2026-06-01T00:00:00Z'), '2025-12-31T23:55:00.000Z', '2026-06-01T00:00:00.000Z'],
  ])('%s', (_name, ttl, signerEnd, notBefore, notAfter) => {
    const v = signingValidity(now, ttl, signerEnd);
    expect([v.notBefore.toISOString(), v.notAfter.toISOString()]).toEqual([notBefore, notAfter]);
  });
  it('refuses with an expired signer', () => {
    expect(() => signingValidity(now, H, new Date('2025-12-31T23:00:00Z'))).toThrow('the signer has expired: NotAfter=2025-12-31T23:00:00.000Z');
  });
});

describe('CertificateAuthority.signRequest', () => {
  it('issues a certificate with the request subject and key, the requested usages and duration', async () => {
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const keys = await generateKeyPair('ECDSA-P256');
    const csr = verifyCsr(await createCsr({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }, keys));
    const now = new Date();
    const pem = await ca.signRequest(csr, { usages: ['digital signature', 'client auth'], ttlMs: 3600_000, now });
    expect(certificateInfo(pem)).toMatchObject({ commonName: 'system:node:node-1', organizations: ['system:nodes'], issuerCommonName: 'kubernetes', isCa: false });
    const x = new X509Certificate(pem);
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(new Date(x.validTo).getTime()).toBe(Math.floor((now.getTime() + 3600_000) / 1000) * 1000);
    expect(x.checkIssued(new X509Certificate(ca.certPem)) && x.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(x.publicKey.export({ format: 'der', type: 'spki' }).equals(Buffer.from(csr.publicKey.rawData))).toBe(true);
  });
});
