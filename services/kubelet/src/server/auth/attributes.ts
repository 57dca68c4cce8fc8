// Which API permission a kubelet request needs (upstream
// pkg/kubelet/server/auth.go, nodeAuthorizerAttributesGetter): every path is
// the node's `proxy` subresource, except /stats, /metrics and /logs, which
// have their own so they can be granted apart. The verb is the HTTP
// method's API verb.

import type { Attributes, UserInfo } from '@kubelab/component-base';

const VERBS: Record<string, string> = { POST: 'create', GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** Whether `path` is `prefix` or below it (upstream isSubpath). */
export function isSubpath(path: string, prefix: string): boolean {
  const p = prefix.replace(/\/$/, '');
  return path === p || (path.startsWith(p) && path[p.length] === '/');
}

const SUBRESOURCE_BY_PREFIX: readonly [string, string][] = [
  ['/stats/', 'stats'],
  ['/metrics', 'metrics'],
  // "log" as pods/log names it.
  ['/logs/', 'log'],
];

export function nodeRequestAttributes(user: UserInfo, method: string, path: string, nodeName: string): Attributes {
  const subresource = SUBRESOURCE_BY_PREFIX.find(([prefix]) => isSubpath(path, prefix))?.[1] ?? 'proxy';
  return { user, verb: VERBS[method] ?? '', resourceRequest: true, namespace: '', apiGroup: '', apiVersion: 'v1', resource: 'nodes', subresource, name: nodeName, path };
}
