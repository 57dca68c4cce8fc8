// Private keys as kubeadm writes them (its `encryptionAlgorithm`: RSA-2048 by
// default, ECDSA-P256 on request): generated with WebCrypto, stored as PEM in
// the traditional formats kubeadm uses (PKCS#1 "RSA PRIVATE KEY", SEC1 "EC
// PRIVATE KEY"), read back from any PEM form Node understands.

import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';

export type KeyAlgorithm = 'RSA-2048' | 'RSA-3072' | 'RSA-4096' | 'ECDSA-P256';

export const KEY_ALGORITHMS: readonly KeyAlgorithm[] = ['RSA-2048', 'RSA-3072', 'RSA-4096', 'ECDSA-P256'];

const subtle = webcrypto.subtle;

/** The WebCrypto parameters for one algorithm (signing with SHA-256, as Go's x509 does). */
export function keyParams(alg: KeyAlgorithm): webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams {
  if (alg === 'ECDSA-P256') return { name: 'ECDSA', namedCurve: 'P-256' };
  return { name: 'RSASSA-PKCS1-v1_5', modulusLength: Number(alg.slice(4)), publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
}

/** The signature algorithm a certificate signed by a key of this kind carries. */
export function signingAlgorithm(key: webcrypto.CryptoKey): webcrypto.Algorithm | webcrypto.EcdsaParams {
  return key.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5' };
}

export async function generateKeyPair(alg: KeyAlgorithm): Promise<webcrypto.CryptoKeyPair> {
  return (await subtle.generateKey(keyParams(alg), true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

/** PEM of a private key in kubeadm's form: PKCS#1 for RSA, SEC1 for EC. */
export async function privateKeyToPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await subtle.exportKey('pkcs8', key));
  const k = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  return k.export({ format: 'pem', type: k.asymmetricKeyType === 'rsa' ? 'pkcs1' : 'sec1' }) as string;
}

/** PEM ("PUBLIC KEY", PKIX) of a public key, as kubeadm's sa.pub. */
export async function publicKeyToPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await subtle.exportKey('spki', key));
  return createPublicKey({ key: der, format: 'der', type: 'spki' }).export({ format: 'pem', type: 'spki' }) as string;
}

/** Reads a PEM private key (PKCS#1, SEC1 or PKCS#8) into a WebCrypto key pair for signing. */
export async function keyPairFromPem(pem: string): Promise<webcrypto.CryptoKeyPair> {
  const k = createPrivateKey(pem);
  const pkcs8 = k.export({ format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(k).export({ format: 'der', type: 'spki' });
  const params = k.asymmetricKeyType === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : k.asymmetricKeyType === 'ec' ? { name: 'ECDSA', namedCurve: 'P-256' } : undefined;
  if (!params) throw new Error(`unsupported private key type ${k.asymmetricKeyType ?? 'unknown'} (want RSA or ECDSA P-256)`);
  const privateKey = await subtle.importKey('pkcs8', pkcs8, params, true, ['sign']);
  const publicKey = await subtle.importKey('spki', spki, params, true, ['verify']);
  return { privateKey, publicKey };
}
