// Which rules apply to a user in a namespace (upstream: pkg/registry/rbac/
// validation DefaultRuleResolver.VisitRulesFor): the rules of the role of
// every ClusterRoleBinding naming the user, then, for a namespaced request,
// of every RoleBinding in that namespace naming the user (a RoleBinding to a
// ClusterRole grants its rules in the binding's namespace only). A binding
// whose role is missing contributes an error, never rules: RBAC only adds.

import { SERVICE_ACCOUNT_USER_PREFIX, type UserInfo } from '@kubelab/api';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '@kubelab/api';

/** Where the resolver reads policy from (the watch cache in the apiserver, fixed lists in tests). */
export interface PolicySource {
  role(namespace: string, name: string): Role | undefined;
  clusterRole(name: string): ClusterRole | undefined;
  /** The ClusterRoleBindings that may name the user (at least all that do), in name order. */
  clusterRoleBindingsFor(user: UserInfo): readonly ClusterRoleBinding[];
  /** The RoleBindings of one namespace that may name the user (at least all that do), in name order. */
  roleBindingsFor(user: UserInfo, namespace: string): readonly RoleBinding[];
  /** Changes whenever any role or binding changes; a source without it is never memoized. */
  readonly generation?: number;
}

/** Which binding granted a rule, for the "allowed by" reason (upstream's clusterRoleBindingDescriber / roleBindingDescriber). */
export interface RuleSource {
  binding: RoleBinding | ClusterRoleBinding;
  subject: Subject;
}

/** Visits one rule (or one resolution error); returning false stops the walk. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

/** The user name a ServiceAccount subject stands for (serviceaccount.MakeUsername). */
export const serviceAccountUser = (namespace: string, name: string): string => `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;

/** Upstream appliesToUser: a ServiceAccount subject without namespace means the binding's namespace. */
export function subjectAppliesTo(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.name === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns !== '' && user.name === serviceAccountUser(ns, s.name);
    }
    default:
      return false;
  }
}

/** The first subject of a binding that applies to the user, if any (upstream appliesTo). */
export function firstApplyingSubject(user: UserInfo, subjects: readonly Subject[] | undefined, bindingNamespace: string): Subject | undefined {
  return (subjects ?? []).find((s) => s && subjectAppliesTo(user, s, bindingNamespace));
}

/** A lister's NotFound text, as the authorizer reports a dangling roleRef. */
const notFound = (resource: 'role' | 'clusterrole', name: string) => `${resource}.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`;

/** The rules a roleRef resolves to, or the error (upstream GetRoleReferenceRules). */
export function roleRefRules(src: PolicySource, ref: RoleRef, bindingNamespace: string): { rules: readonly PolicyRule[] } | { err: string } {
  switch (ref.kind) {
    case 'Role': {
      const r = bindingNamespace ? src.role(bindingNamespace, ref.name) : undefined;
      return r ? { rules: r.rules ?? [] } : { err: notFound('role', ref.name) };
    }
    case 'ClusterRole': {
      const r = src.clusterRole(ref.name);
      return r ? { rules: r.rules ?? [] } : { err: notFound('clusterrole', ref.name) };
    }
    default:
      return { err: `unsupported role reference kind: ${JSON.stringify(ref.kind)}` };
  }
}

function visitBindings(src: PolicySource, user: UserInfo, bindings: readonly (RoleBinding | ClusterRoleBinding)[], namespace: string, visit: RuleVisitor): boolean {
  for (const binding of bindings) {
    const subject = firstApplyingSubject(user, binding.subjects, namespace);
    if (!subject) continue;
    const resolved = roleRefRules(src, binding.roleRef ?? ({} as RoleRef), namespace);
    if ('err' in resolved) {
      if (!visit(undefined, undefined, resolved.err)) return false;
      continue;
    }
    const source: RuleSource = { binding, subject };
    for (const rule of resolved.rules) if (!visit(source, rule, undefined)) return false;
  }
  return true;
}

/** Upstream VisitRulesFor: cluster-wide bindings first, then the namespace's. */
export function visitRulesFor(src: PolicySource, user: UserInfo, namespace: string, visit: RuleVisitor): void {
  if (!visitBindings(src, user, src.clusterRoleBindingsFor(user), '', visit)) return;
  if (namespace) visitBindings(src, user, src.roleBindingsFor(user, namespace), namespace, visit);
}

/** `User "jane"`, `ServiceAccount "ci/default"` (upstream describeSubject). */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

/** `ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"`; RoleBindings as `"name/namespace"`. */
export function describeSource({ binding, subject }: RuleSource): string {
  const ns = binding.metadata.namespace ?? '';
  const ref = binding.roleRef;
  const what = ns ? `RoleBinding ${JSON.stringify(`${binding.metadata.name ?? ''}/${ns}`)}` : `ClusterRoleBinding ${JSON.stringify(binding.metadata.name ?? '')}`;
  return `${what} of ${ref.kind} ${JSON.stringify(ref.name)} to ${describeSubject(subject, ns)}`;
}

/** utilerrors.NewAggregate(errs).Error(): one error as is, several deduplicated in brackets. */
export function aggregateErrors(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  if (errs.length === 1 || unique.length === 1) return unique[0] ?? '';
  return unique.length ? `[${unique.join(', ')}]` : '';
}
