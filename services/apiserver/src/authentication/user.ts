// Who a request is (upstream: k8s.io/apiserver/pkg/authentication/user.Info),
// as the authenticators produce it and authorization and admission read it.

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

/** The apiserver's own loopback identity (upstream: the loopback client's system:apiserver in system:masters). */
export const APISERVER: UserInfo = Object.freeze({ name: USER_APISERVER, groups: Object.freeze([GROUP_AUTHENTICATED, GROUP_MASTERS]) });

/** The node name of a kubelet's identity (`system:node:<name>` in `system:nodes`), or undefined. */
export function nodeNameOf(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(GROUP_NODES)) return undefined;
  const name = user.name.slice(NODE_USER_PREFIX.length);
  return name || undefined;
}
