import { describe, expect, it } from 'vitest';
import type { Attributes, ReviewClient, UserInfo } from './types.js';
import { WebhookAuthorizer, WebhookTokenAuthenticator, decisionOf, subjectAccessReviewFor } from './webhook.js';
import type { SubjectAccessReview, TokenReview } from '@kubelab/api';

/** A review client answering from `answer` and recording what it was sent. */
function fakeReviews<T extends { status?: unknown }>(answer: (review: T) => T['status'] | Error): ReviewClient<T> & { sent: T[] } {
  const sent: T[] = [];
  return {
    sent,
    create(review) {
      sent.push(review);
      const status = answer(review);
      return status instanceof Error ? Promise.reject(status) : Promise.resolve({ ...review, status });
    },
  };
}

const jane: UserInfo = { name: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };

/** A request on a node's subresource (as the kubelet asks them). */
const nodeRequest = (user: UserInfo, verb: string, subresource: string, path = '/'): Attributes => ({
  user,
  verb,
  resourceRequest: true,
  namespace: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'nodes',
  subresource,
  name: 'node-1',
  path,
});
/** A request for a path (as the scheduler's and controller-manager's ports ask them). */
const pathRequest = (user: UserInfo, verb: string, path: string): Attributes => ({
  user,
  verb,
  resourceRequest: false,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
  path,
});

describe('subjectAccessReviewFor', () => {
  it("carries the user and the node's resource attributes", () => {
    expect(subjectAccessReviewFor(nodeRequest(jane, 'create', 'proxy', '/exec/default/web/app'))).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        user: 'jane',
        uid: 'u-1',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['a'] },
        resourceAttributes: { namespace: '', verb: 'create', group: '', version: 'v1', resource: 'nodes', subresource: 'proxy', name: 'node-1' },
      },
    });
  });

  it('asks about the path and verb alone for a non-resource request', () => {
    expect(subjectAccessReviewFor(pathRequest({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'get', '/metrics')).spec).toEqual({
      user: 'system:anonymous',
      groups: ['system:unauthenticated'],
      nonResourceAttributes: { path: '/metrics', verb: 'get' },
    });
  });
});

describe('decisionOf', () => {
  it.each([
    [{ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins"' }, 'Allow'],
    [{ allowed: false, denied: true, reason: 'no' }, 'Deny'],
    [{ allowed: false }, 'NoOpinion'],
    [undefined, 'NoOpinion'],
  ])('%j → %s', (status, want) => expect(decisionOf(status).decision).toBe(want));
  it('allowed and denied together is an error', () => {
    expect(() => decisionOf({ allowed: true, denied: true })).toThrow('webhook subject access review returned both allow and deny response');
  });
});

describe('WebhookAuthorizer', () => {
  const attrs = (user = jane) => nodeRequest(user, 'get', 'log', '/containerLogs/default/web/app');

  it('caches an allowed answer for 5 minutes and a refusal for 30 seconds', async () => {
    let now = 0;
    const reviews = fakeReviews<SubjectAccessReview>((r) => ({ allowed: r.spec.user === 'jane' }));
    const authz = new WebhookAuthorizer(reviews, undefined, () => now);
    const bob = { name: 'bob', groups: ['system:authenticated'] };
    expect((await authz.authorize(attrs())).decision).toBe('Allow');
    expect((await authz.authorize(attrs(bob))).decision).toBe('NoOpinion');
    now = 29_999;
    await authz.authorize(attrs());
    await authz.authorize(attrs(bob));
    expect(reviews.sent).toHaveLength(2);
    now = 30_000;
    await authz.authorize(attrs(bob));
    expect(reviews.sent).toHaveLength(3);
    now = 299_999;
    await authz.authorize(attrs());
    expect(reviews.sent).toHaveLength(3);
    now = 300_000;
    await authz.authorize(attrs());
    expect(reviews.sent).toHaveLength(4);
  });

  it('another verb, subresource or path is another question; the same attributes are asked once', async () => {
    const reviews = fakeReviews<SubjectAccessReview>(() => ({ allowed: true }));
    const authz = new WebhookAuthorizer(reviews);
    await authz.authorize(nodeRequest(jane, 'get', 'proxy', '/pods'));
    await authz.authorize(nodeRequest(jane, 'get', 'proxy', '/runningpods'));
    await authz.authorize(nodeRequest(jane, 'create', 'proxy', '/exec/a/b/c'));
    await authz.authorize(nodeRequest(jane, 'get', 'metrics', '/metrics'));
    await authz.authorize(pathRequest(jane, 'get', '/metrics'));
    await authz.authorize(pathRequest(jane, 'get', '/metrics/slis'));
    await authz.authorize(pathRequest(jane, 'get', '/metrics'));
    const asked = (r: SubjectAccessReview) =>
      r.spec.resourceAttributes ? `${r.spec.resourceAttributes.verb} ${r.spec.resourceAttributes.subresource}` : `${r.spec.nonResourceAttributes?.verb} ${r.spec.nonResourceAttributes?.path}`;
    expect(reviews.sent.map(asked)).toEqual(['get proxy', 'create proxy', 'get metrics', 'get /metrics', 'get /metrics/slis']);
  });

  it('a failed review is an error and is asked again next time', async () => {
    let fail = true;
    const reviews = fakeReviews<SubjectAccessReview>(() => (fail ? new Error('connection refused') : { allowed: true }));
    const authz = new WebhookAuthorizer(reviews);
    await expect(authz.authorize(attrs())).rejects.toThrow('connection refused');
    fail = false;
    expect((await authz.authorize(attrs())).decision).toBe('Allow');
  });
});

describe('WebhookTokenAuthenticator', () => {
  const sa = { username: 'system:serviceaccount:default:app', uid: 'sa-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] };

  it('asks a TokenReview and caches both answers for 2 minutes', async () => {
    let now = 0;
    const reviews = fakeReviews<TokenReview>((r) => (r.spec.token === 'good' ? { authenticated: true, user: sa } : { authenticated: false }));
    const authn = new WebhookTokenAuthenticator(reviews, undefined, () => now);
    expect(await authn.authenticateToken('good')).toEqual({ name: sa.username, uid: 'sa-1', groups: sa.groups });
    expect(await authn.authenticateToken('forged')).toBeUndefined();
    now = 119_999;
    await authn.authenticateToken('good');
    await authn.authenticateToken('forged');
    expect(reviews.sent.map((r) => r.spec)).toEqual([{ token: 'good' }, { token: 'forged' }]);
    now = 120_000;
    await authn.authenticateToken('good');
    expect(reviews.sent).toHaveLength(3);
  });

  it("the review's error is the authenticator's error, not cached", async () => {
    const reviews = fakeReviews<TokenReview>(() => ({ authenticated: false, error: 'token has expired' }));
    const authn = new WebhookTokenAuthenticator(reviews);
    await expect(authn.authenticateToken('old')).rejects.toThrow('token has expired');
    await expect(authn.authenticateToken('old')).rejects.toThrow('token has expired');
    expect(reviews.sent).toHaveLength(2);
  });
});
