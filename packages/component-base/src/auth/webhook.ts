// The delegated checks a component asks the apiserver to make (upstream
// k8s.io/apiserver/plugin/pkg/{authenticator/token,authorizer}/webhook, as
// the kubelet builds them from --authentication-token-webhook and
// --authorization-mode=Webhook, and the scheduler and controller-manager
// from --authentication-kubeconfig and --authorization-kubeconfig): a
// TokenReview for a bearer token and a SubjectAccessReview for each
// request's attributes, created through the component's own API connection
// (the objects are @kubelab/api's), with caches in front (the kubelet's
// defaults: token results 2 min; authorized 5 min, unauthorized 30 s;
// errors not cached).

import { createHash } from 'node:crypto';
import { fromApiUserInfo, type SubjectAccessReview, type SubjectAccessReviewStatus, type TokenReview } from '@kubelab/api';
import { ExpiringCache } from './cache.js';
import type { Attributes, Authorizer, Decision, ReviewClient, TokenAuthenticator, UserInfo } from './types.js';

/** Upstream's defaults (--authentication-token-webhook-cache-ttl, --authorization-webhook-cache-{authorized,unauthorized}-ttl). */
export const DEFAULT_TOKEN_CACHE_TTL_MS = 120_000;
export const DEFAULT_AUTHORIZED_TTL_MS = 300_000;
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;
/** Entries each cache keeps at most (upstream's webhook authorizer LRU holds 8192). */
const CACHE_ENTRIES = 8192;

type UserResult = { user: UserInfo | undefined };

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  private readonly cache: ExpiringCache<UserResult>;

  constructor(
    private readonly reviews: ReviewClient<TokenReview>,
    private readonly ttlMs = DEFAULT_TOKEN_CACHE_TTL_MS,
    now: () => number = Date.now,
  ) {
    this.cache = new ExpiringCache(CACHE_ENTRIES, now);
  }

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    // Keyed by a digest: the cache never holds the tokens themselves.
    const key = createHash('sha256').update(token).digest('hex');
    const hit = this.cache.get(key);
    if (hit) return hit.user;
    const review = await this.reviews.create({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token } });
    const st = review.status ?? {};
    if (!st.authenticated) {
      // A token the apiserver could not judge is an error (not cached); a rejected one is cached as unknown.
      if (st.error) throw new Error(st.error);
      this.cache.set(key, { user: undefined }, this.ttlMs);
      return undefined;
    }
    const user = fromApiUserInfo(st.user);
    this.cache.set(key, { user }, this.ttlMs);
    return user;
  }
}

/** The review sent for a request (upstream webhook authorizer: resourceAttributes, or nonResourceAttributes for a path). */
export function subjectAccessReviewFor(a: Attributes): SubjectAccessReview {
  const u = a.user;
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    metadata: {},
    spec: {
      user: u.name,
      ...(u.uid ? { uid: u.uid } : {}),
      groups: [...u.groups],
      ...(u.extra && Object.keys(u.extra).length ? { extra: Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]])) } : {}),
      ...(a.resourceRequest
        ? { resourceAttributes: { namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion, resource: a.resource, subresource: a.subresource, name: a.name } }
        : { nonResourceAttributes: { path: a.path, verb: a.verb } }),
    },
  };
}

/** A review's answer as a decision (allowed and denied together is the webhook's error). */
export function decisionOf(status: SubjectAccessReview['status']): { decision: Decision; reason: string } {
  const reason = status?.reason ?? '';
  if (status?.allowed && status.denied) throw new Error('webhook subject access review returned both allow and deny response');
  if (status?.denied) return { decision: 'Deny', reason };
  if (status?.allowed) return { decision: 'Allow', reason };
  return { decision: 'NoOpinion', reason };
}

export class WebhookAuthorizer implements Authorizer {
  private readonly cache: ExpiringCache<SubjectAccessReviewStatus>;

  constructor(
    private readonly reviews: ReviewClient<SubjectAccessReview>,
    private readonly ttl: { authorizedMs: number; unauthorizedMs: number } = { authorizedMs: DEFAULT_AUTHORIZED_TTL_MS, unauthorizedMs: DEFAULT_UNAUTHORIZED_TTL_MS },
    now: () => number = Date.now,
  ) {
    this.cache = new ExpiringCache(CACHE_ENTRIES, now);
  }

  async authorize(a: Attributes): Promise<{ decision: Decision; reason: string }> {
    const review = subjectAccessReviewFor(a);
    const key = JSON.stringify(review.spec);
    let status = this.cache.get(key);
    if (!status) {
      status = (await this.reviews.create(review)).status ?? { allowed: false };
      this.cache.set(key, status, status.allowed ? this.ttl.authorizedMs : this.ttl.unauthorizedMs);
    }
    return decisionOf(status);
  }
}

/** --authorization-mode=AlwaysAllow. */
export const alwaysAllow: Authorizer = { authorize: () => Promise.resolve({ decision: 'Allow', reason: '' }) };
