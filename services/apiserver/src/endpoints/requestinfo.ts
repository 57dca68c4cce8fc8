// What a REST path asks for (upstream: apiserver/pkg/endpoints/request.
// RequestInfoFactory): discovery, or a resource request with its group,
// version, namespace, resource, name, subresource and verb.

import { JWKS_PATH, OPENID_CONFIGURATION_PATH } from '@kubelab/serviceaccount';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourceRequest {
  kind: 'resource';
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  verb: Verb;
  /** For `proxy`: the path after `/proxy` as the client wrote it ('' when none, '/' kept), what the proxy forwards. */
  proxyPath?: string;
}

export type RequestInfo =
  | ResourceRequest
  | { kind: 'version' }
  | { kind: 'openIdConfiguration' }
  | { kind: 'openIdJwks' }
  | { kind: 'legacyVersions' }
  | { kind: 'groupList' }
  | { kind: 'group'; group: string }
  | { kind: 'resourceList'; group: string; version: string }
  | { kind: 'openapiV3Root' }
  | { kind: 'openapiV3'; key: string }
  | { kind: 'openapiV2' }
  | { kind: 'notFound' };

function isTrue(v: string | null): boolean {
  return v === 'true' || v === '1';
}

/** Parses method + URL into a RequestInfo. */
export function parseRequestInfo(method: string, url: URL): RequestInfo {
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 1 && parts[0] === 'version') return { kind: 'version' };
  if (url.pathname === OPENID_CONFIGURATION_PATH) return { kind: 'openIdConfiguration' };
  if (url.pathname === JWKS_PATH) return { kind: 'openIdJwks' };
  if (parts.length === 2 && parts[0] === 'openapi' && parts[1] === 'v2') return { kind: 'openapiV2' };
  if (parts[0] === 'openapi' && parts[1] === 'v3') {
    return parts.length === 2 ? { kind: 'openapiV3Root' } : { kind: 'openapiV3', key: parts.slice(2).join('/') };
  }
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { kind: 'legacyVersions' };
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { kind: 'groupList' };
    if (parts.length === 2) return { kind: 'group', group: parts[1]! };
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return { kind: 'notFound' };
  }
  if (rest.length === 0) return { kind: 'resourceList', group, version };

  let namespace: string | undefined;
  // namespaces/<ns>/<resource>/... — but namespaces/<name>[/status|finalize] is the namespace itself.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource, ...extra] = rest;
  // Only a proxy subresource takes a path of its own (upstream: ProxyREST's Connect with the path remainder).
  if (!resource || (extra.length > 0 && subresource !== 'proxy')) return { kind: 'notFound' };

  const watch = isTrue(url.searchParams.get('watch'));
  let verb: Verb;
  switch (method) {
    case 'GET':
      verb = name ? 'get' : watch ? 'watch' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name ? 'delete' : 'deletecollection';
      break;
    default:
      verb = 'get';
  }
  const info: ResourceRequest = { kind: 'resource', group, version, resource, verb };
  if (namespace !== undefined) info.namespace = namespace;
  if (name !== undefined) info.name = name;
  if (subresource !== undefined) info.subresource = subresource;
  if (subresource === 'proxy') info.proxyPath = pathAfter(url.pathname, parts.length - extra.length);
  return info;
}

/** The raw path after its first `count` non-empty segments ('' when nothing follows; a trailing `/` is kept). */
function pathAfter(pathname: string, count: number): string {
  let i = 0;
  for (let seen = 0; seen < count;) {
    while (pathname[i] === '/') i++;
    const next = pathname.indexOf('/', i);
    seen++;
    i = next === -1 ? pathname.length : next;
  }
  return pathname.slice(i);
}
