// Tiny builders of RBAC objects for table tests (the authorizer's, the
// escalation checks').

import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '@kubelab/api';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const V = `${RBAC_GROUP}/v1` as const;

export const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });
export const clusterRole = (name: string, rules: ClusterRole['rules'], extra: Partial<ClusterRole> = {}): ClusterRole => ({ apiVersion: V, kind: 'ClusterRole', metadata: { name }, rules, ...extra });
export const role = (namespace: string, name: string, rules: Role['rules']): Role => ({ apiVersion: V, kind: 'Role', metadata: { name, namespace }, rules });
export const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const sa = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, ...(namespace ? { namespace } : {}) });
export const crb = (name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding => ({
  apiVersion: V,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
  subjects,
});
export const rb = (namespace: string, name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): RoleBinding => ({
  apiVersion: V,
  kind: 'RoleBinding',
  metadata: { name, namespace },
  roleRef: { apiGroup: RBAC_GROUP, kind, name: roleName },
  subjects,
});
