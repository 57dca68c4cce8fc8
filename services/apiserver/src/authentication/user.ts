// Who a request is (upstream: k8s.io/apiserver/pkg/authentication/user.Info),
// as the authenticators produce it and authorization and admission read it.

import { GROUP_AUTHENTICATED, GROUP_MASTERS, GROUP_NODES, NODE_USER_PREFIX, USER_APISERVER, type UserInfo } from '@kubelab/api';

// The shape and the well-known names are @kubelab/api's (shared with the kubelet's authenticators): import them from there.

/** The apiserver's own loopback identity (upstream: the loopback client's system:apiserver in system:masters). */
export const APISERVER: UserInfo = Object.freeze({ name: USER_APISERVER, groups: Object.freeze([GROUP_AUTHENTICATED, GROUP_MASTERS]) });

/** The node name of a kubelet's identity (`system:node:<name>` in `system:nodes`), or undefined. */
export function nodeNameOf(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(GROUP_NODES)) return undefined;
  const name = user.name.slice(NODE_USER_PREFIX.length);
  return name || undefined;
}
