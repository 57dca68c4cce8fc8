import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundClaims, legacyClaims, splitServiceAccountUsername } from './claims.js';
import { signToken, unverifiedClaims, verifySignature, SIGNATURE_ERROR } from './jwt.js';
import { keyIdOf, parsePublicKeys, parseSigningKey } from './keys.js';

function rsaPem(): { key: string; pub: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { key: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string, pub: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

const a = rsaPem();
const b = rsaPem();

describe('service account keys', () => {
  it('reads kubeadm sa.key (PKCS#1 RSA) as an RS256 key with a kid from its public half', () => {
    const k = parseSigningKey(a.key);
    expect(k.alg).toBe('RS256');
    expect(k.keyId).toBe(keyIdOf(parsePublicKeys(a.pub)[0]!));
    expect(k.keyId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('reads every key of a --service-account-key-file, public or private', () => {
    expect(parsePublicKeys(`${a.pub}\n${b.key}`).map(keyIdOf)).toEqual([parseSigningKey(a.key).keyId, parseSigningKey(b.key).keyId]);
  });

  it('refuses files without keys with upstream texts', () => {
    expect(() => parseSigningKey(a.pub)).toThrow('data does not contain a valid RSA or ECDSA private key');
    expect(() => parsePublicKeys('nothing')).toThrow('data does not contain any valid RSA or ECDSA public keys');
  });

  it('signs ES256 with a P-256 key', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const k = parseSigningKey(privateKey.export({ type: 'sec1', format: 'pem' }) as string);
    expect(k.alg).toBe('ES256');
    const token = await signToken(k, { sub: 'x' });
    await expect(verifySignature(token, [k.publicKey])).resolves.toEqual({ sub: 'x' });
  });
});

describe('service account JWTs', () => {
  const claims = boundClaims({
    issuer: 'https://kubernetes.default.svc.cluster.local',
    audiences: ['https://kubernetes.default.svc.cluster.local'],
    namespace: 'default',
    serviceAccount: { name: 'default', uid: 'sa-uid' },
    pod: { name: 'web', uid: 'pod-uid' },
    node: { name: 'node-1', uid: 'node-uid' },
    now: 1_000,
    expirationSeconds: 3600,
    jti: 'j-1',
  });

  it('carries upstream bound-token claims', () => {
    expect(claims).toEqual({
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:default:default',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      exp: 4_600,
      iat: 1_000,
      nbf: 1_000,
      jti: 'j-1',
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'default', uid: 'sa-uid' }, pod: { name: 'web', uid: 'pod-uid' }, node: { name: 'node-1', uid: 'node-uid' } },
    });
  });

  it('round-trips through any of several verification keys, with kid and alg in the header', async () => {
    const key = parseSigningKey(b.key);
    const token = await signToken(key, claims);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as unknown;
    expect(header).toEqual({ alg: 'RS256', kid: key.keyId });
    await expect(verifySignature(token, parsePublicKeys(`${a.pub}${b.pub}`))).resolves.toEqual(claims);
    expect(unverifiedClaims(token)).toEqual(claims);
  });

  it('rejects a token signed by another key or with a tampered payload', async () => {
    const token = await signToken(parseSigningKey(a.key), claims);
    await expect(verifySignature(token, parsePublicKeys(b.pub))).rejects.toThrow(SIGNATURE_ERROR);
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${s}`;
    await expect(verifySignature(forged, parsePublicKeys(a.pub))).rejects.toThrow(SIGNATURE_ERROR);
  });

  it('reads no claims from what is not a JWT', () => {
    expect(unverifiedClaims('abcdef.0123456789abcdef')).toBeUndefined();
    expect(unverifiedClaims('a.b.c')).toBeUndefined();
  });

  it('names legacy tokens as upstream', () => {
    expect(legacyClaims('ns', { name: 'robot', uid: 'u' }, 'robot-token')).toEqual({
      iss: 'kubernetes/serviceaccount',
      sub: 'system:serviceaccount:ns:robot',
      'kubernetes.io/serviceaccount/namespace': 'ns',
      'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot',
      'kubernetes.io/serviceaccount/service-account.uid': 'u',
    });
    expect(splitServiceAccountUsername('system:serviceaccount:ns:robot')).toEqual({ namespace: 'ns', name: 'robot' });
    expect(splitServiceAccountUsername('system:serviceaccount:ns')).toBeUndefined();
  });
});
