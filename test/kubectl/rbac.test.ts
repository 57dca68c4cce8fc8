// kubectl 1.32 against kubelab's RBAC API: the bootstrap policy as
// `get`/`describe` show it, the typed create commands (sent as protobuf),
// the wide binding columns and the immutable roleRef.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

describe.skipIf(!run)('kubectl 1.32: RBAC', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists the four kinds, without short names', async () => {
    const lines = squash((await c.kubectl(['api-resources', '--api-group=rbac.authorization.k8s.io'])).stdout);
    expect(lines).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'clusterrolebindings rbac.authorization.k8s.io/v1 false ClusterRoleBinding',
      'clusterroles rbac.authorization.k8s.io/v1 false ClusterRole',
      'rolebindings rbac.authorization.k8s.io/v1 true RoleBinding',
      'roles rbac.authorization.k8s.io/v1 true Role',
    ]);
  });

  it('get clusterroles: NAME, CREATED AT; the bootstrap policy is there', async () => {
    const lines = squash((await c.kubectl(['get', 'clusterroles'])).stdout);
    expect(lines[0]).toBe('NAME CREATED AT');
    const names = lines.slice(1).map((l) => l.split(' ')[0]);
    expect(names).toEqual(expect.arrayContaining(['admin', 'cluster-admin', 'edit', 'view', 'system:basic-user', 'system:node', 'system:public-info-viewer']));
    expect(lines.find((l) => l.startsWith('cluster-admin '))).toMatch(/^cluster-admin \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('describe clusterrole shows the rules', async () => {
    const r = await c.kubectl(['describe', 'clusterrole', 'system:public-info-viewer']);
    expect(squash(r.stdout)).toEqual([
      'Name: system:public-info-viewer',
      'Labels: kubernetes.io/bootstrapping=rbac-defaults',
      'Annotations: rbac.authorization.kubernetes.io/autoupdate: true',
      'PolicyRule:',
      'Resources Non-Resource URLs Resource Names Verbs',
      '--------- ----------------- -------------- -----',
      '[/healthz] [] [get]',
      '[/livez] [] [get]',
      '[/readyz] [] [get]',
      '[/version/] [] [get]',
      '[/version] [] [get]',
    ]);
  });

  it('create rolebinding, get rolebindings -o wide, and roleRef may not change', async () => {
    const created = await c.kubectl(['create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane', '--group=devs', '--serviceaccount=default:ci']);
    expect(created.stdout).toBe('rolebinding.rbac.authorization.k8s.io/jane-view created\n');
    const lines = squash((await c.kubectl(['get', 'rolebindings', '-o', 'wide'])).stdout);
    expect(lines[0]).toBe('NAME ROLE AGE USERS GROUPS SERVICEACCOUNTS');
    expect(lines[1]).toMatch(/^jane-view ClusterRole\/view \d+s jane devs default\/ci$/);
    expect(squash((await c.kubectl(['get', 'clusterrolebinding', 'cluster-admin'])).stdout)[1]).toMatch(/^cluster-admin ClusterRole\/cluster-admin \d+[sm]$/);
    const patched = await c.kubectl(['patch', 'rolebinding', 'jane-view', '--type=merge', '-p', '{"roleRef":{"name":"edit"}}']);
    expect(patched.stderr).toBe(
      'The RoleBinding "jane-view" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef\n',
    );
  });

  it('create role with resource names; describe role', async () => {
    expect((await c.kubectl(['create', 'role', 'settings-editor', '--verb=get,update', '--resource=configmaps', '--resource-name=settings'])).stdout).toBe(
      'role.rbac.authorization.k8s.io/settings-editor created\n',
    );
    expect(squash((await c.kubectl(['describe', 'role', 'settings-editor'])).stdout).slice(-3)).toEqual([
      'Resources Non-Resource URLs Resource Names Verbs',
      '--------- ----------------- -------------- -----',
      'configmaps [] [settings] [get update]',
    ]);
  });
});
