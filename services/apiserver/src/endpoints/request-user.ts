// The user a request acts as, once authentication and impersonation have run
// (upstream: endpoints/request.WithUser / UserFrom on the request context).

import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '@kubelab/api';

const users = new WeakMap<IncomingMessage, UserInfo>();

export function withUser(req: IncomingMessage, user: UserInfo): void {
  users.set(req, user);
}

/** The request's user, undefined when no filter set one (authorization off, as in handler unit tests). */
export function userFrom(req: IncomingMessage): UserInfo | undefined {
  return users.get(req);
}
