// Which FlowSchema a request matches, and the flow it belongs to (upstream:
// apiserver/pkg/util/flowcontrol's matching.go and the configuration
// controller's Match): schemas in order of matchingPrecedence, then name;
// the first whose rules match the user and the request wins.

import {
  SERVICE_ACCOUNT_USER_PREFIX,
  type FlowNonResourcePolicyRule as NonResourcePolicyRule,
  type FlowResourcePolicyRule as ResourcePolicyRule,
  type FlowSchema,
  type FlowcontrolSubject as Subject,
  type UserInfo,
} from '@kubelab/api';
import type { AuthorizationAttributes } from '../authorization/types.js';

const precedence = (fs: FlowSchema) => fs.spec?.matchingPrecedence || 1000;

/** The schemas in the order requests are matched against them (one without a spec matches nothing). */
export function matchingOrder(schemas: readonly FlowSchema[]): FlowSchema[] {
  const name = (fs: FlowSchema) => fs.metadata.name ?? '';
  return schemas.filter((fs) => fs.spec).sort((a, b) => precedence(a) - precedence(b) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

export function subjectMatches(s: Subject, user: UserInfo): boolean {
  switch (s.kind) {
    case 'User':
      return !!s.user && (s.user.name === '*' || s.user.name === user.name);
    case 'Group':
      return !!s.group && (s.group.name === '*' || user.groups.includes(s.group.name));
    case 'ServiceAccount': {
      if (!s.serviceAccount) return false;
      const prefix = `${SERVICE_ACCOUNT_USER_PREFIX}${s.serviceAccount.namespace}:`;
      return user.name.startsWith(prefix) && (s.serviceAccount.name === '*' || user.name === prefix + s.serviceAccount.name);
    }
    default:
      return false;
  }
}

const has = (list: readonly string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

export function resourceRuleMatches(r: ResourcePolicyRule, a: AuthorizationAttributes): boolean {
  if (!has(r.verbs, a.verb) || !has(r.apiGroups, a.apiGroup)) return false;
  if (!has(r.resources, a.subresource ? `${a.resource}/${a.subresource}` : a.resource)) return false;
  // A request without a namespace (a cluster-scoped object, a list across namespaces) needs clusterScope.
  return a.namespace === '' ? r.clusterScope === true : has(r.namespaces, a.namespace);
}

/** A URL of a rule matches its own path and everything under it (`/healthz` also `/healthz/etcd`); `/apis/*` every path under /apis/. */
export function nonResourceURLMatches(ruleUrl: string, path: string): boolean {
  if (ruleUrl === '*' || ruleUrl === path) return true;
  let prefix = ruleUrl.endsWith('*') ? ruleUrl.slice(0, -1) : ruleUrl;
  if (!prefix.endsWith('/')) prefix += '/';
  return path.startsWith(prefix);
}

export function nonResourceRuleMatches(r: NonResourcePolicyRule, a: AuthorizationAttributes): boolean {
  if (!has(r.verbs, a.verb)) return false;
  return (r.nonResourceURLs ?? []).some((u) => nonResourceURLMatches(u, a.path));
}

export function schemaMatches(fs: FlowSchema, a: AuthorizationAttributes): boolean {
  return (fs.spec?.rules ?? []).some(
    (rule) =>
      (rule.subjects ?? []).some((s) => subjectMatches(s, a.user)) &&
      (a.resourceRequest ? (rule.resourceRules ?? []).some((r) => resourceRuleMatches(r, a)) : (rule.nonResourceRules ?? []).some((r) => nonResourceRuleMatches(r, a))),
  );
}

export interface Classification {
  schema: FlowSchema;
  /** The flow within the schema: the user (ByUser), the namespace (ByNamespace) or '' (one flow). */
  distinguisher: string;
}

/** The first schema (of `ordered`, as matchingOrder sorts them) matching the request; undefined when none does. */
export function classify(ordered: readonly FlowSchema[], a: AuthorizationAttributes): Classification | undefined {
  for (const schema of ordered) {
    if (!schemaMatches(schema, a)) continue;
    const method = schema.spec?.distinguisherMethod?.type;
    return { schema, distinguisher: method === 'ByUser' ? a.user.name : method === 'ByNamespace' ? a.namespace : '' };
  }
  return undefined;
}
