import { describe, expect, it } from 'vitest';
import { lookupResource, StatusError, type KubeObject } from '@kubelab/api';
import { forbiddenLabels, nodeRestriction } from './node-restriction.js';
import type { AdmissionAttributes, Operation } from './types.js';

const kubelet = (n: string) => ({ name: `system:node:${n}`, groups: ['system:nodes', 'system:authenticated'] });
const NODE_1 = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'uid-node-1' }, spec: {} } as KubeObject;
const POD_ON = (n: string): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'uid-web', labels: { app: 'web' } }, spec: { nodeName: n, containers: [] } }) as KubeObject;

const plugin = nodeRestriction({
  getNode: (name) => (name === 'node-1' ? NODE_1 : undefined),
  getPod: (ns, name) => (ns === 'default' && name === 'web' ? POD_ON('node-1') : undefined),
});

function attrs(
  user: { name: string; groups: string[] } | undefined,
  op: Operation,
  resource: string,
  r: { group?: string; namespace?: string; name?: string; subresource?: string; object?: unknown; oldObject?: unknown },
): AdmissionAttributes {
  const info = lookupResource(r.group ?? '', 'v1', resource) ?? { ...lookupResource('', 'v1', 'pods')!, group: r.group ?? '', resource };
  const a: AdmissionAttributes = {
    operation: op,
    info,
    namespace: r.namespace ?? '',
    name: r.name ?? '',
    ctx: user ? { user } : {},
    dryRun: false,
    onRollback: () => undefined,
    onCommit: () => undefined,
  };
  if (r.subresource) a.subresource = r.subresource;
  if (r.object) a.object = r.object as KubeObject;
  if (r.oldObject) a.oldObject = r.oldObject as KubeObject;
  return a;
}

/** The refusal's message, or 'admitted'. */
function run(a: AdmissionAttributes): string {
  try {
    void plugin.admit!(a);
    return 'admitted';
  } catch (e) {
    if (!StatusError.isInstance(e)) throw e;
    expect(e.code).toBe(e.status.reason === 'NotFound' ? 404 : 403);
    return e.status.message ?? '';
  }
}

const mirror = (over: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'static-web-node-1',
    namespace: 'default',
    annotations: { 'kubernetes.io/config.mirror': 'hash' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'uid-node-1', controller: true }],
    ...over,
  },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i' }], ...spec },
});
const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = []) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { taints } });

