// What a request to metrics-server's API asks (upstream: the generic
// apiserver's RequestInfoFactory over metrics-server's two resources), and
// the attributes its SubjectAccessReview names.

import type { Attributes, UserInfo } from '@kubelab/component-base';
import { GROUP, VERSION } from './convert.js';

export type MetricsRequest = { kind: 'resourceList' } | { kind: 'group' } | { kind: 'nodes'; name?: string } | { kind: 'pods'; namespace?: string; name?: string } | { kind: 'other' };

/** The request a path is: discovery, nodes or pods (a list, or one by name), or anything else. */
export function parseMetricsPath(pathname: string): MetricsRequest {
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0] !== 'apis' || parts[1] !== GROUP) return { kind: 'other' };
  if (parts.length === 2) return { kind: 'group' };
  if (parts[2] !== VERSION) return { kind: 'other' };
  const rest = parts.slice(3);
  if (rest.length === 0) return { kind: 'resourceList' };
  if (rest[0] === 'nodes' && rest.length <= 2) return { kind: 'nodes', ...(rest[1] ? { name: rest[1] } : {}) };
  if (rest[0] === 'pods' && rest.length === 1) return { kind: 'pods' };
  if (rest[0] === 'namespaces' && rest[1] && rest[2] === 'pods' && rest.length <= 4) return { kind: 'pods', namespace: rest[1], ...(rest[3] ? { name: rest[3] } : {}) };
  return { kind: 'other' };
}

/** The authorization attributes: a resource request for nodes and pods, a path otherwise. */
export function attributesOf(user: UserInfo, method: string, pathname: string, r: MetricsRequest): Attributes {
  const base = { user, path: pathname, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
  if (r.kind !== 'nodes' && r.kind !== 'pods') return { ...base, verb: method.toLowerCase(), resourceRequest: false };
  const verb = method === 'GET' ? (r.name ? 'get' : 'list') : method.toLowerCase();
  return { ...base, verb, resourceRequest: true, apiGroup: GROUP, apiVersion: VERSION, resource: r.kind, namespace: r.kind === 'pods' ? (r.namespace ?? '') : '', name: r.name ?? '' };
}
