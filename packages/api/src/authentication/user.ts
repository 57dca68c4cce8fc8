// Who a request is (upstream: k8s.io/apiserver/pkg/authentication/user.Info
// and its well-known names), as every server's authenticators produce it —
// the apiserver's and the kubelet's — and how it crosses the API as an
// authentication/v1 UserInfo (TokenReview, SelfSubjectReview).

import type { AuthenticationUserInfo } from './v1/types.js';

export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

// Well-known names (upstream: user.Anonymous, user.AllAuthenticated, …).
export const USER_ANONYMOUS = 'system:anonymous';
export const USER_APISERVER = 'system:apiserver';
export const GROUP_UNAUTHENTICATED = 'system:unauthenticated';
export const GROUP_AUTHENTICATED = 'system:authenticated';
export const GROUP_MASTERS = 'system:masters';
export const GROUP_NODES = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';
export const GROUP_SERVICE_ACCOUNTS = 'system:serviceaccounts';

/** The request nobody authenticated (upstream's anonymous authenticator). */
export const ANONYMOUS: UserInfo = Object.freeze({ name: USER_ANONYMOUS, groups: Object.freeze([GROUP_UNAUTHENTICATED]) });

/** Every authenticated user is in system:authenticated (upstream AuthenticatedGroupAdder). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  return user.groups.includes(GROUP_AUTHENTICATED) ? user : { ...user, groups: [...user.groups, GROUP_AUTHENTICATED] };
}

/** The token of an `Authorization: Bearer <token>` header value (upstream's bearertoken authenticator); undefined for anything else. */
export function bearerTokenOf(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** A user as the API reports it (uid, groups and extra only when set: omitempty). */
export function toApiUserInfo(user: UserInfo): AuthenticationUserInfo {
  const out: AuthenticationUserInfo = { username: user.name };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) out.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  return out;
}

/** A user the API reported (a webhook's TokenReview answer). */
export function fromApiUserInfo(u: AuthenticationUserInfo | undefined): UserInfo {
  return {
    name: u?.username ?? '',
    groups: u?.groups ?? [],
    ...(u?.uid ? { uid: u.uid } : {}),
    ...(u?.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}),
  };
}
