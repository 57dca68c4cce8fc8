import { describe, expect, it } from 'vitest';
import { nodeRequestAttributes } from './attributes.js';
import type { ReviewClient, UserInfo } from './types.js';
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

describe('subjectAccessReviewFor', () => {
  it("carries the user and the node's resource attributes", () => {
    expect(subjectAccessReviewFor(nodeRequestAttributes(jane, 'POST', '/exec/default/web/app', 'node-1'))).toEqual({
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
  const attrs = (user = jane) => nodeRequestAttributes(user, 'GET', '/containerLogs/default/web/app', 'node-1');

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

  it('another verb or path class is another question', async () => {
    const reviews = fakeReviews<SubjectAccessReview>(() => ({ allowed: true }));
    const authz = new WebhookAuthorizer(reviews);
    await authz.authorize(nodeRequestAttributes(jane, 'GET', '/pods', 'node-1'));
    await authz.authorize(nodeRequestAttributes(jane, 'GET', '/containerLogs/a/b/c', 'node-1'));
    await authz.authorize(nodeRequestAttributes(jane, 'POST', '/exec/a/b/c', 'node-1'));
    await authz.authorize(nodeRequestAttributes(jane, 'GET', '/metrics', 'node-1'));
    expect(reviews.sent.map((r) => `${r.spec.resourceAttributes?.verb} ${r.spec.resourceAttributes?.subresource}`)).toEqual(['get proxy', 'create proxy', 'get metrics']);
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
