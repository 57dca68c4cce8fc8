import { describe, expect, it } from 'vitest';
import type { Pod } from '@kubelab/api';
import { resourceAttributes } from '../attributes.js';
import type { AuthorizerResult } from '../types.js';
import { NodeGraph, podReferences } from './graph.js';
import { NodeAuthorizer } from './node-authorizer.js';

const node = (n: string) => ({ name: `system:node:${n}`, groups: ['system:nodes', 'system:authenticated'] });

function pod(name: string, nodeName: string | undefined, spec: Partial<Pod['spec']> = {}, ns = 'default'): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeName ? { nodeName } : {}), ...spec } } as Pod;
}

/** web on node-1 uses secret db (env), configmap cfg (volume), claim data and serviceaccount builder. */
function graph(): NodeGraph {
  const g = new NodeGraph();
  g.onPod(
    pod('web', 'node-1', {
      serviceAccountName: 'builder',
      containers: [{ name: 'c', image: 'i', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'p' } } }] }],
      volumes: [
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
      ],
    }),
    undefined,
  );
  g.onPod(pod('pending', undefined, { volumes: [{ name: 's', secret: { secretName: 'pending-secret' } }] }), undefined);
  // pv-data is bound to claim data; pv-free to nothing.
  g.onPersistentVolume({ metadata: { name: 'pv-data' }, spec: { claimRef: { namespace: 'default', name: 'data' } } }, undefined);
  g.onPersistentVolume({ metadata: { name: 'pv-free' }, spec: {} }, undefined);
  return g;
}

const ALLOW: AuthorizerResult = { decision: 'Allow', reason: '' };
const no = (reason = ''): AuthorizerResult => ({ decision: 'NoOpinion', reason });
const NO_RELATION = (n: string) => no(`no relationship found between node '${n}' and this object`);

