// The request filters before any handler (upstream: the handler chain's
// WithImpersonation then WithAuthorization): the authenticated user,
// switched by impersonation headers, is authorized on the request's
// attributes; a refusal is answered 403 here and nothing else runs.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { GROUP_AUTHENTICATED, GROUP_MASTERS, type UserInfo } from '@kubelab/api';
import { parseRequestInfo } from '../endpoints/requestinfo.js';
import { withUser } from '../endpoints/request-user.js';
import { writeStatus } from '../endpoints/respond.js';
import { requestAttributes, resourceAttributes } from './attributes.js';
import { forbiddenStatus } from '@kubelab/component-base';
import { impersonate } from './impersonation.js';
import type { AuthorizationAttributes, Authorizer } from './types.js';

/**
 * Who a request is while no authenticator runs: upstream's insecure-port
 * superuser (`system:unsecured` in system:masters). Kept until the
 * authentication chain supplies `userOf`, so requests behave as before.
 */
export const INSECURE_SUPERUSER: UserInfo = Object.freeze({ name: 'system:unsecured', groups: Object.freeze([GROUP_MASTERS, GROUP_AUTHENTICATED]) });

export interface RequestAuthorization {
  authorizer: Authorizer;
  /** The authenticated user of a REST request; absent (or undefined): INSECURE_SUPERUSER. */
  userOf?: (req: IncomingMessage) => UserInfo | undefined;
}

/** Impersonation, then authorization: the request's attributes to go on with, undefined when it was answered (400/403). */
export function authorizeRequest(opts: RequestAuthorization, req: IncomingMessage, res: ServerResponse): AuthorizationAttributes | undefined {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://kubelab.invalid');
  let user = opts.userOf?.(req) ?? INSECURE_SUPERUSER;
  try {
    user = impersonate(user, req.headersDistinct, opts.authorizer);
  } catch (e) {
    writeStatus(res, e);
    return undefined;
  }
  withUser(req, user);
  const attrs = requestAttributes(user, method, url, parseRequestInfo(method, url));
  const d = opts.authorizer.authorize(attrs);
  if (d.decision === 'Allow') return attrs;
  writeStatus(res, forbiddenStatus(attrs, d.reason));
  return undefined;
}

/** A gRPC call's authorization: the attributes of the method's verb on its resource (returned), or the 403 thrown (PERMISSION_DENIED on the wire). */
export function authorizeCall(authorizer: Authorizer | undefined, user: UserInfo, verb: string, r: Parameters<typeof resourceAttributes>[2]): AuthorizationAttributes {
  const attrs = resourceAttributes(user, verb, r);
  if (!authorizer) return attrs;
  const d = authorizer.authorize(attrs);
  if (d.decision !== 'Allow') throw forbiddenStatus(attrs, d.reason);
  return attrs;
}
