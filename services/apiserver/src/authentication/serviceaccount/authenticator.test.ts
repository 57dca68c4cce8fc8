import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Secret, ServiceAccount } from '@kubelab/api';
import { boundClaims, legacyClaims, parsePublicKeys, parseSigningKey, signToken, type BoundClaimsInput } from '@kubelab/serviceaccount';
import { authenticateToken, reviewToken } from '../token.js';
import { createTokenAuthenticators } from './authenticator.js';
import type { ServiceAccountTokenGetter } from './getter.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const NOW = Date.parse('2026-01-01T00:00:00Z');
const NOW_S = NOW / 1000;

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { key: parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string), pub: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}
const signer = keyPair();
const stranger = keyPair();

interface World {
  sas: ServiceAccount[];
  pods: Pod[];
  secrets: Secret[];
  nodes: Node[];
}

const world = (): World => ({
  sas: [{ metadata: { name: 'default', namespace: 'team', uid: 'sa-uid' } }],
  pods: [{ metadata: { name: 'web', namespace: 'team', uid: 'pod-uid' }, spec: { containers: [], serviceAccountName: 'default', nodeName: 'node-1' } }],
  secrets: [],
  nodes: [{ metadata: { name: 'node-1', uid: 'node-uid' } }],
});

function getter(w: World): ServiceAccountTokenGetter {
  const find = <T extends { metadata: { name?: string; namespace?: string } }>(list: T[], ns: string | undefined, name: string) =>
    list.find((o) => o.metadata.name === name && o.metadata.namespace === ns);
  return { serviceAccount: (ns, n) => find(w.sas, ns, n), pod: (ns, n) => find(w.pods, ns, n), secret: (ns, n) => find(w.secrets, ns, n), node: (n) => find(w.nodes, undefined, n) };
}

const base: BoundClaimsInput = {
  issuer: ISSUER,
  audiences: [ISSUER],
  namespace: 'team',
  serviceAccount: { name: 'default', uid: 'sa-uid' },
  pod: { name: 'web', uid: 'pod-uid' },
  node: { name: 'node-1', uid: 'node-uid' },
  now: NOW_S - 10,
  expirationSeconds: 3600,
  jti: 'jti-1',
};

function authenticators(w: World) {
  return createTokenAuthenticators({ getter: getter(w), issuers: [ISSUER], publicKeys: parsePublicKeys(signer.pub), now: () => NOW });
}

