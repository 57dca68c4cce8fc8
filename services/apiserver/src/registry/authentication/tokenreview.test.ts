import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kubelab/api';
import { audienceAgnostic, type TokenAuthenticator } from '../../authentication/token.js';
import { outcome } from '../../testing/status.js';
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
    ['an unknown token', { token: 'nonsense' }, { user: {}, error: 'invalid bearer token' }],
    ['an invalid token of a known kind: the authenticator says why', { token: 'expired' }, { user: {}, error: '[invalid bearer token, service account token has expired]' }],
    [
      "an audience-agnostic authenticator answers for the apiserver's audiences",
      { token: 'abcdef.0123456789abcdef' },
      { authenticated: true, user: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:authenticated'] }, audiences: API },
    ],
    ['an audience-agnostic authenticator ignores a token for another audience', { token: 'abcdef.0123456789abcdef', audiences: ['vault'] }, { user: {}, error: 'invalid bearer token' }],
  ])('%s', async (_what, spec, status) => {
    expect(await store.create(undefined, review(spec), { user: admin })).toEqual({ ...review(spec), status });
  });

  it('refuses an empty token with a 400 as upstream', async () => {
    expect(await outcome(() => store.create(undefined, review({}), { user: admin }))).toBe('400 token is required for TokenReview in authentication');
  });

  it('answers 500 "error validating audiences" when an authenticator returns a user for none of the asked audiences', async () => {
    const careless: TokenAuthenticator = { authenticateToken: () => Promise.resolve({ user: { name: 'x', groups: [] }, audiences: ['elsewhere'] }) };
    expect(await outcome(() => tokenReviewStore([careless], API).create(undefined, review({ token: 't' }), { user: admin }))).toBe('500 Internal error occurred: error validating audiences');
  });

  it('serves create only: a get is 405', async () => {
    expect(await outcome(() => store.get(undefined, 'x'))).toBe('405 the server does not allow this method on the requested resource');
  });
});
