// The default RBAC policy as a started apiserver writes it (the
// rbac/bootstrap-roles hook), read back by the RBAC authorizer over the
// apiserver's own watch cache.

import { ANONYMOUS, type ClusterRole, type ClusterRoleBinding, type KubeObject, type UserInfo } from '@kubelab/api';
import { requireTool } from '@kubelab/testing';
import { describe, expect, it } from 'vitest';
import { APISERVER } from '../src/authentication/user.js';
import { ensureRbacPolicy } from '../src/authorization/rbac/bootstrap/ensure.js';
import { createRbacAuthorizer } from '../src/authorization/rbac/index.js';
import type { AuthorizationAttributes } from '../src/authorization/types.js';
import { api, gvr } from '../src/testing/index.js';
import { useTestCluster } from './harness.js';

const CR = gvr('clusterroles', 'rbac.authorization.k8s.io');
const CRB = gvr('clusterrolebindings', 'rbac.authorization.k8s.io');
const RB = gvr('rolebindings', 'rbac.authorization.k8s.io');
const ctx = { user: APISERVER, fieldManager: 'kube-apiserver' };

const res = (user: UserInfo, verb: string, group: string, resource: string, namespace = ''): AuthorizationAttributes => ({
  user,
  verb,
  resourceRequest: true,
  path: '',
  namespace,
  apiGroup: group,
  apiVersion: 'v1',
  resource,
  subresource: '',
  name: '',
});
const path = (user: UserInfo, p: string): AuthorizationAttributes => ({
  user,
  verb: 'get',
  resourceRequest: false,
  path: p,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
});

const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'] };