describe('NodeRestriction', () => {
  it.each<[string, AdmissionAttributes, string]>([
    ['other users pass', attrs({ name: 'jane', groups: [] }, 'UPDATE', 'nodes', { name: 'node-2', object: node('node-2'), oldObject: node('node-2') }), 'admitted'],
    ['requests without a user pass', attrs(undefined, 'DELETE', 'pods', { namespace: 'default', name: 'web', oldObject: POD_ON('node-2') }), 'admitted'],
    // nodes
    [
      'kubelet-1 patching node-2',
      attrs(kubelet('node-1'), 'UPDATE', 'nodes', { name: 'node-2', object: node('node-2', { x: 'y' }), oldObject: node('node-2') }),
      'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"',
    ],
    ['its own node', attrs(kubelet('node-1'), 'UPDATE', 'nodes', { name: 'node-1', object: node('node-1', { x: 'y' }), oldObject: node('node-1') }), 'admitted'],
    ['its own node status', attrs(kubelet('node-1'), 'UPDATE', 'nodes', { name: 'node-1', subresource: 'status', object: node('node-1'), oldObject: node('node-1') }), 'admitted'],
    ['creating another node', attrs(kubelet('node-1'), 'CREATE', 'nodes', { object: node('node-2') }), 'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"'],
    [
      'registering with restricted labels',
      attrs(kubelet('node-1'), 'CREATE', 'nodes', {
        object: node('node-1', { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': 'node-1', 'node-restriction.kubernetes.io/pool': 'a' }),
      }),
      'nodes "node-1" is forbidden: node "node-1" is not allowed to set the following labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/control-plane',
    ],
    [
      'changing its taints',
      attrs(kubelet('node-1'), 'UPDATE', 'nodes', { name: 'node-1', object: node('node-1'), oldObject: node('node-1', {}, [{ key: 'k', effect: 'NoSchedule' }]) }),
      'nodes "node-1" is forbidden: node "node-1" is not allowed to modify taints',
    ],
    [
      'its own node with the same taints, their keys in another order',
      attrs(kubelet('node-1'), 'UPDATE', 'nodes', {
        name: 'node-1',
        object: node('node-1', { x: 'y' }, [{ effect: 'NoSchedule', key: 'node.kubernetes.io/not-ready' }]),
        oldObject: node('node-1', {}, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]),
      }),
      'admitted',
    ],
    [
      'changing a restricted label',
      attrs(kubelet('node-1'), 'UPDATE', 'nodes', { name: 'node-1', object: node('node-1'), oldObject: node('node-1', { 'node-role.kubernetes.io/worker': '' }) }),
      'nodes "node-1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/worker',
    ],
    // pods
    ['its mirror pod', attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', object: mirror() }), 'admitted'],
    [
      'a pod that is no mirror pod',
      attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', object: mirror({ annotations: {} }) }),
      'pods "static-web-node-1" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node-1" can only create mirror pods',
    ],
    [
      'a mirror pod for another node',
      attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', object: mirror({}, { nodeName: 'node-2' }) }),
      'pods "static-web-node-1" is forbidden: node "node-1" can only create pods with spec.nodeName set to itself',
    ],
    [
      'a mirror pod owned by another node object',
      attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', object: mirror({ ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'stale', controller: true }] }) }),
      'pods "static-web-node-1" is forbidden: node node-1 UID mismatch: expected stale got uid-node-1',
    ],
    [
      'a mirror pod with a secret',
      attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', object: mirror({}, { volumes: [{ name: 's', secret: { secretName: 's' } }] }) }),
      'pods "static-web-node-1" is forbidden: node "node-1" can not create pods that reference secrets',
    ],
    [
      'a mirror pod with a configmap',
      attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', object: mirror({}, { volumes: [{ name: 'c', configMap: { name: 'c' } }] }) }),
      'pods "static-web-node-1" is forbidden: node "node-1" can not create pods that reference configmaps',
    ],
    ['status of its pod', attrs(kubelet('node-1'), 'UPDATE', 'pods', { namespace: 'default', name: 'web', subresource: 'status', object: POD_ON('node-1'), oldObject: POD_ON('node-1') }), 'admitted'],
    [
      'status of a pod on node-2',
      attrs(kubelet('node-1'), 'UPDATE', 'pods', { namespace: 'default', name: 'web', subresource: 'status', object: POD_ON('node-2'), oldObject: POD_ON('node-2') }),
      'pods "web" is forbidden: node "node-1" can only update pod status for pods with spec.nodeName set to itself',
    ],
    [
      'labels through pod status',
      attrs(kubelet('node-1'), 'UPDATE', 'pods', {
        namespace: 'default',
        name: 'web',
        subresource: 'status',
        object: { ...POD_ON('node-1'), metadata: { name: 'web', labels: { app: 'x' } } },
        oldObject: POD_ON('node-1'),
      }),
      'pods "web" is forbidden: node "node-1" cannot update labels through pod status',
    ],
    ['deleting its pod', attrs(kubelet('node-1'), 'DELETE', 'pods', { namespace: 'default', name: 'web', oldObject: POD_ON('node-1') }), 'admitted'],
    [
      'deleting a pod on node-2',
      attrs(kubelet('node-1'), 'DELETE', 'pods', { namespace: 'default', name: 'web', oldObject: POD_ON('node-2') }),
      'pods "web" is forbidden: node "node-1" can only delete pods with spec.nodeName set to itself',
    ],
    [
      'updating a pod',
      attrs(kubelet('node-1'), 'UPDATE', 'pods', { namespace: 'default', name: 'web', object: POD_ON('node-1'), oldObject: POD_ON('node-1') }),
      'pods "web" is forbidden: unexpected operation "UPDATE", node "node-1" can only create and delete mirror pods',
    ],
    // evictions: the pod as stored decides (getPod has web on node-1)
    ['evicting its pod', attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', name: 'web', subresource: 'eviction', object: { metadata: { name: 'web' } } }), 'admitted'],
    [
      'evicting a pod on another node',
      attrs(kubelet('node-2'), 'CREATE', 'pods', { namespace: 'default', name: 'web', subresource: 'eviction', object: { metadata: { name: 'web' } } }),
      'pods "web" is forbidden: node node-2 can only evict pods with spec.nodeName set to itself',
    ],
    [
      'evicting a pod that is gone',
      attrs(kubelet('node-1'), 'CREATE', 'pods', { namespace: 'default', name: 'gone', subresource: 'eviction', object: { metadata: { name: 'gone' } } }),
      'pods "gone" not found',
    ],
    // leases
    ['its lease', attrs(kubelet('node-1'), 'CREATE', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-node-lease', object: { metadata: { name: 'node-1' } } }), 'admitted'],
    [
      'node-2s lease',
      attrs(kubelet('node-1'), 'CREATE', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-node-lease', object: { metadata: { name: 'node-2' } } }),
      'leases.coordination.k8s.io "node-2" is forbidden: can only access node lease with the same name as the requesting node',
    ],
    // tokens
    [
      'a token bound to its pod',
      attrs(kubelet('node-1'), 'CREATE', 'serviceaccounts', {
        namespace: 'default',
        name: 'default',
        subresource: 'token',
        object: { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'uid-web' } } },
      }),
      'admitted',
    ],
    [
      'a token without a pod',
      attrs(kubelet('node-1'), 'CREATE', 'serviceaccounts', { namespace: 'default', name: 'default', subresource: 'token', object: { spec: {} } }),
      'serviceaccounts "default" is forbidden: node requested token not bound to a pod',
    ],
  ])('%s', (_name, a, want) => {
    expect(run(a)).toBe(want);
  });

  it('a token for a pod on another node', () => {
    const other = nodeRestriction({ getNode: () => undefined, getPod: () => POD_ON('node-2') });
    const a = attrs(kubelet('node-1'), 'CREATE', 'serviceaccounts', {
      namespace: 'default',
      name: 'default',
      subresource: 'token',
      object: { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'uid-web' } } },
    });
    expect(() => other.admit!(a)).toThrow('serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
  });
});

describe('forbiddenLabels', () => {
  it.each([
    [{ 'kubernetes.io/hostname': 'n', 'topology.kubernetes.io/zone': 'z', 'kubelet.kubernetes.io/x': '1', 'node.kubernetes.io/y': '1', 'example.com/team': 'a', plain: 'b' }, []],
    [{ 'node-role.kubernetes.io/worker': '' }, ['node-role.kubernetes.io/worker']],
    [{ 'foo.node-restriction.kubernetes.io/x': '' }, ['foo.node-restriction.kubernetes.io/x']],
    [{ 'k8s.io/x': '' }, ['k8s.io/x']],
  ])('%j → %j', (labels, want) => {
    expect(forbiddenLabels(labels, undefined)).toEqual(want);
  });
});
