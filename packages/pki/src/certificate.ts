// Certificates as kubeadm issues them (upstream: k8s.io/client-go/util/cert
// and kubeadm's pkiutil): a self-signed CA, and leaf certificates for clients
// (CN = user, O = groups) and servers (SANs), signed with the CA's key.
// Encoding is @peculiar/x509's; kubelab only decides what goes in.

// @peculiar/x509's dependency injection (tsyringe) needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import { randomBytes, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { keyUsagesFromStrings, signingValidity, type VerifiedCsr } from './csr.js';
import { generateKeyPair, keyPairFromPem, privateKeyToPem, signingAlgorithm, type KeyAlgorithm } from './keys.js';

// @peculiar/x509 is typed against the DOM's WebCrypto; Node's is the same API under other type names.
type X509Crypto = Parameters<typeof x509.cryptoProvider.set>[0];
type X509KeyPair = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'];
type X509PrivateKey = X509KeyPair['privateKey'];
const asX509Keys = (k: webcrypto.CryptoKeyPair) => k as unknown as X509KeyPair;
const asX509Key = (k: webcrypto.CryptoKey) => k as unknown as X509PrivateKey;

x509.cryptoProvider.set(webcrypto as unknown as X509Crypto);

const DAY_MS = 24 * 60 * 60 * 1000;
/** kubeadm: CAs live ten years, leaves one. */
export const CA_VALIDITY_DAYS = 3650;
export const LEAF_VALIDITY_DAYS = 365;
/** Backdating absorbs clock skew between the machines (upstream's CertificateBackdate). */
const BACKDATE_MS = 5 * 60 * 1000;

export type Usage = 'client' | 'server';

export interface CertificateSpec {
  commonName: string;
  /** The subject's O entries: a client certificate's groups. */
  organizations?: readonly string[];
  usages: readonly Usage[];
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  /** Default LEAF_VALIDITY_DAYS. */
  validityDays?: number;
  /** Issue time (default now); tests use it for expired certificates. */
  now?: Date;
}

/** A certificate and its private key, both PEM. */
export interface CertKeyPem {
  cert: string;
  key: string;
}

