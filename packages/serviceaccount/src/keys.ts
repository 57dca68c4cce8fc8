// Service account keys as kube-apiserver and kube-controller-manager read
// them (upstream k8s.io/client-go/util/keyutil and pkg/serviceaccount's
// keyIDFromPublicKey): PEM files that may hold several keys, the signing
// algorithm a key implies, and the `kid` header every token carries.

import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

/** A private key ready to sign tokens. */
export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** RS256 for RSA keys, ES256/ES384/ES512 for the NIST curves (upstream's signerFromRSAPrivateKey / signerFromECDSAPrivateKey). */
  readonly alg: 'RS256' | 'ES256' | 'ES384' | 'ES512';
  /** The `kid` header: base64url(SHA-256(PKIX DER of the public key)). */
  readonly keyId: string;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM blocks of a file, with their type (`PUBLIC KEY`, `RSA PRIVATE KEY`, `CERTIFICATE`...). */
function pemBlocks(pem: string): { type: string; text: string }[] {
  return [...pem.matchAll(BLOCK)].map((m) => ({ type: m[1]!, text: m[0] }));
}

/** The `kid` upstream derives from a public key. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

export function algOf(key: KeyObject): SigningKey['alg'] {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
  }
  throw new Error(`unsupported key type: ${key.asymmetricKeyType ?? 'unknown'}${key.asymmetricKeyDetails?.namedCurve ? ` (${key.asymmetricKeyDetails.namedCurve})` : ''}`);
}

/** The signing key of `--service-account-signing-key-file` / `--service-account-private-key-file`: the first private key of the PEM. */
export function parseSigningKey(pem: string): SigningKey {
  const block = pemBlocks(pem).find((b) => b.type.endsWith('PRIVATE KEY'));
  if (!block) throw new Error('data does not contain a valid RSA or ECDSA private key');
  const privateKey = createPrivateKey(block.text);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, alg: algOf(privateKey), keyId: keyIdOf(publicKey) };
}

/**
 * The verification keys of `--service-account-key-file`: every public key,
 * private key (its public half) and certificate (its key) in the PEM, as
 * upstream's keyutil.ParsePublicKeysPEM accepts.
 */
export function parsePublicKeys(pem: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const b of pemBlocks(pem)) {
    if (b.type === 'CERTIFICATE') keys.push(new X509Certificate(b.text).publicKey);
    else if (b.type.endsWith('PRIVATE KEY')) keys.push(createPublicKey(createPrivateKey(b.text)));
    else if (b.type.endsWith('PUBLIC KEY')) keys.push(createPublicKey(b.text));
  }
  for (const k of keys) algOf(k);
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}
