// Privilege-escalation prevention (upstream: pkg/registry/rbac/validation
// ConfirmNoEscalation and CompactRules, pkg/registry/rbac/escalation_check.go,
// pkg/apis/rbac/v1 CompactString): a user may write a role, or bind one,
// only with permissions they already hold, unless system:masters, allowed
// `escalate` on the role resource (roles) or `bind` on the role (bindings).
// Pure decisions; the registry's policy-based check (registry/rbac/
// policybased.ts) asks them.

import { goQuotedList, type PolicyRule, type RoleRef, GROUP_MASTERS, type UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes } from '../types.js';
import { covers } from './covers.js';
import { visitRulesFor, type PolicySource } from './resolver.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** system:masters may write any role: the apiserver's own loopback identity is in it (upstream EscalationAllowed). */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(GROUP_MASTERS);
}

/** Every rule that applies to the user in the namespace (cluster-wide ones too), and the resolution errors (upstream RulesFor). */
export function rulesFor(source: PolicySource, user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(source, user, namespace, (_s, rule, err) => {
    if (rule) rules.push(rule);
    if (err) errors.push(err);
    return true;
  });
  return { rules, errors };
}

/** A one-group, one-resource rule with verbs only: the kind CompactRules merges. */
const isSimple = (r: PolicyRule): boolean => (r.apiGroups ?? []).length === 1 && (r.resources ?? []).length === 1 && !(r.resourceNames ?? []).length && !(r.nonResourceURLs ?? []).length;

/** Merges simple rules that differ only by verb (upstream CompactRules); the others stay as they are. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    if (!isSimple(r)) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0]]);
    const seen = simple.get(key);
    if (seen) seen.verbs.push(...r.verbs);
    else simple.set(key, { apiGroups: [...r.apiGroups!], resources: [...r.resources!], verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`: the fields that are set, in upstream's order (CompactString). */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const field = (name: string, v: readonly string[] | undefined) => {
    if ((v ?? []).length) parts.push(`${name}:${goQuotedList(v)}`);
  };
  field('APIGroups', r.apiGroups);
  field('Resources', r.resources);
  field('NonResourceURLs', r.nonResourceURLs);
  field('ResourceNames', r.resourceNames);
  field('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * Undefined when the rules the user holds cover `rules`; otherwise upstream's
 * text: `user "jane" (groups=["system:authenticated"]) is attempting to grant
 * RBAC permissions not currently held:` and each missing rule, compacted,
 * sorted, one a line, then any resolution errors.
 */
export function confirmNoEscalation(user: UserInfo, held: { rules: readonly PolicyRule[]; errors: readonly string[] }, rules: readonly PolicyRule[]): string | undefined {
  const { covered, missing } = covers(held.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // Go's %v of an []error: `[a b]`.
  if (held.errors.length) msg += `; resolution errors: [${held.errors.join(' ')}]`;
  return msg;
}

/** What `bind` on a roleRef is asked as (upstream BindingAuthorized): in the binding's namespace ("" for a ClusterRoleBinding). */
export function bindAttributes(user: UserInfo, ref: RoleRef, bindingNamespace: string): AuthorizationAttributes | undefined {
  const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return undefined;
  return { user, verb: 'bind', resourceRequest: true, path: '', namespace: bindingNamespace, apiGroup: ref.apiGroup ?? '', apiVersion: '', resource, subresource: '', name: ref.name };
}

/** What `escalate` on the role being written is asked as (upstream RoleEscalationAuthorized: the request's name, any version). */
export function escalateAttributes(user: UserInfo, resource: 'roles' | 'clusterroles', namespace: string, name: string): AuthorizationAttributes {
  return { user, verb: 'escalate', resourceRequest: true, path: '', namespace, apiGroup: RBAC_GROUP, apiVersion: '*', resource, subresource: '', name };
}

/** The rules that fully authorize anything: what setting a ClusterRole's aggregationRule needs (upstream fullAuthority). */
export const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];
