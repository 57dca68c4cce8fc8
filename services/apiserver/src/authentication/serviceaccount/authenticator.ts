// The service account token authenticators (upstream pkg/serviceaccount
// jwt.go JWTTokenAuthenticator): one for bound tokens (issuer
// `--service-account-issuer`), one for legacy Secret tokens (issuer
// `kubernetes/serviceaccount`). Each takes only tokens of its issuer, checks
// the signature against `--service-account-key-file`, the audience against
// what the request asks for (default `--api-audiences`), then the claims.

import type { KeyObject } from 'node:crypto';
import { goQuotedList, GROUP_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_GROUP_PREFIX, type UserInfo } from '@kubelab/api';
import { LEGACY_ISSUER, serviceAccountUsername, unverifiedClaims, verifySignature } from '@kubelab/serviceaccount';
import type { TokenAuthenticator, TokenAuthResponse } from '../token.js';
import type { ServiceAccountTokenGetter } from './getter.js';
import { validateBound, validateLegacy, type ServiceAccountInfo } from './validator.js';

/** The user-info extras a bound token adds (upstream serviceaccount.*Key). */
export const EXTRA_POD_NAME = 'authentication.kubernetes.io/pod-name';
export const EXTRA_POD_UID = 'authentication.kubernetes.io/pod-uid';
export const EXTRA_NODE_NAME = 'authentication.kubernetes.io/node-name';
export const EXTRA_NODE_UID = 'authentication.kubernetes.io/node-uid';
export const EXTRA_CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

/** The user a service account token authenticates as (upstream ServiceAccountInfo.UserInfo). */
export function serviceAccountUser(sa: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[EXTRA_POD_NAME] = [sa.podName];
    extra[EXTRA_POD_UID] = [sa.podUID];
  }
  if (sa.credentialId) extra[EXTRA_CREDENTIAL_ID] = [sa.credentialId];
  if (sa.nodeName) {
    extra[EXTRA_NODE_NAME] = [sa.nodeName];
    if (sa.nodeUID) extra[EXTRA_NODE_UID] = [sa.nodeUID];
  }
  const user: UserInfo = { name: serviceAccountUsername(sa.namespace, sa.name), uid: sa.uid, groups: [GROUP_SERVICE_ACCOUNTS, `${SERVICE_ACCOUNT_GROUP_PREFIX}${sa.namespace}`] };
  return Object.keys(extra).length ? { ...user, extra } : user;
}

function audiencesOf(claims: Record<string, unknown>): string[] {
  const aud = claims.aud;
  if (typeof aud === 'string') return aud ? [aud] : [];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

type Validate = (token: string, claims: Record<string, unknown>) => ServiceAccountInfo;

/** One issuer's authenticator (upstream JWTTokenAuthenticator). */
export function jwtTokenAuthenticator(issuers: readonly string[], keys: readonly KeyObject[], implicitAudiences: readonly string[], validate: Validate): TokenAuthenticator {
  const accepted = new Set(issuers);
  return {
    async authenticateToken(token, requested): Promise<TokenAuthResponse | undefined> {
      const unverified = unverifiedClaims(token);
      if (!unverified || typeof unverified.iss !== 'string' || !accepted.has(unverified.iss)) return undefined;
      const claims = await verifySignature(token, keys);
      let tokenAudiences = audiencesOf(claims);
      // Legacy tokens carry no audience: they are valid for the apiserver only.
      if (tokenAudiences.length === 0) tokenAudiences = [...implicitAudiences];
      const want = requested?.length ? requested : implicitAudiences;
      const audiences = tokenAudiences.filter((a) => want.includes(a));
      if (audiences.length === 0 && implicitAudiences.length) {
        throw new Error(`token audiences ${goQuotedList(tokenAudiences)} is invalid for the target audiences ${goQuotedList(want)}`);
      }
      return { user: serviceAccountUser(validate(token, claims)), audiences };
    },
  };
}

export interface TokenAuthenticatorsOptions {
  /** Reads the objects tokens name, from the watch cache (cacheTokenGetter). */
  getter: ServiceAccountTokenGetter;
  /** `--service-account-issuer`: the first issues tokens, every one is accepted. */
  issuers: readonly string[];
  /** `--api-audiences`; default: the issuers (as upstream). */
  audiences?: readonly string[];
  /** `--service-account-key-file`: every key a token may be signed with. */
  publicKeys: readonly KeyObject[];
  /** Wall clock in milliseconds (tests pass a fixed one). */
  now?: () => number;
}

/** The apiserver's service account token authenticators: bound tokens first, then legacy Secret tokens. */
export function createTokenAuthenticators(o: TokenAuthenticatorsOptions): TokenAuthenticator[] {
  const now = o.now ?? Date.now;
  const audiences = o.audiences?.length ? o.audiences : o.issuers;
  const bound = jwtTokenAuthenticator(o.issuers, o.publicKeys, audiences, (_token, claims) => validateBound(claims, o.getter, Math.floor(now() / 1000)));
  const legacy = jwtTokenAuthenticator([LEGACY_ISSUER], o.publicKeys, audiences, (token, claims) => validateLegacy(token, claims, o.getter));
  return o.issuers.length ? [bound, legacy] : [legacy];
}