function escapeRdn(v: string): string {
  // RFC 4514 specials; a ':' in system:node:x needs none.
  return v.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`).replace(/^([ #])/, '\\$1');
}

/** The subject's distinguished name: CN first, then one O per group, as Go's pkix.Name prints. */
export function distinguishedName(commonName: string, organizations: readonly string[] = []): string {
  return [...organizations.map((o) => `O=${escapeRdn(o)}`), `CN=${escapeRdn(commonName)}`].join(', ');
}

function serialNumber(): string {
  const b = randomBytes(16);
  b[0]! &= 0x7f; // positive, as RFC 5280 asks
  return b.toString('hex');
}

function validity(spec: { validityDays?: number; now?: Date }, days: number): { notBefore: Date; notAfter: Date } {
  const now = spec.now ?? new Date();
  return { notBefore: new Date(now.getTime() - BACKDATE_MS), notAfter: new Date(now.getTime() + (spec.validityDays ?? days) * DAY_MS) };
}

function leafExtensions(spec: CertificateSpec): x509.Extension[] {
  const ext: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension(spec.usages.map((u) => (u === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth))),
  ];
  const names = [...(spec.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })), ...(spec.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value }))];
  if (names.length > 0) ext.push(new x509.SubjectAlternativeNameExtension(names));
  return ext;
}

export class CertificateAuthority {
  private constructor(
    readonly certPem: string,
    readonly keyPem: string,
    private readonly cert: x509.X509Certificate,
    private readonly keys: webcrypto.CryptoKeyPair,
  ) {}

  /** A self-signed CA (kubeadm's `kubernetes`, `etcd-ca`, `front-proxy-ca`). */
  static async create(commonName: string, opts: { algorithm?: KeyAlgorithm; validityDays?: number; now?: Date } = {}): Promise<CertificateAuthority> {
    const keys = await generateKeyPair(opts.algorithm ?? 'RSA-2048');
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serialNumber(),
      name: distinguishedName(commonName),
      ...validity(opts, CA_VALIDITY_DAYS),
      keys: asX509Keys(keys),
      signingAlgorithm: signingAlgorithm(keys.privateKey),
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyCertSign, true),
        await x509.SubjectKeyIdentifierExtension.create(asX509Key(keys.publicKey)),
      ],
    });
    return new CertificateAuthority(cert.toString('pem'), await privateKeyToPem(keys.privateKey), cert, keys);
  }

  /** A CA from its files (`ca.crt`, `ca.key`). */
  static async fromPem(certPem: string, keyPem: string): Promise<CertificateAuthority> {
    const cert = new x509.X509Certificate(certPem);
    const keys = await keyPairFromPem(keyPem);
    return new CertificateAuthority(cert.toString('pem'), keyPem, cert, keys);
  }

  /** Signs a certificate for `publicKey` (a CSR's key, or a fresh one). */
  async sign(publicKey: webcrypto.CryptoKey | x509.PublicKey, spec: CertificateSpec): Promise<string> {
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject: distinguishedName(spec.commonName, spec.organizations),
      issuer: this.cert.subject,
      ...validity(spec, LEAF_VALIDITY_DAYS),
      publicKey: publicKey instanceof x509.PublicKey ? publicKey : asX509Key(publicKey),
      signingKey: asX509Key(this.keys.privateKey),
      signingAlgorithm: signingAlgorithm(this.keys.privateKey),
      extensions: [...leafExtensions(spec), await x509.AuthorityKeyIdentifierExtension.create(asX509Key(this.keys.publicKey))],
    });
    return cert.toString('pem');
  }

  /**
   * Signs a verified CSR as the csrsigning controller does: the request's
   * subject and subjectAltNames, the key usages of spec.usages, valid for
   * `ttlMs` (backdated; capped by this CA's expiry).
   */
  async signRequest(csr: VerifiedCsr, opts: { usages: readonly string[]; ttlMs: number; now?: Date }): Promise<string> {
    const { keyUsage, extKeyUsages } = keyUsagesFromStrings(opts.usages);
    const ext: x509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
    if (keyUsage) ext.push(new x509.KeyUsagesExtension(keyUsage, true));
    if (extKeyUsages.length) ext.push(new x509.ExtendedKeyUsageExtension(extKeyUsages));
    if (csr.subjectAltName) ext.push(new x509.SubjectAlternativeNameExtension(csr.subjectAltName.names.toJSON()));
    ext.push(await x509.AuthorityKeyIdentifierExtension.create(asX509Key(this.keys.publicKey)));
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject: csr.request.subjectName,
      issuer: this.cert.subject,
      ...signingValidity(opts.now ?? new Date(), opts.ttlMs, this.cert.notAfter),
      publicKey: csr.publicKey,
      signingKey: asX509Key(this.keys.privateKey),
      signingAlgorithm: signingAlgorithm(this.keys.privateKey),
      extensions: ext,
    });
    return cert.toString('pem');
  }

  /** When this CA's own certificate expires (signed certificates never outlive it). */
  get notAfter(): Date {
    return this.cert.notAfter;
  }

  /** A fresh key and a certificate for it. */
  async issue(spec: CertificateSpec, opts: { algorithm?: KeyAlgorithm } = {}): Promise<CertKeyPem> {
    const keys = await generateKeyPair(opts.algorithm ?? 'RSA-2048');
    return { cert: await this.sign(keys.publicKey, spec), key: await privateKeyToPem(keys.privateKey) };
  }
}

/** What a certificate says, read with Node's own X.509 parser. */
export interface CertificateInfo {
  commonName: string;
  organizations: string[];
  issuerCommonName: string;
  notBefore: Date;
  notAfter: Date;
  dnsNames: string[];
  ipAddresses: string[];
  isCa: boolean;
}

function rdnValues(dn: string, attr: string): string[] {
  // Node prints one "ATTR=value" per line.
  return dn
    .split('\n')
    .filter((l) => l.startsWith(`${attr}=`))
    .map((l) => l.slice(attr.length + 1));
}

export function certificateInfo(pem: string): CertificateInfo {
  const c = new NodeX509(pem);
  const sans = (c.subjectAltName ?? '').split(', ').filter(Boolean);
  return {
    commonName: rdnValues(c.subject, 'CN')[0] ?? '',
    organizations: rdnValues(c.subject, 'O'),
    issuerCommonName: rdnValues(c.issuer, 'CN')[0] ?? '',
    notBefore: new Date(c.validFrom),
    notAfter: new Date(c.validTo),
    dnsNames: sans.filter((s) => s.startsWith('DNS:')).map((s) => s.slice(4)),
    ipAddresses: sans.filter((s) => s.startsWith('IP Address:')).map((s) => s.slice(11)),
    isCa: c.ca,
  };
}

/** A certificate signing request (PKCS#10, PEM "CERTIFICATE REQUEST"), as a kubelet sends in TLS bootstrap. */
export async function createCsr(spec: { commonName: string; organizations?: readonly string[] }, keys: webcrypto.CryptoKeyPair): Promise<string> {
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: distinguishedName(spec.commonName, spec.organizations),
    keys: asX509Keys(keys),
    signingAlgorithm: signingAlgorithm(keys.privateKey),
  });
  return csr.toString('pem');
}

export interface CsrInfo {
  commonName: string;
  organizations: string[];
  publicKey: x509.PublicKey;
}

/** Reads and verifies (self-signature) a PEM CSR; throws with a message for bad input. */
export async function parseCsr(pem: string): Promise<CsrInfo> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem);
  } catch (e) {
    throw new Error(`PEM block type must be CERTIFICATE REQUEST: ${(e as Error).message}`, { cause: e });
  }
  if (!(await csr.verify())) throw new Error('x509: CSR signature does not verify');
  const name = csr.subjectName;
  return {
    commonName: name.getField('CN')[0] ?? '',
    organizations: name.getField('O'),
    publicKey: csr.publicKey,
  };
}

export { keyPairFromPem };
