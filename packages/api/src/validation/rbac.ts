// Validation for rbac.authorization.k8s.io/v1 (pkg/apis/rbac/validation):
// names are path segments, rules say what they apply to, bindings refer to a
// role of this group and name User, Group or ServiceAccount subjects, and a
// binding's roleRef never changes.
import type { FieldError } from '../meta/status.js';
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Role, type RoleBinding, type RoleRef, type Subject } from '../rbac/v1/types.js';
import { child, goValue, index, invalid, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, pathSegmentName, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';

function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const len = (a: unknown) => (Array.isArray(a) ? a.length : 0);
  if (len(rule.verbs) === 0) errs.push(required(child(path, 'verbs'), 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    if (namespaced) errs.push(invalid(child(path, 'nonResourceURLs'), rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(invalid(child(path, 'nonResourceURLs'), rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  if (len(rule.resourceNames) > 0 && len(rule.resources) > 1) errs.push(required(child(path, 'resourceNames'), 'resource names cannot apply to multiple resources'));
  return errs;
}

function validateRules(rules: PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((r, i) => validatePolicyRule(r ?? ({} as PolicyRule), namespaced, index('rules', i)));
}

export function validateRole(role: Role): FieldError[] {
  return [...validateObjectMeta(role.metadata, true, pathSegmentName), ...validateRules(role.rules, true)];
}

export function validateClusterRole(role: ClusterRole): FieldError[] {
  const errs = [...validateObjectMeta(role.metadata, false, pathSegmentName), ...validateRules(role.rules, false)];
  const agg = role.aggregationRule;
  if (agg) {
    const path = 'aggregationRule.clusterRoleSelectors';
    if ((agg.clusterRoleSelectors ?? []).length === 0) errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    (agg.clusterRoleSelectors ?? []).forEach((sel, i) => errs.push(...validateLabelSelector(sel, index(path, i))));
  }
  return errs;
}

function validateSubject(s: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(required(child(path, 'name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name) for (const m of nameIsDNSSubdomain(s.name, false)) errs.push(invalid(child(path, 'name'), s.name, m));
      if (s.apiGroup) errs.push(notSupported(child(path, 'apiGroup'), s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(required(child(path, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (!s.name) errs.push(invalid(child(path, 'name'), s.name ?? '', `${s.kind.toLowerCase()} name cannot be empty`));
      if (s.apiGroup !== RBAC_GROUP) errs.push(notSupported(child(path, 'apiGroup'), s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(child(path, 'kind'), s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: RoleBinding | ClusterRoleBinding, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(b.metadata, namespaced, pathSegmentName);
  const ref = (b.roleRef ?? {}) as Partial<RoleRef>;
  if (ref.apiGroup !== RBAC_GROUP) errs.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind ?? '')) errs.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(required('roleRef.name'));
  else for (const m of pathSegmentName(ref.name, false)) errs.push(invalid('roleRef.name', ref.name, m));
  (b.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s ?? ({} as Subject), namespaced, index('subjects', i))));
  return errs;
}

/** The internal type as Go's %#v prints it in upstream's "cannot change roleRef" error. */
const roleRefValue = (r: Partial<RoleRef> | undefined) =>
  goValue(`rbac.RoleRef{APIGroup:${JSON.stringify(r?.apiGroup ?? '')}, Kind:${JSON.stringify(r?.kind ?? '')}, Name:${JSON.stringify(r?.name ?? '')}}`);

function validateBindingUpdate(b: RoleBinding | ClusterRoleBinding, old: RoleBinding | ClusterRoleBinding, namespaced: boolean): FieldError[] {
  const errs = [...validateBinding(b, namespaced).filter((e) => !e.field.startsWith('metadata.')), ...validateObjectMetaUpdate(b.metadata, old.metadata)];
  const [n, o] = [b.roleRef ?? ({} as Partial<RoleRef>), old.roleRef ?? ({} as Partial<RoleRef>)];
  if (n.apiGroup !== o.apiGroup || n.kind !== o.kind || n.name !== o.name) errs.push(invalid('roleRef', roleRefValue(n), 'cannot change roleRef'));
  return errs;
}

export const validateRoleBinding = (b: RoleBinding): FieldError[] => validateBinding(b, true);
export const validateClusterRoleBinding = (b: ClusterRoleBinding): FieldError[] => validateBinding(b, false);
export const validateRoleBindingUpdate = (b: RoleBinding, old: RoleBinding): FieldError[] => validateBindingUpdate(b, old, true);
export const validateClusterRoleBindingUpdate = (b: ClusterRoleBinding, old: ClusterRoleBinding): FieldError[] => validateBindingUpdate(b, old, false);

export const validateRoleUpdate = (r: Role, old: Role): FieldError[] => [...validateRole(r).filter((e) => !e.field.startsWith('metadata.')), ...validateObjectMetaUpdate(r.metadata, old.metadata)];
export const validateClusterRoleUpdate = (r: ClusterRole, old: ClusterRole): FieldError[] => [
  ...validateClusterRole(r).filter((e) => !e.field.startsWith('metadata.')),
  ...validateObjectMetaUpdate(r.metadata, old.metadata),
];
