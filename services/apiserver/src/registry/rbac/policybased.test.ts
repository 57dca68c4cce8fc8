import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, KubeObject, Role, RoleBinding, UserInfo } from '@kubelab/api';
import { RbacAuthorizer } from '../../authorization/rbac/authorizer.js';
import type { PolicySource } from '../../authorization/rbac/resolver.js';
import { superuserAuthorizer, unionAuthorizer } from '../../authorization/union.js';
import type { WriteCheck } from '../interface.js';
import { isOnlyMutatingGCFields, rbacWriteChecks } from './policybased.js';
import { outcome } from '../../testing/status.js';
import { clusterRole, crb, RBAC_GROUP, rb, role, rule, user } from '../../testing/rbac.js';

const G = RBAC_GROUP;

/** Fixed lists as RBAC's policy. */
function source(objs: KubeObject[]): PolicySource {
  const of = <T extends KubeObject>(kind: string) => objs.filter((o) => o.kind === kind) as T[];
  return {
    role: (ns, name) => of<Role>('Role').find((r) => r.metadata.namespace === ns && r.metadata.name === name),
    clusterRole: (name) => of<ClusterRole>('ClusterRole').find((r) => r.metadata.name === name),
    clusterRoleBindingsFor: () => of<ClusterRoleBinding>('ClusterRoleBinding'),
    roleBindingsFor: (_u, ns) => of<RoleBinding>('RoleBinding').filter((b) => b.metadata.namespace === ns),
  };
}

const CLUSTER_ADMIN = clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), { verbs: ['*'], nonResourceURLs: ['*'] }]);
const ROLE_WRITER = [rule(['create', 'update'], [G], ['roles', 'rolebindings', 'clusterroles']), rule(['get', 'list'], [''], ['pods'])];
const policy = [
  CLUSTER_ADMIN,
  // jane: writes roles and bindings in dev, reads pods there.
  role('dev', 'role-writer', ROLE_WRITER),
  rb('dev', 'jane-writer', 'Role', 'role-writer', [user('jane')]),
  // joe: the same, and may escalate roles in dev.
  role('dev', 'escalator', [...ROLE_WRITER, rule(['escalate'], [G], ['roles'])]),
  rb('dev', 'joe-escalator', 'Role', 'escalator', [user('joe')]),
  // ann: the same, and may bind cluster-admin in dev.
  role('dev', 'binder', [...ROLE_WRITER, rule(['bind'], [G], ['clusterroles'], ['cluster-admin'])]),
  rb('dev', 'ann-binder', 'Role', 'binder', [user('ann')]),
  // kim: writes cluster roles everywhere, holds only pod reads.
  clusterRole('cluster-role-writer', [rule(['create', 'update'], [G], ['clusterroles']), rule(['get'], [''], ['pods'])]),
  crb('kim-writer', 'cluster-role-writer', [user('kim')]),
];
const src = source(policy);
const checks = rbacWriteChecks({ authorizer: unionAuthorizer([superuserAuthorizer, new RbacAuthorizer(src)]), source: src });
const check = (resource: string): WriteCheck => checks.get(`${G}/${resource}`)!;
const as = (name: string, groups: string[] = ['system:authenticated']): UserInfo => ({ name, groups });

/** What a check says: 'ok' or the Status code and message. */

const HEAD = (who: string) => `user "${who}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n`;
const CLUSTER_ADMIN_MISSING = '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}';

describe('RBAC escalation prevention (policybased storage)', () => {
  it.each<[string, string, string, KubeObject, string]>([
    ['a Role with rules the writer holds', 'jane', 'roles', role('dev', 'reader', [rule(['get'], [''], ['pods'])]), 'ok'],
    [
      'a Role with rules the writer does not hold',
      'jane',
      'roles',
      role('dev', 'deleter', [rule(['get', 'delete'], [''], ['pods']), rule(['get'], [''], ['secrets'])]),
      `403 roles.rbac.authorization.k8s.io "deleter" is forbidden: ${HEAD('jane')}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`,
    ],
    ['a Role with rules not held, by a writer with escalate', 'joe', 'roles', role('dev', 'deleter', [rule(['delete'], [''], ['pods'])]), 'ok'],
    ['a Role with rules not held, by system:masters', 'admin', 'roles', role('dev', 'deleter', [rule(['delete'], [''], ['pods'])]), 'ok'],
    ['a RoleBinding to a Role the writer holds all of', 'jane', 'rolebindings', rb('dev', 'b', 'Role', 'role-writer', [user('bob')]), 'ok'],
    [
      'a RoleBinding to cluster-admin',
      'jane',
      'rolebindings',
      rb('dev', 'b', 'ClusterRole', 'cluster-admin', [user('bob')]),
      `403 rolebindings.rbac.authorization.k8s.io "b" is forbidden: ${HEAD('jane')}${CLUSTER_ADMIN_MISSING}`,
    ],
    ['a RoleBinding to cluster-admin, by a writer with bind on it', 'ann', 'rolebindings', rb('dev', 'b', 'ClusterRole', 'cluster-admin', [user('bob')]), 'ok'],
    ['a RoleBinding to a missing role', 'jane', 'rolebindings', rb('dev', 'b', 'Role', 'nope', [user('bob')]), '404 roles.rbac.authorization.k8s.io "nope" not found'],
    [
      'a ClusterRoleBinding to cluster-admin',
      'ann',
      'clusterrolebindings',
      crb('b', 'cluster-admin', [user('bob')]),
      `403 clusterrolebindings.rbac.authorization.k8s.io "b" is forbidden: ${HEAD('ann')}${CLUSTER_ADMIN_MISSING}`,
    ],
    ['a ClusterRole with rules the writer holds', 'kim', 'clusterroles', clusterRole('pod-reader', [rule(['get'], [''], ['pods'])]), 'ok'],
    [
      'an aggregated ClusterRole',
      'kim',
      'clusterroles',
      clusterRole('agg', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }),
      '403 clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    ],
  ])('create: %s (%s)', async (_what, who, resource, obj, want) => {
    const u = who === 'admin' ? as('admin', ['system:masters', 'system:authenticated']) : as(who);
    expect(await outcome(() => check(resource).create!(obj, obj.metadata.namespace ?? '', { user: u }))).toBe(want);
  });

  it('update: checks the new rules, but lets a change of only GC fields through', async () => {
    const old = role('dev', 'r', [rule(['delete'], [''], ['pods'])]);
    const moreRules = role('dev', 'r', [rule(['delete', 'create'], [''], ['pods'])]);
    expect(await outcome(() => check('roles').update!(moreRules, old, 'dev', { user: as('jane') }))).toBe(
      `403 roles.rbac.authorization.k8s.io "r" is forbidden: ${HEAD('jane')}{APIGroups:[""], Resources:["pods"], Verbs:["delete" "create"]}`,
    );
    const finalized = { ...old, metadata: { ...old.metadata, finalizers: ['x'], resourceVersion: '9' } };
    expect(await outcome(() => check('roles').update!(finalized, old, 'dev', { user: as('jane') }))).toBe('ok');
  });

  it('isOnlyMutatingGCFields (upstream IsOnlyMutatingGCFields)', () => {
    const o = role('dev', 'r', []);
    expect(isOnlyMutatingGCFields({ ...o, metadata: { ...o.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }] } }, o)).toBe(true);
    expect(isOnlyMutatingGCFields({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } } }, o)).toBe(false);
  });
});