describe('service account token authentication', () => {
  it('authenticates a pod-bound token as its service account, with the pod, node and JTI in extra', async () => {
    const token = await signToken(signer.key, boundClaims(base));
    expect(await authenticateToken(authenticators(world()), token)).toEqual({
      ok: true,
      response: {
        audiences: [ISSUER],
        user: {
          name: 'system:serviceaccount:team:default',
          uid: 'sa-uid',
          groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
          extra: {
            'authentication.kubernetes.io/pod-name': ['web'],
            'authentication.kubernetes.io/pod-uid': ['pod-uid'],
            'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
            'authentication.kubernetes.io/node-name': ['node-1'],
            'authentication.kubernetes.io/node-uid': ['node-uid'],
          },
        },
      },
    });
  });

  const deletedLongAgo = new Date(NOW - 120_000).toISOString();
  it.each<{ name: string; claims?: Partial<BoundClaimsInput>; key?: 'stranger' | 'tampered'; change?: (w: World) => void; audiences?: string[]; error: string }>([
    { name: 'expired', claims: { now: NOW_S - 3600 - 61 }, error: '[invalid bearer token, service account token has expired]' },
    { name: 'not valid yet', claims: { now: NOW_S + 120 }, error: '[invalid bearer token, service account token is not valid yet]' },
    {
      name: 'for another audience',
      claims: { audiences: ['vault'] },
      error: '[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]]',
    },
    {
      name: 'asked for another audience',
      audiences: ['vault', 'db'],
      error: '[invalid bearer token, token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault" "db"]]',
    },
    { name: 'from another issuer (no authenticator takes it)', claims: { issuer: 'https://elsewhere.example' }, error: 'invalid bearer token' },
    { name: 'signed by another key', key: 'stranger', error: '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]' },
    { name: 'with a tampered payload', key: 'tampered', error: '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]' },
    { name: 'of a deleted service account', change: (w) => (w.sas = []), error: '[invalid bearer token, serviceaccounts "default" not found]' },
    {
      name: 'of a recreated service account',
      change: (w) => (w.sas[0]!.metadata.uid = 'sa-uid-2'),
      error: '[invalid bearer token, service account UID (sa-uid-2) does not match claim (sa-uid)]',
    },
    { name: 'bound to a deleted pod', change: (w) => (w.pods = []), error: '[invalid bearer token, service account token has been invalidated]' },
    {
      name: 'bound to a pod deleted over a minute ago',
      change: (w) => (w.pods[0]!.metadata.deletionTimestamp = deletedLongAgo),
      error: '[invalid bearer token, service account token has been invalidated]',
    },
    {
      name: 'bound to a recreated pod',
      change: (w) => (w.pods[0]!.metadata.uid = 'pod-uid-2'),
      error: '[invalid bearer token, pod UID (pod-uid-2) does not match service account pod ref claim (pod-uid)]',
    },
    {
      name: 'bound to a deleted node',
      claims: { pod: undefined },
      change: (w) => (w.nodes = []),
      error: '[invalid bearer token, service account token has been invalidated]',
    },
  ])('rejects a token $name', async ({ claims, key, change, audiences, error }) => {
    let token = await signToken(key === 'stranger' ? stranger.key : signer.key, boundClaims({ ...base, ...claims }));
    if (key === 'tampered') {
      const [h, , s] = token.split('.');
      token = `${h}.${Buffer.from(JSON.stringify(boundClaims({ ...base, serviceAccount: { name: 'admin', uid: 'sa-uid' } }))).toString('base64url')}.${s}`;
    }
    const w = world();
    change?.(w);
    expect(await authenticateToken(authenticators(w), token, audiences)).toEqual({ ok: false, error });
  });

  it('takes a token that expired less than a minute ago (go-jose leeway)', async () => {
    const token = await signToken(signer.key, boundClaims({ ...base, now: NOW_S - 3600 - 30 }));
    expect((await authenticateToken(authenticators(world()), token)).ok).toBe(true);
  });

  it('authenticates a legacy Secret token only while the Secret holds it', async () => {
    const token = await signToken(signer.key, legacyClaims('team', { name: 'default', uid: 'sa-uid' }, 'default-token'));
    const w = world();
    w.secrets.push({ metadata: { name: 'default-token', namespace: 'team', uid: 's-uid' }, type: 'kubernetes.io/service-account-token', data: { token: Buffer.from(token).toString('base64') } });
    expect(await authenticateToken(authenticators(w), token)).toEqual({
      ok: true,
      response: { audiences: [ISSUER], user: { name: 'system:serviceaccount:team:default', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] } },
    });
    w.secrets[0]!.data = { token: Buffer.from('another').toString('base64') };
    expect(await authenticateToken(authenticators(w), token)).toEqual({ ok: false, error: "[invalid bearer token, Token does not match server's copy]" });
    w.secrets = [];
    expect(await authenticateToken(authenticators(w), token)).toEqual({ ok: false, error: '[invalid bearer token, Token has been invalidated]' });
  });
});

describe('reviewToken', () => {
  it('reports the user and the audiences of a valid token', async () => {
    const token = await signToken(signer.key, boundClaims({ ...base, audiences: ['vault', ISSUER] }));
    expect(await reviewToken({ token, audiences: ['vault'] }, authenticators(world()))).toEqual({
      authenticated: true,
      audiences: ['vault'],
      user: {
        username: 'system:serviceaccount:team:default',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['web'],
          'authentication.kubernetes.io/pod-uid': ['pod-uid'],
          'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
          'authentication.kubernetes.io/node-name': ['node-1'],
          'authentication.kubernetes.io/node-uid': ['node-uid'],
        },
      },
    });
  });

  it('reports why a token does not authenticate', async () => {
    const token = await signToken(signer.key, boundClaims({ ...base, now: NOW_S - 7200 }));
    expect(await reviewToken({ token }, authenticators(world()))).toEqual({ user: {}, error: '[invalid bearer token, service account token has expired]' });
    expect(await reviewToken({ token: 'abcdef.0123456789abcdef' }, authenticators(world()))).toEqual({ user: {}, error: 'invalid bearer token' });
  });

  it('refuses an empty token with a 400 as upstream', async () => {
    await expect(reviewToken({}, authenticators(world()))).rejects.toMatchObject({ status: { code: 400, message: 'token is required for TokenReview in authentication' } });
  });
});