describe.runIf(requireTool('nats-server'))('the bootstrap RBAC policy', () => {
  const t = useTestCluster();

  it('exists after start, with upstream names, labels and rules', async () => {
    const roles = (await t.k.list<ClusterRole>(CR)).items;
    const names = roles.map((r) => r.metadata.name);
    for (const n of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:basic-user',
      'system:discovery',
      'system:public-info-viewer',
      'system:node',
      'system:node-proxier',
      'system:kube-scheduler',
      'system:kube-controller-manager',
      'system:controller:deployment-controller',
      'kubeadm:get-nodes',
    ]) {
      expect(names).toContain(n);
    }
    const piv = roles.find((r) => r.metadata.name === 'system:public-info-viewer')!;
    expect([piv.metadata.labels, piv.metadata.annotations, piv.rules]).toEqual([
      { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
      [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }],
    ]);
    const bindings = (await t.k.list<ClusterRoleBinding>(CRB)).items;
    expect(bindings.find((b) => b.metadata.name === 'system:kube-scheduler')!.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-scheduler' }]);
    expect(bindings.find((b) => b.metadata.name === 'kubeadm:kubelet-bootstrap')!.roleRef.name).toBe('system:node-bootstrapper');
    const rbs = (await t.k.list<KubeObject>(RB, 'kube-system')).items.map((b) => b.metadata.name);
    expect(rbs).toEqual(expect.arrayContaining(['system::leader-locking-kube-scheduler', 'system::extension-apiserver-authentication-reader', 'kube-proxy']));
  });

  it('grants what upstream grants', async () => {
    const authz = createRbacAuthorizer(t.c.apiserver.cache);
    // The clusterrole-aggregation controller's work, done here by hand: view and edit get the rules of what they select.
    const roles = (await t.k.list<ClusterRole>(CR)).items;
    const union = (label: string) => roles.filter((r) => r.metadata.labels?.[label] === 'true').flatMap((r) => r.rules ?? []);
    const view = union('rbac.authorization.k8s.io/aggregate-to-view');
    await t.k.patch(CR, '', 'view', { rules: view });
    await t.k.patch(CR, '', 'edit', { rules: [...union('rbac.authorization.k8s.io/aggregate-to-edit'), ...view] });
    await t.k.create(gvr('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } });
    const binding = (name: string, role: string, user: string) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace: 'web' },
      roleRef: { kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'User', name: user }],
    });
    await t.k.create(RB, 'web', binding('jane-view', 'view', 'jane'));
    await t.k.create(RB, 'web', binding('joe-edit', 'edit', 'joe'));
    const joe: UserInfo = { name: 'joe', groups: ['system:authenticated'] };
    await t.c.apiserver.cache.waitConsistent();

    expect(authz.authorize(path(ANONYMOUS, '/healthz'))).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"',
    });
    expect(authz.authorize(path(ANONYMOUS, '/api')).decision).toBe('NoOpinion');
    expect(authz.authorize(path(jane, '/apis/apps/v1')).decision).toBe('Allow');
    expect(authz.authorize(res(APISERVER, 'deletecollection', 'apps', 'deployments', 'x')).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
    );
    expect(authz.authorize(res(jane, 'list', '', 'pods', 'web')).decision).toBe('Allow');
    expect(authz.authorize(res(jane, 'get', '', 'secrets', 'web')).decision).toBe('NoOpinion');
    expect(authz.authorize(res(jane, 'list', '', 'pods', 'default')).decision).toBe('NoOpinion');
    expect(authz.authorize(res(joe, 'create', 'apps', 'deployments', 'web')).decision).toBe('Allow');
    expect(authz.authorize(res(joe, 'get', '', 'secrets', 'web')).decision).toBe('Allow');
    expect(authz.authorize(res({ name: 'system:kube-scheduler', groups: ['system:authenticated'] }, 'create', '', 'pods', 'web')).decision).toBe('NoOpinion');
    authz.stop();
  });

  it('is idempotent, restores a deleted rule or subject, and leaves autoupdate=false alone', async () => {
    expect(await ensureRbacPolicy(t.c.apiserver.registry, ctx)).toEqual({ created: [], updated: [], recreated: [], protected: [] });

    const basic = await t.k.get<ClusterRole>(CR, '', 'system:basic-user');
    await t.k.update(CR, '', { ...basic, rules: basic.rules!.slice(0, 1) } as ClusterRole);
    const proxier = await t.k.get<ClusterRoleBinding>(CRB, '', 'system:node-proxier');
    await t.k.update(CRB, '', { ...proxier, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone-else' }] } as ClusterRoleBinding);
    const disco = await t.k.get<ClusterRole>(CR, '', 'system:discovery');
    await t.k.update(CR, '', {
      ...disco,
      metadata: { ...disco.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/api'] }],
    } as ClusterRole);
    await t.k.delete(CRB, '', 'system:monitoring');
    await t.c.apiserver.cache.waitConsistent();

    expect(await ensureRbacPolicy(t.c.apiserver.registry, ctx)).toEqual({
      created: ['clusterrolebindings/system:monitoring'],
      updated: ['clusterroles/system:basic-user', 'clusterrolebindings/system:node-proxier'],
      recreated: [],
      protected: ['clusterroles/system:discovery'],
    });
    expect((await t.k.get<ClusterRole>(CR, '', 'system:basic-user')).rules).toEqual(basic.rules);
    expect((await t.k.get<ClusterRoleBinding>(CRB, '', 'system:node-proxier')).subjects!.map((s) => s.name)).toEqual(['someone-else', 'system:kube-proxy']);
    expect((await t.k.get<ClusterRole>(CR, '', 'system:discovery')).rules).toEqual([{ verbs: ['get'], nonResourceURLs: ['/api'] }]);
  });

  it('a restarted apiserver writes nothing', async () => {
    const before = (await t.k.list<ClusterRole>(CR)).items.map((r) => `${r.metadata.name}@${r.metadata.resourceVersion}`);
    await t.c.restartApiserver();
    const k = api(t.c.client());
    const after = (await k.list<ClusterRole>(CR)).items.map((r) => `${r.metadata.name}@${r.metadata.resourceVersion}`);
    expect(after).toEqual(before);
  });
});