describe('NodeAuthorizer', () => {
  const z = new NodeAuthorizer({ graph: graph(), staticRulesAllow: (a) => a.resource === 'events' && a.verb === 'create' });
  const ask = (user: ReturnType<typeof node>, verb: string, r: Parameters<typeof resourceAttributes>[2]) => z.authorize(resourceAttributes(user, verb, r));
  const core = (resource: string, namespace: string, name: string, subresource = '') => ({ group: '', resource, namespace, name, subresource });

  it.each<[string, ReturnType<typeof node>, string, Parameters<typeof resourceAttributes>[2], AuthorizerResult]>([
    ['node-1 gets the secret its pod uses', node('node-1'), 'get', core('secrets', 'default', 'db'), ALLOW],
    ['node-1 watches it by name', node('node-1'), 'watch', { group: '', resource: 'secrets', namespace: 'default', fieldSelector: 'metadata.name=db' }, ALLOW],
    ['node-1 may not get another secret', node('node-1'), 'get', core('secrets', 'default', 'other'), NO_RELATION('node-1')],
    ['node-2 may not get node-1s secret', node('node-2'), 'get', core('secrets', 'default', 'db'), NO_RELATION('node-2')],
    ['an unbound pod leads nowhere', node('node-1'), 'get', core('secrets', 'default', 'pending-secret'), NO_RELATION('node-1')],
    ['no listing secrets', node('node-1'), 'list', { group: '', resource: 'secrets', namespace: 'default' }, no('No Object name found')],
    ['no writing secrets', node('node-1'), 'update', core('secrets', 'default', 'db'), no('can only read resources of this type')],
    ['no cluster-wide secret reads', node('node-1'), 'list', { group: '', resource: 'secrets' }, no('can only read namespaced object of this type')],
    ['configmaps likewise', node('node-1'), 'get', core('configmaps', 'default', 'cfg'), ALLOW],
    ['claims: get only', node('node-1'), 'get', core('persistentvolumeclaims', 'default', 'data'), ALLOW],
    ['the volume bound to its pods claim', node('node-1'), 'get', { group: '', resource: 'persistentvolumes', name: 'pv-data' }, ALLOW],
    ['not that volume for node-2', node('node-2'), 'get', { group: '', resource: 'persistentvolumes', name: 'pv-data' }, NO_RELATION('node-2')],
    ['not an unbound volume', node('node-1'), 'get', { group: '', resource: 'persistentvolumes', name: 'pv-free' }, NO_RELATION('node-1')],
    ['claims: no list', node('node-1'), 'list', { group: '', resource: 'persistentvolumeclaims', namespace: 'default' }, no('can only get individual resources of this type')],
    ['tokens for its pods service account', node('node-1'), 'create', core('serviceaccounts', 'default', 'builder', 'token'), ALLOW],
    ['no tokens for others', node('node-1'), 'create', core('serviceaccounts', 'default', 'default', 'token'), NO_RELATION('node-1')],
    ['no reading service accounts', node('node-1'), 'get', core('serviceaccounts', 'default', 'builder'), no('can only create tokens for individual service accounts')],
    ['its own lease', node('node-1'), 'update', { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'node-1' }, ALLOW],
    ['creating a lease (named by NodeRestriction)', node('node-1'), 'create', { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' }, ALLOW],
    [
      'not node-2s lease',
      node('node-1'),
      'get',
      { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'node-2' },
      no('can only access node lease with the same name as the requesting node'),
    ],
    [
      'no leases elsewhere',
      node('node-1'),
      'get',
      { group: 'coordination.k8s.io', resource: 'leases', namespace: 'default', name: 'node-1' },
      no('can only access leases in the "kube-node-lease" system namespace'),
    ],
    [
      'no watching leases',
      node('node-1'),
      'watch',
      { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' },
      no('can only get, create, update, patch, or delete a node lease'),
    ],
    ['its own csinode', node('node-1'), 'get', { group: 'storage.k8s.io', resource: 'csinodes', name: 'node-1' }, ALLOW],
    ['not another csinode', node('node-1'), 'get', { group: 'storage.k8s.io', resource: 'csinodes', name: 'node-2' }, no('can only access CSINode with the same name as the requesting node')],
    ['reads its own node', node('node-1'), 'get', { group: '', resource: 'nodes', name: 'node-1' }, ALLOW],
    ['watches its own node by name', node('node-1'), 'watch', { group: '', resource: 'nodes', fieldSelector: 'metadata.name=node-1' }, ALLOW],
    ['not all nodes', node('node-1'), 'list', { group: '', resource: 'nodes' }, no("node 'node-1' cannot read all nodes, only its own Node object")],
    ['not node-2', node('node-1'), 'get', { group: '', resource: 'nodes', name: 'node-2' }, no("node 'node-1' cannot read 'node-2', only its own Node object")],
    ['writes any node (NodeRestriction narrows)', node('node-1'), 'patch', { group: '', resource: 'nodes', name: 'node-2' }, ALLOW],
    ['node status', node('node-1'), 'update', { group: '', resource: 'nodes', name: 'node-1', subresource: 'status' }, ALLOW],
    ['no node deletes', node('node-1'), 'delete', { group: '', resource: 'nodes', name: 'node-1' }, no()],
    ['gets a pod bound to it', node('node-1'), 'get', core('pods', 'default', 'web'), ALLOW],
    ['not a pod elsewhere', node('node-2'), 'get', core('pods', 'default', 'web'), NO_RELATION('node-2')],
    ['lists its pods by spec.nodeName', node('node-1'), 'list', { group: '', resource: 'pods', fieldSelector: 'spec.nodeName=node-1' }, ALLOW],
    ['not another nodes pods', node('node-1'), 'watch', { group: '', resource: 'pods', fieldSelector: 'spec.nodeName=node-2' }, no('can only list/watch pods with spec.nodeName field selector')],
    ['not all pods', node('node-1'), 'list', { group: '', resource: 'pods' }, no('can only list/watch pods with spec.nodeName field selector')],
    ['mirror pods', node('node-1'), 'create', { group: '', resource: 'pods', namespace: 'default' }, ALLOW],
    ['pod status', node('node-1'), 'patch', core('pods', 'default', 'web', 'status'), ALLOW],
    ['no pod updates', node('node-1'), 'update', core('pods', 'default', 'web'), no()],
    ['others by the static rules', node('node-1'), 'create', { group: '', resource: 'events', namespace: 'default' }, ALLOW],
    ['and no opinion beyond them', node('node-1'), 'delete', { group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' }, no()],
    ['not a node: no opinion', { name: 'jane', groups: ['system:authenticated'] }, 'get', core('secrets', 'default', 'db'), no()],
    ['a node without a name', { name: 'system:node:', groups: ['system:nodes'] }, 'get', core('secrets', 'default', 'db'), no('unknown node for user "system:node:"')],
  ])('%s', (_name, user, verb, r, want) => {
    expect(ask(user, verb, r)).toEqual(want);
  });

  it('cannot list a nodes rules (SelfSubjectRulesReview is incomplete)', () => {
    expect(z.rulesFor(node('node-1'))).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
    expect(z.rulesFor({ name: 'jane', groups: [] }).incomplete).toBe(false);
  });
});

describe('NodeGraph', () => {
  it('follows a pod through binding, changes and deletion', () => {
    const g = new NodeGraph();
    const unbound = pod('p', undefined, { volumes: [{ name: 's', secret: { secretName: 's1' } }] });
    g.onPod(unbound, undefined);
    expect(g.hasPath('node-1', 'secret', 'default', 's1')).toBe(false);
    const bound = pod('p', 'node-1', { volumes: [{ name: 's', secret: { secretName: 's1' } }] });
    g.onPod(bound, unbound);
    expect(g.hasPath('node-1', 'secret', 'default', 's1')).toBe(true);
    expect(g.hasPath('node-1', 'secret', 'other', 's1')).toBe(false);
    // A second pod on the node keeps the secret reachable when the first one goes.
    const twin = pod('q', 'node-1', { imagePullSecrets: [{ name: 's1' }] });
    g.onPod(twin, undefined);
    const changed = pod('p', 'node-1', { volumes: [{ name: 's', secret: { secretName: 's2' } }] });
    g.onPod(changed, bound);
    expect(g.hasPath('node-1', 'secret', 'default', 's1')).toBe(true);
    expect(g.hasPath('node-1', 'secret', 'default', 's2')).toBe(true);
    g.onPod(undefined, twin);
    expect(g.hasPath('node-1', 'secret', 'default', 's1')).toBe(false);
    g.onPod(undefined, changed);
    expect(g.hasPath('node-1', 'secret', 'default', 's2')).toBe(false);
    expect(g.hasPath('node-1', 'pod', 'default', 'p')).toBe(false);
    expect(g.size).toBe(0);
  });

  it('collects every reference upstream draws an edge for', () => {
    const p = pod('web', 'node-1', {
      serviceAccountName: 'sa',
      imagePullSecrets: [{ name: 'pull' }],
      initContainers: [{ name: 'i', image: 'i', envFrom: [{ configMapRef: { name: 'init-env' } }] }],
      containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'env-secret' } }], env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'x' } } }] }],
      volumes: [
        { name: 'proj', projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }] } },
        { name: 'scratch', ephemeral: {} },
      ],
    });
    expect([...podReferences(p)].sort()).toEqual([
      'configmap/default/env-cm',
      'configmap/default/init-env',
      'configmap/default/proj-cm',
      'persistentvolumeclaim/default/web-scratch',
      'secret/default/env-secret',
      'secret/default/proj-secret',
      'secret/default/pull',
      'serviceaccount/default/sa',
    ]);
  });
});
