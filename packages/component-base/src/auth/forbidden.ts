// The 403 a refused request gets (upstream: endpoints/handlers/responsewriters
// Forbidden and forbiddenMessage → apierrors.NewForbidden): who could not do
// what, then the authorizers' reason, in a Status `<resource>[.<group>]
// ["<name>"] is forbidden: <why>` with details {name, group, kind}, or
// `forbidden: <why>` for a path. The apiserver's REST and gRPC filters and
// the components' secure ports answer with it.

import { StatusError, type Status } from '@kubelab/api';
import type { Attributes } from './types.js';

/** What the message names (the apiserver's and the components' attributes both have it). */
export type ForbiddenAttributes = Pick<Attributes, 'user' | 'verb' | 'resourceRequest' | 'path' | 'namespace' | 'apiGroup' | 'resource' | 'subresource' | 'name'>;

/** Upstream escapes what could read as HTML in the part built from the request (quotes stay). */
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Go's %q of a string (the names here are printable; JSON quoting matches for them). */
const q = (s: string): string => JSON.stringify(s);

function describeRequest(a: ForbiddenAttributes): string {
  const user = a.user?.name ?? '';
  if (!a.resourceRequest) return `User ${q(user)} cannot ${a.verb} path ${q(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${q(a.namespace)}` : 'at the cluster scope';
  return `User ${q(user)} cannot ${a.verb} resource ${q(resource)} in API group ${q(a.apiGroup)} ${scope}`;
}

/**
 * `User "jane" cannot list resource "pods" in API group "" in the namespace "default"`,
 * `User "x" cannot get path "/api"`; a non-empty reason follows after `: `.
 */
export function forbiddenMessage(a: ForbiddenAttributes, reason = ''): string {
  const msg = sanitize(describeRequest(a));
  return reason ? `${msg}: ${reason}` : msg;
}

export function forbiddenStatus(a: ForbiddenAttributes, reason: string): StatusError {
  const why = forbiddenMessage(a, reason);
  const details: NonNullable<Status['details']> = {};
  let message: string;
  if (!a.resourceRequest || !a.resource) message = `forbidden: ${why}`;
  else {
    const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
    message = a.name ? `${qualified} ${JSON.stringify(a.name)} is forbidden: ${why}` : `${qualified} is forbidden: ${why}`;
    if (a.name) details.name = a.name;
    if (a.apiGroup) details.group = a.apiGroup;
    details.kind = a.resource;
  }
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
}
