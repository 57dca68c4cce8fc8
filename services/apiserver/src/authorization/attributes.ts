// The attributes a REST request is authorized on (upstream: endpoints/filters.
// GetAuthorizerAttributes over the RequestInfo): a resource request with its
// verb, group, version, namespace, resource, subresource and name, or a
// non-resource request (every other path: /api, /apis, /version, /openapi/*,
// /healthz, /livez, /readyz, /metrics) with the lower-case HTTP method as verb.

import type { UserInfo } from '@kubelab/api';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import type { AuthorizationAttributes } from './types.js';

/** The value a list/watch pins with `fieldSelector=metadata.name=<x>` (upstream sets the request's name from it). */
function nameFromFieldSelector(selector: string | undefined): string | undefined {
  if (!selector) return undefined;
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m) return m[1];
  }
  return undefined;
}

export function requestAttributes(user: UserInfo, method: string, url: URL, info: RequestInfo): AuthorizationAttributes {
  if (info.kind !== 'resource') {
    return { user, verb: method.toLowerCase(), resourceRequest: false, path: url.pathname, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
  }
  const fieldSelector = url.searchParams.get('fieldSelector') ?? undefined;
  return resourceAttributes(user, info.verb, { ...info, fieldSelector }, url.pathname);
}

/** Attributes of a resource request (REST, gRPC methods, impersonation, the review APIs). */
export function resourceAttributes(
  user: UserInfo,
  verb: string,
  r: { group: string; version?: string | undefined; resource: string; subresource?: string | undefined; namespace?: string | undefined; name?: string | undefined; fieldSelector?: string | undefined },
  path = '',
): AuthorizationAttributes {
  let name = r.name ?? '';
  // A list or watch narrowed to one name is authorized as that name (upstream requestinfo.go).
  if (!name && (verb === 'list' || verb === 'watch')) name = nameFromFieldSelector(r.fieldSelector) ?? '';
  return {
    user,
    verb,
    resourceRequest: true,
    path,
    namespace: r.namespace ?? '',
    apiGroup: r.group,
    apiVersion: r.version ?? '',
    resource: r.resource,
    subresource: r.subresource ?? '',
    name,
    ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}),
  };
}
