import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, KubeObject, Role, RoleBinding } from '../index.js';
import { invalid as invalidStatus, setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (obj: KubeObject, old?: KubeObject): string[] => validateObject(obj, old).map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
const RBAC = 'rbac.authorization.k8s.io/v1' as const;

function role(rules: Role['rules'], name = 'reader'): Role {
  return { apiVersion: RBAC, kind: 'Role', metadata: { name, namespace: 'default' }, rules };
}
function clusterRole(c: Partial<ClusterRole>): ClusterRole {
  return { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'x' }, ...c };
}
function rb(b: Partial<RoleBinding>): RoleBinding {
  const o = { apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'b', namespace: 'default' }, roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' }, ...b } as RoleBinding;
  setDefaults(o);
  return o;
}
function crb(b: Partial<ClusterRoleBinding>): ClusterRoleBinding {
  const o = { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' }, ...b } as ClusterRoleBinding;
  setDefaults(o);
  return o;
}

describe('rbac defaulting (pkg/apis/rbac/v1/defaults.go)', () => {
  it('fills roleRef.apiGroup and the apiGroup of User and Group subjects, not of ServiceAccounts', () => {
    const b = rb({
      subjects: [
        { kind: 'User', name: 'jane' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'default' },
      ],
    });
    expect(b.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    expect(b.subjects).toEqual([
      { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'ServiceAccount', name: 'default' },
    ]);
  });
});

describe('rbac validation (pkg/apis/rbac/validation)', () => {
  it.each<[string, KubeObject, string[]]>([
    ['a valid role', role([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), []],
    ['names are path segments, not DNS names', role([], 'system:controller:x'), []],
    ['a name may not contain /', role([], 'a/b'), ['metadata.name: Invalid value: "a/b": may not contain \'/\'']],
    ['a name may not be ..', role([], '..'), ['metadata.name: Invalid value: "..": may not be \'..\'']],
    [
      'a rule needs verbs, groups and resources',
      role([{ verbs: [] }]),
      [
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ],
    ],
    [
      'resourceNames apply to one resource',
      role([{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }]),
      ['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources'],
    ],
    [
      'a namespaced role has no non-resource URLs',
      role([{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]),
      ['rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs'],
    ],
    ['a cluster role may have non-resource URLs', clusterRole({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }] }), []],
    [
      'but not mixed with resources',
      clusterRole({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }] }),
      ['rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs'],
    ],
    [
      'an aggregation rule needs a selector',
      clusterRole({ aggregationRule: { clusterRoleSelectors: [] } }),
      ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'],
    ],
    ['a cluster role is not namespaced', clusterRole({ metadata: { name: 'x', namespace: 'default' } }), ['metadata.namespace: Forbidden: not allowed on this type']],
    ['a role binding may name a ClusterRole', rb({ subjects: [{ kind: 'ServiceAccount', name: 'default' }] }), []],
    [
      'roleRef must be of this group and a known kind',
      rb({ roleRef: { apiGroup: 'example.com', kind: 'Thing', name: '' } }),
      [
        'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
        'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
        'roleRef.name: Required value',
      ],
    ],
    [
      'a cluster role binding names a ClusterRole only',
      crb({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } }),
      ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    ],
    [
      'subject kinds are User, Group and ServiceAccount',
      rb({ subjects: [{ kind: 'Robot', name: 'r2' }] }),
      ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    ],
    [
      'a service account subject of a cluster role binding needs its namespace, and no apiGroup',
      crb({ subjects: [{ kind: 'ServiceAccount', name: 'default', apiGroup: 'rbac.authorization.k8s.io' }] }),
      ['subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""', 'subjects[0].namespace: Required value'],
    ],
    [
      'a user subject with another apiGroup',
      crb({ subjects: [{ kind: 'User', name: 'jane', apiGroup: 'example.com' }] }),
      ['subjects[0].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"'],
    ],
  ])('%s', (_name, obj, want) => {
    expect(messages(obj)).toEqual(want);
  });

  it('roleRef is immutable, with upstream message', () => {
    const old = rb({ metadata: { name: 'b', namespace: 'default', resourceVersion: '5' } });
    const next = rb({ metadata: { name: 'b', namespace: 'default', resourceVersion: '5' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' } });
    const err = invalidStatus('RoleBinding', 'rbac.authorization.k8s.io', 'b', validateObject(next, old));
    expect(err.status.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
    // Subjects may change.
    expect(messages(rb({ metadata: old.metadata, subjects: [{ kind: 'User', name: 'jane' }] }), old)).toEqual([]);
  });
});
