// RBAC's privilege-escalation prevention through the secure port with real
// TLS (upstream's policybased storages): a user who may create roles and
// bindings may grant only what they hold, unless allowed `escalate` (roles)
// or `bind` (bindings); the 403 carries upstream's message.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

const G = 'rbac.authorization.k8s.io';
const ROLES = `/apis/${G}/v1/namespaces/dev/roles`;
const ROLE_BINDINGS = `/apis/${G}/v1/namespaces/dev/rolebindings`;
const HELD = 'user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n';

const forbidden = (resource: string, name: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `${resource}.${G} "${name}" is forbidden: ${message}`,
  reason: 'Forbidden',
  details: { name, group: G, kind: resource },
  code: 403,
});

describe.runIf(requireTool('nats-server'))('RBAC escalation prevention', () => {
  let c: TestCluster;
  let jane: { cert: string; key: string };
  /** A POST as jane, or as the admin (system:masters). */
  const post = async (path: string, body: unknown, who: 'jane' | 'admin' = 'jane') => {
    const r = await c.rest(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), ...(who === 'jane' ? { as: jane } : {}) });
    return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> };
  };
  const role = (name: string, rules: unknown[]) => ({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name }, rules });
  const binding = (name: string, kind: string, roleName: string, user: string) => ({
    apiVersion: `${G}/v1`,
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: G, kind, name: roleName },
    subjects: [{ apiGroup: G, kind: 'User', name: user }],
  });

  beforeAll(async () => {
    c = await startTestCluster({ rest: true, authorizationModes: ['Node', 'RBAC'] });
    jane = await c.pki.client({ commonName: 'jane' });
    const admin = 'admin';
    expect((await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } }, admin)).status).toBe(201);
    // jane may create roles and bindings in dev and read pods there: nothing more.
    const writer = role('role-writer', [
      { apiGroups: [G], resources: ['roles', 'rolebindings'], verbs: ['create'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ]);
    expect((await post(ROLES, writer, admin)).status).toBe(201);
    expect((await post(ROLE_BINDINGS, binding('jane-writer', 'Role', 'role-writer', 'jane'), admin)).status).toBe(201);
  }, 60_000);
  afterAll(() => c?.cleanup());

  it('lets jane create a Role with rules she holds', async () => {
    expect((await post(ROLES, role('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]))).status).toBe(201);
  });

  it('forbids a Role with rules she does not hold, naming them as upstream', async () => {
    const r = await post(ROLES, role('pod-admin', [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'delete'] }]));
    expect(r).toEqual({
      status: 403,
      body: forbidden('roles', 'pod-admin', `${HELD}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}`),
    });
  });

  it('forbids binding cluster-admin without bind, then allows it with bind on that role', async () => {
    const r = await post(ROLE_BINDINGS, binding('bob-admin', 'ClusterRole', 'cluster-admin', 'bob'));
    expect(r).toEqual({
      status: 403,
      body: forbidden('rolebindings', 'bob-admin', `${HELD}{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`),
    });
    expect((await post(ROLES, role('binder', [{ apiGroups: [G], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] }]), 'admin')).status).toBe(201);
    expect((await post(ROLE_BINDINGS, binding('jane-binder', 'Role', 'binder', 'jane'), 'admin')).status).toBe(201);
    expect((await post(ROLE_BINDINGS, binding('bob-admin', 'ClusterRole', 'cluster-admin', 'bob'))).status).toBe(201);
  });

  it('allows a Role with any rules once jane may escalate roles', async () => {
    expect((await post(ROLES, role('escalator', [{ apiGroups: [G], resources: ['roles'], verbs: ['escalate'] }]), 'admin')).status).toBe(201);
    expect((await post(ROLE_BINDINGS, binding('jane-escalator', 'Role', 'escalator', 'jane'), 'admin')).status).toBe(201);
    expect((await post(ROLES, role('secret-admin', [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }]))).status).toBe(201);
  });
});
