// rbac.authorization.k8s.io/v1 defaulting (pkg/apis/rbac/v1/defaults.go): a
// binding's roleRef.apiGroup, and a subject's apiGroup by its kind.
import { RBAC_GROUP, type ClusterRoleBinding, type RoleBinding, type Subject } from './types.js';

function defaultSubject(s: Subject): void {
  if (s.apiGroup) return;
  if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
}

export function defaultBinding(b: RoleBinding | ClusterRoleBinding): void {
  if (b.roleRef && typeof b.roleRef === 'object' && !b.roleRef.apiGroup) b.roleRef.apiGroup = RBAC_GROUP;
  if (Array.isArray(b.subjects)) for (const s of b.subjects) if (s && typeof s === 'object') defaultSubject(s);
}
