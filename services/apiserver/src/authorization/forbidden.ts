// The text of a 403 (upstream: endpoints/handlers/responsewriters/errors.go
// forbiddenMessage and Forbidden): who could not do what, then the
// authorizers' reason. The REST and gRPC wiring wrap it in the
// `<resource> is forbidden: ...` Status of apierrors.NewForbidden.

import type { AuthorizationAttributes } from './types.js';

/** Upstream escapes what could read as HTML in the part built from the request (quotes stay). */
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Go's %q of a string (the names here are printable; JSON quoting matches for them). */
const q = (s: string): string => JSON.stringify(s);

function describeRequest(a: AuthorizationAttributes): string {
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
export function forbiddenMessage(a: AuthorizationAttributes, reason = ''): string {
  const msg = sanitize(describeRequest(a));
  return reason ? `${msg}: ${reason}` : msg;
}
