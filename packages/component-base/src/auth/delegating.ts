// The delegated authorization of a component's own HTTPS port (upstream:
// k8s.io/apiserver's DelegatingAuthorizationOptions, as kube-scheduler and
// kube-controller-manager build it): paths always allowed
// (--authorization-always-allow-paths: the health checks, so a probe needs
// no credentials), groups always allowed (system:masters, whom the
// apiserver allows everything anyway), then a SubjectAccessReview; the
// first authorizer to allow or deny decides.

import { GROUP_MASTERS, type SubjectAccessReview, type TokenReview } from '@kubelab/api';
import type { Attributes, Authorizer, Decision, ReviewClient, SecurePortAuth, UserInfo } from './types.js';
import { WebhookAuthorizer, WebhookTokenAuthenticator } from './webhook.js';

/** Upstream's --authorization-always-allow-paths default. */
export const DEFAULT_ALWAYS_ALLOW_PATHS: readonly string[] = ['/healthz', '/readyz', '/livez'];
/** Upstream's AlwaysAllowGroups (not a flag). */
export const DEFAULT_ALWAYS_ALLOW_GROUPS: readonly string[] = [GROUP_MASTERS];
/** Upstream's delegated caches: --authentication-token-webhook-cache-ttl and --authorization-webhook-cache-{authorized,unauthorized}-ttl, 10 s each. */
export const DELEGATED_CACHE_TTL_MS = 10_000;

/** A request for a path, not an API object (upstream RequestInfo of a non-API path: the verb is the lower-case HTTP method). */
export function nonResourceAttributes(user: UserInfo, method: string, path: string): Attributes {
  return { user, verb: method.toLowerCase(), resourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

/**
 * Allows the listed paths to anyone (upstream authorization/path.NewAuthorizer):
 * an entry is an exact path, or a prefix when it ends in `*` (a `*` anywhere
 * else is refused); resource requests get no opinion.
 */
export function alwaysAllowPathsAuthorizer(paths: readonly string[]): Authorizer {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of paths) {
    const p = entry.replace(/^\//, '');
    if (p.slice(0, -1).includes('*')) throw new Error(`only trailing * allowed in ${JSON.stringify(p)}`);
    if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return {
    authorize(a) {
      if (a.resourceRequest) return Promise.resolve({ decision: 'NoOpinion', reason: '' });
      const p = a.path.replace(/^\//, '');
      const allowed = exact.has(p) || prefixes.some((prefix) => p.startsWith(prefix));
      return Promise.resolve({ decision: allowed ? 'Allow' : 'NoOpinion', reason: '' });
    },
  };
}

/** Allows members of the groups (upstream authorizerfactory.NewPrivilegedGroups). */
export function privilegedGroupsAuthorizer(groups: readonly string[]): Authorizer {
  return { authorize: (a) => Promise.resolve({ decision: a.user.groups.some((g) => groups.includes(g)) ? 'Allow' : 'NoOpinion', reason: '' }) };
}

/**
 * Each authorizer in turn (upstream authorizer/union): the first Allow or Deny
 * decides; one that fails is passed over, and with no decision the failures
 * are the error (the filter's 500), else the reasons are the refusal's.
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    async authorize(a) {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const authz of authorizers) {
        let d: { decision: Decision; reason: string };
        try {
          d = await authz.authorize(a);
        } catch (e) {
          errors.push((e as Error).message);
          continue;
        }
        if (d.decision !== 'NoOpinion') return d;
        if (d.reason) reasons.push(d.reason);
      }
      if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
      return { decision: 'NoOpinion', reason: reasons.join('\n') };
    },
  };
}

export interface DelegatingAuthorizerOptions {
  alwaysAllowPaths?: readonly string[];
  alwaysAllowGroups?: readonly string[];
  /** The SubjectAccessReview authorizer; absent (no authorization kubeconfig), only the paths and groups above are allowed. */
  webhook?: Authorizer;
}

export function delegatingAuthorizer(o: DelegatingAuthorizerOptions): Authorizer {
  return unionAuthorizer([
    alwaysAllowPathsAuthorizer(o.alwaysAllowPaths ?? DEFAULT_ALWAYS_ALLOW_PATHS),
    privilegedGroupsAuthorizer(o.alwaysAllowGroups ?? DEFAULT_ALWAYS_ALLOW_GROUPS),
    ...(o.webhook ? [o.webhook] : []),
  ]);
}

export interface DelegatingAuthOptions {
  /** --client-ca-file (kubelab: else the CA of --authentication-kubeconfig); without it no client certificate is asked for. */
  clientCaPem?: string;
  /** TokenReviews through --authentication-kubeconfig's connection; absent, bearer tokens are not looked at. */
  tokenReviews?: ReviewClient<TokenReview>;
  /** SubjectAccessReviews through --authorization-kubeconfig's connection; absent, only the always-allowed paths and groups pass. */
  subjectAccessReviews?: ReviewClient<SubjectAccessReview>;
  alwaysAllowPaths?: readonly string[];
  tokenCacheTtlMs?: number;
  authorizedTtlMs?: number;
  unauthorizedTtlMs?: number;
}

/** The scheduler's and controller-manager's port auth (upstream DelegatingAuthenticationOptions and DelegatingAuthorizationOptions ApplyTo): anonymous allowed, then authorized. */
export function delegatingAuth(o: DelegatingAuthOptions): SecurePortAuth {
  const ttl = (v: number | undefined) => v ?? DELEGATED_CACHE_TTL_MS;
  return {
    authentication: { x509: !!o.clientCaPem, anonymous: true, ...(o.tokenReviews ? { token: new WebhookTokenAuthenticator(o.tokenReviews, ttl(o.tokenCacheTtlMs)) } : {}) },
    authorizer: delegatingAuthorizer({
      ...(o.alwaysAllowPaths ? { alwaysAllowPaths: o.alwaysAllowPaths } : {}),
      ...(o.subjectAccessReviews ? { webhook: new WebhookAuthorizer(o.subjectAccessReviews, { authorizedMs: ttl(o.authorizedTtlMs), unauthorizedMs: ttl(o.unauthorizedTtlMs) }) } : {}),
    }),
  };
}
