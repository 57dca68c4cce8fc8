// Certificate signing requests (PKCS#10) as the certificates API handles them:
// reading and verifying one synchronously (the apiserver's validation,
// upstream's ParseCSR + CheckSignature), and signing one with the cluster CA
// (the csrsigning controller, upstream's authority.Sign with its
// PermissiveSigningPolicy): subject and subjectAltNames from the request, key
// usages from spec.usages, validity from the requested duration capped by
// the CA's own. Parsing and encoding are @peculiar/x509's and its ASN.1
// schemas'; the signature check is Node's crypto.

import 'reflect-metadata';
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { CertificationRequest } from '@peculiar/asn1-csr';
import { AsnConvert } from '@peculiar/asn1-schema';
import * as x509 from '@peculiar/x509';

/** What a verified request asks for. */
export interface VerifiedCsr {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  publicKey: x509.PublicKey;
  /** The parsed request, for signing. */
  request: x509.Pkcs10CertificateRequest;
  /** Its subjectAltName extension, copied into the certificate. */
  subjectAltName?: x509.SubjectAlternativeNameExtension;
}

/** Signature algorithms by OID: the hash Node verifies with (null: the key decides, Ed25519) and the key family. */
const SIGNATURE_ALGORITHMS: Record<string, { hash: string | null; family: 'RSA' | 'ECDSA' | 'Ed25519' }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', family: 'RSA' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', family: 'RSA' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', family: 'RSA' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', family: 'RSA' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', family: 'ECDSA' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', family: 'ECDSA' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', family: 'ECDSA' },
  '1.3.101.112': { hash: null, family: 'Ed25519' },
};

/**
 * Reads the first PEM block as a CSR and checks its self-signature, without
 * awaiting (validation runs inside the registry's synchronous path). Throws
 * with upstream's messages: `PEM block type must be CERTIFICATE REQUEST`,
 * `x509: ECDSA verification failure`, `crypto/rsa: verification error`.
 */
export function verifyCsr(pem: string): VerifiedCsr {
  const blocks = x509.PemConverter.decodeWithHeaders(pem);
  const first = blocks[0];
  if (!first || first.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  let asn: CertificationRequest;
  let request: x509.Pkcs10CertificateRequest;
  try {
    asn = AsnConvert.parse(first.rawData, CertificationRequest);
    request = new x509.Pkcs10CertificateRequest(first.rawData);
  } catch (e) {
    throw new Error(`x509: malformed certificate request (${(e as Error).message})`, { cause: e });
  }
  const alg = SIGNATURE_ALGORITHMS[asn.signatureAlgorithm.algorithm];
  if (!alg) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  const tbs = Buffer.from(asn.certificationRequestInfoRaw ?? AsnConvert.serialize(asn.certificationRequestInfo));
  let ok: boolean;
  try {
    const key = createPublicKey({ key: Buffer.from(request.publicKey.rawData), format: 'der', type: 'spki' });
    ok = verifySignature(alg.hash, tbs, key, Buffer.from(asn.signature));
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(alg.family === 'RSA' ? 'crypto/rsa: verification error' : alg.family === 'ECDSA' ? 'x509: ECDSA verification failure' : 'x509: Ed25519 verification failure');
  const sanExt = request.extensions.find((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension);
  const names = sanExt?.names.items ?? [];
  const san = (type: string) => names.filter((n) => n.type === type).map((n) => n.value);
  return {
    commonName: request.subjectName.getField('CN')[0] ?? '',
    organizations: request.subjectName.getField('O'),
    dnsNames: san('dns'),
    ipAddresses: san('ip'),
    emailAddresses: san('email'),
    uris: san('url'),
    publicKey: request.publicKey,
    request,
    ...(sanExt ? { subjectAltName: sanExt } : {}),
  };
}

const KEY_USAGE_FLAGS: Record<string, x509.KeyUsageFlags> = {
  signing: x509.KeyUsageFlags.digitalSignature,
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly,
  'decipher only': x509.KeyUsageFlags.decipherOnly,
};

const EXT_KEY_USAGE_OIDS: Record<string, string> = {
  any: '2.5.29.37.0',
  'server auth': x509.ExtendedKeyUsage.serverAuth,
  'client auth': x509.ExtendedKeyUsage.clientAuth,
  'code signing': x509.ExtendedKeyUsage.codeSigning,
  'email protection': x509.ExtendedKeyUsage.emailProtection,
  's/mime': x509.ExtendedKeyUsage.emailProtection,
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: x509.ExtendedKeyUsage.timeStamping,
  'ocsp signing': x509.ExtendedKeyUsage.ocspSigning,
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

/** Upstream keyUsagesFromStrings: the KeyUsage bits and ExtKeyUsage OIDs of spec.usages; an unknown usage is an error. */
export function keyUsagesFromStrings(usages: readonly string[]): { keyUsage: number; extKeyUsages: string[] } {
  let keyUsage = 0;
  const ext = new Set<string>();
  const unknown: string[] = [];
  for (const u of usages) {
    if (u in KEY_USAGE_FLAGS) keyUsage |= KEY_USAGE_FLAGS[u]!;
    else if (u in EXT_KEY_USAGE_OIDS) ext.add(EXT_KEY_USAGE_OIDS[u]!);
    else unknown.push(u);
  }
  if (unknown.length > 0) throw new Error(`unrecognized usage: ${unknown.join(', ')}`);
  return { keyUsage, extKeyUsages: [...ext] };
}

/** Upstream's signer backdates every certificate 5 minutes and calls one shorter than 8 hours short. */
export const SIGNING_BACKDATE_MS = 5 * 60 * 1000;
export const SIGNING_SHORT_MS = 8 * 60 * 60 * 1000;

/**
 * PermissiveSigningPolicy's validity: from now − backdate; until now + ttl,
 * less the backdate for long-lived certificates; never past the signer's own
 * expiry. Throws when the signer has expired.
 */
export function signingValidity(now: Date, ttlMs: number, signerNotAfter: Date): { notBefore: Date; notAfter: Date } {
  const notBefore = new Date(now.getTime() - SIGNING_BACKDATE_MS);
  let notAfter = new Date(now.getTime() + (ttlMs < SIGNING_SHORT_MS ? ttlMs : ttlMs - SIGNING_BACKDATE_MS));
  if (notAfter >= signerNotAfter) notAfter = signerNotAfter;
  if (notBefore >= signerNotAfter) throw new Error(`the signer has expired: NotAfter=${signerNotAfter.toISOString()}`);
  if (now >= signerNotAfter) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${signerNotAfter.toISOString()}`);
  return { notBefore, notAfter };
}
