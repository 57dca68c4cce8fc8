// DELETE answers as upstream's stores give them: kinds whose store sets
// ReturnDeletedObject (pods, services, namespaces, serviceaccounts) answer the
// object; the rest a Status naming what was deleted, unless the delete is not
// finished (finalizers pending, orphan or foreground propagation), when the
// object is answered with its deletionTimestamp.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

type Body = Record<string, any>;

const CASES: [what: string, collection: string, object: Body, query: string, want: 'object' | 'status' | 'pending'][] = [
  ['a configmap: Status', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm1' } }, '', 'status'],
  ['a secret: Status', '/api/v1/namespaces/default/secrets', { metadata: { name: 's1' } }, '', 'status'],
  ['a deployment: Status with its group', '/apis/apps/v1/namespaces/default/deployments', deployment('d1'), '', 'status'],
  ['a clusterrole: Status', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'cr1' } }, '', 'status'],
  ['a node: Status', '/api/v1/nodes', { metadata: { name: 'n1' } }, '', 'status'],
  ['an unscheduled pod: the object', '/api/v1/namespaces/default/pods', { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, '', 'object'],
  ['a serviceaccount: the object', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'sa1' } }, '', 'object'],
  ['a service: the object', '/api/v1/namespaces/default/services', { metadata: { name: 'svc1' }, spec: { ports: [{ port: 80 }] } }, '', 'object'],
  ['a configmap with a finalizer: the object, pending', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm2', finalizers: ['example.com/hold'] } }, '', 'pending'],
  ['a configmap deleted with Orphan: the object, pending', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm3' } }, '?propagationPolicy=Orphan', 'pending'],
  ['a configmap deleted with Foreground: the object, pending', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm4' } }, '?propagationPolicy=Foreground', 'pending'],
];

function deployment(name: string): Body {
  const labels = { app: name };
  return { metadata: { name }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
}

describe.runIf(requireTool('nats-server'))('DELETE answers per kind', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
  }, 60_000);
  afterAll(() => c?.cleanup());

  it.each(CASES)('%s', async (_what, collection, object, query, want) => {
    const post = await c.rest(collection, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(object) });
    expect(post.status, post.body).toBe(201);
    const created = JSON.parse(post.body) as Body;
    const del = await c.rest(`${collection}/${object.metadata.name}${query}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    const body = JSON.parse(del.body) as Body;
    if (want === 'status') {
      const group = collection.startsWith('/apis/') ? collection.split('/')[2] : undefined;
      expect(body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: object.metadata.name, ...(group ? { group } : {}), kind: collection.split('/').at(-1), uid: created.metadata.uid },
      });
    } else {
      expect(body.kind).toBe(created.kind);
      expect(body.metadata.uid).toBe(created.metadata.uid);
      if (want === 'pending') expect(body.metadata.deletionTimestamp).toEqual(expect.any(String));
    }
  });
});
