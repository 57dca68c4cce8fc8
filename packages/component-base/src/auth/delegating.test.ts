import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type SubjectAccessReview } from '@kubelab/api';
import { alwaysAllowPathsAuthorizer, delegatingAuth, delegatingAuthorizer, nonResourceAttributes, unionAuthorizer, DEFAULT_ALWAYS_ALLOW_PATHS } from './delegating.js';
import type { Authorizer, Decision, ReviewClient, UserInfo } from './types.js';

const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'kubernetes-super-admin', groups: ['system:masters', 'system:authenticated'] };
const answer = (decision: Decision, reason = ''): Authorizer => ({ authorize: () => Promise.resolve({ decision, reason }) });
const failing = (message: string): Authorizer => ({ authorize: () => Promise.reject(new Error(message)) });

describe('nonResourceAttributes (upstream RequestInfo of a non-API path)', () => {
  it.each([
    ['GET', '/metrics', 'get'],
    ['HEAD', '/healthz', 'head'],
    ['POST', '/debug/flags/v', 'post'],
    ['DELETE', '/x', 'delete'],
  ])('%s %s → verb %s', (method, path, verb) => {
    expect(nonResourceAttributes(jane, method, path)).toMatchObject({ user: jane, verb, path, resourceRequest: false, resource: '' });
  });
});

describe('alwaysAllowPathsAuthorizer (upstream authorization/path)', () => {
  it.each<[readonly string[], string, Decision]>([
    [DEFAULT_ALWAYS_ALLOW_PATHS, '/healthz', 'Allow'],
    [DEFAULT_ALWAYS_ALLOW_PATHS, '/readyz', 'Allow'],
    [DEFAULT_ALWAYS_ALLOW_PATHS, '/livez', 'Allow'],
    // Exact paths: one check by path is not the health endpoint, and needs a grant.
    [DEFAULT_ALWAYS_ALLOW_PATHS, '/livez/ping', 'NoOpinion'],
    [DEFAULT_ALWAYS_ALLOW_PATHS, '/metrics', 'NoOpinion'],
    [DEFAULT_ALWAYS_ALLOW_PATHS, '/', 'NoOpinion'],
    [['/livez*'], '/livez/ping', 'Allow'],
    [['/metrics/*'], '/metrics', 'NoOpinion'],
    [['/metrics/*'], '/metrics/slis', 'Allow'],
    [['healthz'], '/healthz', 'Allow'],
    [['/'], '/', 'Allow'],
    [['/'], '/metrics', 'NoOpinion'],
    [['*'], '/anything', 'Allow'],
    [[], '/healthz', 'NoOpinion'],
  ])('%j: %s → %s', async (paths, path, want) => {
    expect((await alwaysAllowPathsAuthorizer(paths).authorize(nonResourceAttributes(ANONYMOUS, 'GET', path))).decision).toBe(want);
  });

  it('has no opinion on a resource request', async () => {
    const a = { ...nonResourceAttributes(ANONYMOUS, 'GET', '/healthz'), resourceRequest: true, resource: 'pods' };
    expect((await alwaysAllowPathsAuthorizer(['/healthz']).authorize(a)).decision).toBe('NoOpinion');
  });

  it('refuses a * that is not trailing', () => {
    expect(() => alwaysAllowPathsAuthorizer(['/metrics/*/x'])).toThrow('only trailing * allowed in "metrics/*/x"');
  });
});

describe('unionAuthorizer (upstream authorizer/union)', () => {
  const attrs = nonResourceAttributes(jane, 'GET', '/metrics');
  it.each<[string, Authorizer[], { decision: Decision; reason: string } | string]>([
    ['the first decision wins', [answer('NoOpinion'), answer('Deny', 'no'), answer('Allow')], { decision: 'Deny', reason: 'no' }],
    ['a failure is passed over when another decides', [failing('timeout'), answer('Allow', 'yes')], { decision: 'Allow', reason: 'yes' }],
    ['no decision: the reasons, joined', [answer('NoOpinion', 'a'), answer('NoOpinion'), answer('NoOpinion', 'b')], { decision: 'NoOpinion', reason: 'a\nb' }],
    ['no decision and failures: the error', [answer('NoOpinion'), failing('connection refused')], 'connection refused'],
    ['several failures are listed', [failing('one'), failing('two')], '[one, two]'],
    ['none at all has no opinion', [], { decision: 'NoOpinion', reason: '' }],
  ])('%s', async (_n, list, want) => {
    const got = unionAuthorizer(list).authorize(attrs);
    if (typeof want === 'string') await expect(got).rejects.toThrow(want);
    else expect(await got).toEqual(want);
  });
});

describe('delegatingAuthorizer (upstream DelegatingAuthorizationOptions)', () => {
  const noSar = delegatingAuthorizer({});
  it.each<[string, Authorizer, UserInfo, string, Decision]>([
    ['health is open to anonymous', noSar, ANONYMOUS, '/healthz', 'Allow'],
    ['metrics is not, without a review', noSar, ANONYMOUS, '/metrics', 'NoOpinion'],
    ['system:masters always passes', noSar, admin, '/metrics', 'Allow'],
    ['the review decides the rest', delegatingAuthorizer({ webhook: answer('Allow') }), jane, '/metrics', 'Allow'],
    ['given paths replace the defaults', delegatingAuthorizer({ alwaysAllowPaths: ['/metrics'] }), ANONYMOUS, '/healthz', 'NoOpinion'],
  ])('%s', async (_n, authz, user, path, want) => {
    expect((await authz.authorize(nonResourceAttributes(user, 'GET', path))).decision).toBe(want);
  });
});

describe('delegatingAuth', () => {
  it('allows anonymous, takes client certificates only with a CA and tokens only with a TokenReview client', () => {
    expect(delegatingAuth({}).authentication).toEqual({ x509: false, anonymous: true });
    const reviews: ReviewClient<never> = { create: () => Promise.reject(new Error('unused')) };
    const a = delegatingAuth({ clientCaPem: 'CA', tokenReviews: reviews });
    expect(a.authentication).toMatchObject({ x509: true, anonymous: true, token: expect.anything() });
  });

  it('asks a SubjectAccessReview for the path and caches the answer for 10 seconds', async () => {
    const sent: SubjectAccessReview[] = [];
    const auth = delegatingAuth({ subjectAccessReviews: { create: (r) => (sent.push(r), Promise.resolve({ ...r, status: { allowed: false } })) } });
    expect((await auth.authorizer.authorize(nonResourceAttributes(jane, 'GET', '/metrics'))).decision).toBe('NoOpinion');
    await auth.authorizer.authorize(nonResourceAttributes(jane, 'GET', '/metrics'));
    await auth.authorizer.authorize(nonResourceAttributes(jane, 'GET', '/healthz'));
    expect(sent.map((r) => r.spec)).toEqual([{ user: 'jane', groups: ['system:authenticated'], nonResourceAttributes: { path: '/metrics', verb: 'get' } }]);
  });
});
