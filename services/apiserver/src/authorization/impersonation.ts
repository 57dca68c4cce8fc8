// Impersonation (upstream: endpoints/filters.WithImpersonation): the
// Impersonate-User, -Group (repeated), -Uid and -Extra-<key> headers switch
// the request's user, each one first authorized for the requestor with verb
// `impersonate` on users, groups, serviceaccounts (a
// `system:serviceaccount:<ns>:<name>` user), uids or userextras/<key>.

import { badRequest, GROUP_AUTHENTICATED, GROUP_SERVICE_ACCOUNTS, GROUP_UNAUTHENTICATED, SERVICE_ACCOUNT_GROUP_PREFIX, SERVICE_ACCOUNT_USER_PREFIX, USER_ANONYMOUS, type UserInfo } from '@kubelab/api';
import { resourceAttributes } from './attributes.js';
import { forbiddenStatus } from '@kubelab/component-base';
import type { Authorizer } from './types.js';

export const IMPERSONATE_USER = 'impersonate-user';
export const IMPERSONATE_GROUP = 'impersonate-group';
export const IMPERSONATE_UID = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

/** One thing to impersonate (upstream builds ObjectReferences of kinds User, ServiceAccount, Group, UserExtra, UID). */
export type ImpersonationRequest =
  | { kind: 'User'; name: string }
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'UserExtra'; key: string; value: string }
  | { kind: 'UID'; uid: string };

/** `system:serviceaccount:<ns>:<name>` split (upstream serviceaccount.SplitUsername), or undefined. */
export function splitServiceAccountUsername(user: string): { namespace: string; name: string } | undefined {
  if (!user.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) return undefined;
  const parts = user.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key; // kept as sent when malformed, as upstream
  }
}

function describe(r: ImpersonationRequest): string {
  switch (r.kind) {
    case 'User':
    case 'Group':
      return `${r.kind} ${JSON.stringify(r.name)}`;
    case 'ServiceAccount':
      return `ServiceAccount ${JSON.stringify(`${r.namespace}/${r.name}`)}`;
    case 'UserExtra':
      return `UserExtra ${JSON.stringify(`${r.key}=${r.value}`)}`;
    case 'UID':
      return `UID ${JSON.stringify(r.uid)}`;
  }
}

/** The impersonation asked for by a request's headers (names lower-case, values per header line). */
export function impersonationRequests(headers: Readonly<Record<string, readonly string[] | undefined>>): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = headers[IMPERSONATE_USER]?.[0] ?? '';
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? { kind: 'ServiceAccount', ...sa } : { kind: 'User', name: user });
  }
  for (const g of headers[IMPERSONATE_GROUP] ?? []) out.push({ kind: 'Group', name: g });
  for (const [h, values] of Object.entries(headers)) {
    if (!h.startsWith(IMPERSONATE_EXTRA_PREFIX) || !values) continue;
    const key = unescapeExtraKey(h.slice(IMPERSONATE_EXTRA_PREFIX.length).toLowerCase());
    for (const value of values) out.push({ kind: 'UserExtra', key, value });
  }
  const uid = headers[IMPERSONATE_UID]?.[0] ?? '';
  if (uid) out.push({ kind: 'UID', uid });
  if (out.length > 0 && !user) throw badRequest(`requested [${out.map(describe).join(', ')}] without impersonating a user`);
  return out;
}

/**
 * The user a request acts as: the requestor itself without impersonation
 * headers; otherwise the impersonated user, after every part was allowed
 * (a 403 in upstream's words otherwise, naming the first refused part).
 */
export function impersonate(requestor: UserInfo, headers: Readonly<Record<string, readonly string[] | undefined>>, authorizer: Authorizer): UserInfo {
  const requests = impersonationRequests(headers);
  if (requests.length === 0) return requestor;
  // Groups given explicitly are the whole truth; otherwise a service account gets its fixed groups.
  const groupsSpecified = (headers[IMPERSONATE_GROUP]?.length ?? 0) > 0;
  let name = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    let attrs;
    switch (r.kind) {
      case 'ServiceAccount':
        attrs = resourceAttributes(requestor, 'impersonate', { group: '', version: 'v1', resource: 'serviceaccounts', namespace: r.namespace, name: r.name });
        name = `${SERVICE_ACCOUNT_USER_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = [GROUP_SERVICE_ACCOUNTS, `${SERVICE_ACCOUNT_GROUP_PREFIX}${r.namespace}`];
        break;
      case 'User':
        attrs = resourceAttributes(requestor, 'impersonate', { group: '', version: 'v1', resource: 'users', name: r.name });
        name = r.name;
        break;
      case 'Group':
        attrs = resourceAttributes(requestor, 'impersonate', { group: '', version: 'v1', resource: 'groups', name: r.name });
        groups.push(r.name);
        break;
      case 'UserExtra':
        attrs = resourceAttributes(requestor, 'impersonate', { group: 'authentication.k8s.io', version: 'v1', resource: 'userextras', subresource: r.key, name: r.value });
        (extra[r.key] ??= []).push(r.value);
        break;
      case 'UID':
        attrs = resourceAttributes(requestor, 'impersonate', { group: 'authentication.k8s.io', version: 'v1', resource: 'uids', name: r.uid });
        uid = r.uid;
        break;
    }
    const d = authorizer.authorize(attrs);
    if (d.decision !== 'Allow') throw forbiddenStatus(attrs, d.reason);
  }
  if (name !== USER_ANONYMOUS) {
    // A named user is authenticated unless the groups say otherwise.
    if (!groups.includes(GROUP_AUTHENTICATED) && !groups.includes(GROUP_UNAUTHENTICATED)) groups.push(GROUP_AUTHENTICATED);
  } else if (!groups.includes(GROUP_UNAUTHENTICATED)) groups.push(GROUP_UNAUTHENTICATED);
  const user: { name: string; uid?: string; groups: string[]; extra?: Record<string, string[]> } = { name, groups };
  if (uid !== undefined) user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
