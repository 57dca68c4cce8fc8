import { describe, expect, it } from 'vitest';
import type { UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes } from '../authorization/types.js';
import { BOOTSTRAP_FLOW_SCHEMAS } from './bootstrap.js';
import { classify, matchingOrder, nonResourceURLMatches } from './classify.js';

const ordered = matchingOrder(BOOTSTRAP_FLOW_SCHEMAS);
const authed = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });
const admin = authed('kubernetes-admin', 'system:masters');
const jane = authed('jane');
const kcm = authed('system:kube-controller-manager');
const scheduler = authed('system:kube-scheduler');
const kubelet = authed('system:node:node-1', 'system:nodes');
const coredns = authed('system:serviceaccount:kube-system:coredns', 'system:serviceaccounts', 'system:serviceaccounts:kube-system');
const appSa = authed('system:serviceaccount:default:default', 'system:serviceaccounts', 'system:serviceaccounts:default');
const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

function res(user: UserInfo, verb: string, group: string, resource: string, namespace = '', subresource = ''): AuthorizationAttributes {
  return { user, verb, resourceRequest: true, path: '', namespace, apiGroup: group, apiVersion: 'v1', resource, subresource, name: '' };
}
function path(user: UserInfo, verb: string, p: string): AuthorizationAttributes {
  return { user, verb, resourceRequest: false, path: p, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

describe("API Priority and Fairness' bootstrap FlowSchemas (matching precedence, then name)", () => {
  it.each<[string, AuthorizationAttributes, string, string]>([
    ['an admin (system:masters), anything', res(admin, 'delete', '', 'pods', 'default'), 'exempt', ''],
    ['anyone probing /readyz', path(anonymous, 'get', '/readyz'), 'probes', ''],
    ['anyone probing one check, /readyz/etcd (a rule URL covers the paths under it)', path(anonymous, 'get', '/readyz/etcd'), 'probes', ''],
    ['a path that only starts like a probe', path(anonymous, 'get', '/readyzz'), 'global-default', 'system:anonymous'],
    ["the controller-manager's Lease", res(kcm, 'update', 'coordination.k8s.io', 'leases', 'kube-system'), 'system-leader-election', 'system:kube-controller-manager'],
    ["the scheduler's Lease read", res(scheduler, 'get', 'coordination.k8s.io', 'leases', 'kube-system'), 'system-leader-election', 'system:kube-scheduler'],
    ['the scheduler watching leases is not leader election', res(scheduler, 'watch', 'coordination.k8s.io', 'leases', 'kube-system'), 'kube-scheduler', 'kube-system'],
    ["the endpoints controller's writes", res(kcm, 'update', '', 'endpoints', 'default'), 'endpoint-controller', 'system:kube-controller-manager'],
    ["the ReplicaSet controller's pods, one flow per namespace", res(kcm, 'create', '', 'pods', 'shop'), 'kube-controller-manager', 'shop'],
    ["the scheduler's bindings", res(scheduler, 'create', '', 'pods', 'default', 'binding'), 'kube-scheduler', 'default'],
    ["a kubelet's Node status", res(kubelet, 'patch', '', 'nodes', '', 'status'), 'system-node-high', 'system:node:node-1'],
    ["a kubelet's node Lease", res(kubelet, 'update', 'coordination.k8s.io', 'leases', 'kube-node-lease'), 'system-node-high', 'system:node:node-1'],
    ["a kubelet's pod status", res(kubelet, 'patch', '', 'pods', 'default', 'status'), 'system-nodes', 'system:node:node-1'],
    ["a kube-system ServiceAccount's Lease (a controller's leader election)", res(coredns, 'update', 'coordination.k8s.io', 'leases', 'kube-system'), 'system-leader-election', coredns.name],
    ['a kube-system ServiceAccount otherwise', res(coredns, 'list', 'discovery.k8s.io', 'endpointslices'), 'kube-system-service-accounts', ''],
    ["an app's ServiceAccount", res(appSa, 'list', '', 'pods', 'default'), 'service-accounts', appSa.name],
    ['a user in a namespace', res(jane, 'get', '', 'pods', 'default'), 'global-default', 'jane'],
    ['a user across namespaces (clusterScope)', res(jane, 'list', '', 'pods'), 'global-default', 'jane'],
    ['a user on a path', path(jane, 'get', '/version'), 'global-default', 'jane'],
    ['anonymous on the API', res(anonymous, 'list', '', 'namespaces'), 'global-default', 'system:anonymous'],
  ])('%s: %s', (_what, attrs, schema, distinguisher) => {
    const c = classify(ordered, attrs);
    expect([c?.schema.metadata.name, c?.distinguisher]).toEqual([schema, distinguisher]);
  });

  it('orders equal precedences by name, as upstream does', () => {
    expect(ordered.map((s) => `${s.spec!.matchingPrecedence} ${s.metadata.name}`)).toEqual([
      '1 exempt',
      '2 probes',
      '100 system-leader-election',
      '150 endpoint-controller',
      '200 workload-leader-election',
      '400 system-node-high',
      '500 system-nodes',
      '800 kube-controller-manager',
      '800 kube-scheduler',
      '900 kube-system-service-accounts',
      '9000 service-accounts',
      '9900 global-default',
      '10000 catch-all',
    ]);
  });

  it('gives every object a UUID of its own, the same on every apiserver', () => {
    const uids = BOOTSTRAP_FLOW_SCHEMAS.map((s) => s.metadata.uid);
    expect(new Set(uids).size).toBe(uids.length);
    for (const u of uids) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("a rule's nonResourceURLs (upstream matchPolicyRuleNonResourceURL)", () => {
  it.each([
    ['*', '/anything', true],
    ['/healthz', '/healthz', true],
    ['/healthz', '/healthz/etcd', true],
    ['/healthz', '/healthzz', false],
    ['/apis/*', '/apis/apps/v1', true],
    ['/apis/*', '/apis', false],
    ['/hea*', '/healthz', false],
  ])('%s against %s: %s', (rule, p, want) => expect(nonResourceURLMatches(rule, p)).toBe(want));
});
