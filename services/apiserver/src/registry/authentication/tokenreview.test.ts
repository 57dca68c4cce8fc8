import { describe, expect, it } from 'vitest';
import { StatusError, type KubeObject } from '@kubelab/api';
import { audienceAgnostic, type TokenAuthenticator } from '../../authentication/token.js';
import { tokenReviewStore } from './tokenreview.js';

const admin = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const API = ['https://kubernetes.default.svc.cluster.local'];

/** A JWT-like authenticator: `good` is jane for the apiserver's audience and `vault`; `expired` is its kind but invalid. */
const jwt: TokenAuthenticator = {
  authenticateToken: (token, requested) => {
    if (token === 'expired') return Promise.reject(new Error('service account token has expired'));
    if (token !== 'good') return Promise.resolve(undefined);
    const want = requested ?? API;
    return Promise.resolve({ user: { name: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } }, audiences: ['vault', ...API].filter((a) => want.includes(a)) });
  },
};
/** A bootstrap-like authenticator: knows no audiences. */
const plain: TokenAuthenticator = {
  authenticateToken: (token) => Promise.resolve(token === 'abcdef.0123456789abcdef' ? { user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] }, audiences: [] } : undefined),
};
const store = tokenReviewStore([jwt, audienceAgnostic(API, plain)], API);
const review = (spec: Record<string, unknown>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec }) as unknown as KubeObject;

async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (StatusError.isInstance(e)) return { code: e.code, message: e.status.message ?? '' };
    throw e;
  }
  throw new Error('expected a failure');
}

describe('TokenReview', () => {
  it.each([
    [
      'a valid token: its user and the audiences it matched',
      { token: 'good' },
      { authenticated: true, user: { username: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } }, audiences: API },
    ],
    [
      'a valid token for an audience the review names',
      { token: 'good', audiences: ['vault'] },
      { authenticated: true, user: { username: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } }, audiences: ['vault'] },
    ],
    ['an unknown token', { token: 'nonsense' }, { authenticated: false, error: 'invalid bearer token' }],
    ['an invalid token of a known kind: the authenticator says why', { token: 'expired' }, { authenticated: false, error: '[invalid bearer token, service account token has expired]' }],
    [
      "an audience-agnostic authenticator answers for the apiserver's audiences",
      { token: 'abcdef.0123456789abcdef' },
      { authenticated: true, user: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:authenticated'] }, audiences: API },
    ],
    ['an audience-agnostic authenticator ignores a token for another audience', { token: 'abcdef.0123456789abcdef', audiences: ['vault'] }, { authenticated: false, error: 'invalid bearer token' }],
  ])('%s', async (_what, spec, status) => {
    expect(await store.create(undefined, review(spec), { user: admin })).toEqual({ ...review(spec), status });
  });

  it('refuses an empty token with a 400 as upstream', async () => {
    expect(await failure(store.create(undefined, review({}), { user: admin }))).toEqual({ code: 400, message: 'token is required for TokenReview in authentication' });
  });

  it('answers 500 "error validating audiences" when an authenticator returns a user for none of the asked audiences', async () => {
    const careless: TokenAuthenticator = { authenticateToken: () => Promise.resolve({ user: { name: 'x', groups: [] }, audiences: ['elsewhere'] }) };
    expect(await failure(tokenReviewStore([careless], API).create(undefined, review({ token: 't' }), { user: admin }))).toEqual({
      code: 500,
      message: 'Internal error occurred: error validating audiences',
    });
  });

  it('serves create only: a get is 405', async () => {
    expect(await failure(store.get(undefined, 'x'))).toEqual({ code: 405, message: 'the server does not allow this method on the requested resource' });
  });
});
