// rbac.authorization.k8s.io/v1 (k8s.io/api/rbac/v1): Role, ClusterRole, RoleBinding, ClusterRoleBinding.
import type { KubeList, KubeObject, LabelSelector, ObjectMeta } from '../../meta/types.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Annotation that lets the apiserver's bootstrap reconciliation add missing rules and subjects (rbacv1.AutoUpdateAnnotationKey). */
export const ANNOTATION_AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Role extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'Role';
  metadata: ObjectMeta;
  rules?: PolicyRule[];
}
export type RoleList = KubeList<Role>;

export interface ClusterRole extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'ClusterRole';
  metadata: ObjectMeta;
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}
export type ClusterRoleList = KubeList<ClusterRole>;

export type SubjectKind = 'User' | 'Group' | 'ServiceAccount';

export interface Subject {
  kind: SubjectKind | (string & {});
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | (string & {});
  name: string;
}

export interface RoleBinding extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'RoleBinding';
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}
export type RoleBindingList = KubeList<RoleBinding>;

export interface ClusterRoleBinding extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'ClusterRoleBinding';
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}
export type ClusterRoleBindingList = KubeList<ClusterRoleBinding>;
