// The RBAC authorizer over a real watch cache stepped by hand (ingest), as
// the apiserver reads it: bindings found by subject, roles by key.

import { describe, expect, it } from 'vitest';
import { lookupResource, storageKey, type KubeObject } from '@kubelab/api';
import type { UserInfo } from '@kubelab/api';
import { WatchCache } from '../../cache/watch-cache.js';
import type { KvStorage } from '../../storage/kv.js';
import { encodeForStorage } from '../../storage/codec.js';
import type { AuthorizationAttributes } from '../types.js';
import { createRbacAuthorizer } from './index.js';
import { decisionKey, MEMO_LIMIT } from './authorizer.js';
import { clusterRole, crb, group, rb, role, sa, user } from '../../testing/rbac.js';

class Policy {
  readonly cache = new WatchCache({} as KvStorage, { bookmarkIntervalMs: 1e9 });
  private rev = 0;
  constructor() {
    (this.cache as unknown as { markSynced(rev: number): void }).markSynced(0);
  }
  private key(o: KubeObject): string {
    const [group, version] = o.apiVersion!.includes('/') ? o.apiVersion!.split('/') : ['', o.apiVersion!];
    const info = lookupResource(group!, version!, `${o.kind!.toLowerCase()}s`)!;
    return storageKey(info, o.metadata.namespace, o.metadata.name!);
  }
  put(...objs: KubeObject[]): this {
    for (const o of objs) this.cache.ingest(this.key(o), 'PUT', encodeForStorage(o), ++this.rev);
    return this;
  }
  del(o: KubeObject): this {
    this.cache.ingest(this.key(o), 'DEL', new Uint8Array(), ++this.rev);
    return this;
  }
}

const jane: UserInfo = { name: 'jane', groups: ['devs', 'system:authenticated'] };
const ciSA: UserInfo = { name: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] };

const req = (u: UserInfo, verb: string, resource: string, namespace = '', extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => {
  const [r, sub = ''] = resource.split('/');
  return { user: u, verb, resourceRequest: true, path: '', namespace, apiGroup: '', apiVersion: 'v1', resource: r!, subresource: sub, name: '', ...extra };
};
const pathReq = (u: UserInfo, verb: string, path: string): AuthorizationAttributes => ({
  user: u,
  verb,
  resourceRequest: false,
  path,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
});

const podReader = clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] }]);

describe('RBAC authorizer', () => {
  it.each<[string, KubeObject[], AuthorizationAttributes, string, string]>([
    [
      'a ClusterRoleBinding to a user grants cluster-wide',
      [podReader, crb('jane-pods', 'pod-reader', [user('jane')])],
      req(jane, 'list', 'pods'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "jane-pods" of ClusterRole "pod-reader" to User "jane"',
    ],
    [
      '... and in every namespace',
      [podReader, crb('jane-pods', 'pod-reader', [user('jane')])],
      req(jane, 'get', 'pods/log', 'web'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "jane-pods" of ClusterRole "pod-reader" to User "jane"',
    ],
    ['not other verbs', [podReader, crb('jane-pods', 'pod-reader', [user('jane')])], req(jane, 'delete', 'pods', 'web'), 'NoOpinion', ''],
    [
      'a group subject',
      [podReader, crb('devs-pods', 'pod-reader', [user('joe'), group('devs')])],
      req(jane, 'get', 'pods', 'web'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "devs-pods" of ClusterRole "pod-reader" to Group "devs"',
    ],
    ['another user gets nothing', [podReader, crb('joe-pods', 'pod-reader', [user('joe')])], req(jane, 'get', 'pods', 'web'), 'NoOpinion', ''],
    [
      'a RoleBinding to a ClusterRole grants in its namespace',
      [podReader, rb('web', 'r', 'ClusterRole', 'pod-reader', [user('jane')])],
      req(jane, 'get', 'pods', 'web'),
      'Allow',
      'RBAC: allowed by RoleBinding "r/web" of ClusterRole "pod-reader" to User "jane"',
    ],
    ['... not in another namespace', [podReader, rb('web', 'r', 'ClusterRole', 'pod-reader', [user('jane')])], req(jane, 'get', 'pods', 'db'), 'NoOpinion', ''],
    ['... nor cluster-wide', [podReader, rb('web', 'r', 'ClusterRole', 'pod-reader', [user('jane')])], req(jane, 'list', 'pods'), 'NoOpinion', ''],
    [
      'a Role of the namespace',
      [role('web', 'cm-editor', [{ verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]), rb('web', 'r', 'Role', 'cm-editor', [user('jane')])],
      req(jane, 'update', 'configmaps', 'web', { name: 'settings' }),
      'Allow',
      'RBAC: allowed by RoleBinding "r/web" of Role "cm-editor" to User "jane"',
    ],
    [
      'a ServiceAccount subject with its namespace',
      [podReader, crb('ci', 'pod-reader', [sa('builder', 'ci')])],
      req(ciSA, 'list', 'pods'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "ci" of ClusterRole "pod-reader" to ServiceAccount "builder/ci"',
    ],
    [
      'a ServiceAccount subject of a RoleBinding defaults to its namespace',
      [podReader, rb('ci', 'r', 'ClusterRole', 'pod-reader', [sa('builder')])],
      req(ciSA, 'list', 'pods', 'ci'),
      'Allow',
      'RBAC: allowed by RoleBinding "r/ci" of ClusterRole "pod-reader" to ServiceAccount "builder/ci"',
    ],
    ['... not to another namespace', [podReader, rb('web', 'r', 'ClusterRole', 'pod-reader', [sa('builder')])], req(ciSA, 'list', 'pods', 'web'), 'NoOpinion', ''],
    ['a ServiceAccount subject of a ClusterRoleBinding without namespace names nobody', [podReader, crb('ci', 'pod-reader', [sa('builder')])], req(ciSA, 'list', 'pods'), 'NoOpinion', ''],
    [
      'a group of service accounts',
      [podReader, crb('all-sa', 'pod-reader', [group('system:serviceaccounts:ci')])],
      req(ciSA, 'list', 'pods', 'x'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "all-sa" of ClusterRole "pod-reader" to Group "system:serviceaccounts:ci"',
    ],
    [
      'non-resource URLs of a cluster role',
      [clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz/*'] }]), crb('health', 'health', [group('system:authenticated')])],
      pathReq(jane, 'get', '/readyz/etcd'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"',
    ],
    [
      'a missing ClusterRole is the reason, not an allow',
      [crb('dangling', 'missing', [user('jane')])],
      req(jane, 'get', 'pods', 'web'),
      'NoOpinion',
      'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    ],
    ['a missing Role of the namespace', [rb('web', 'r', 'Role', 'gone', [user('jane')])], req(jane, 'get', 'pods', 'web'), 'NoOpinion', 'RBAC: role.rbac.authorization.k8s.io "gone" not found'],
    [
      'several errors aggregate',
      [crb('a', 'missing-a', [user('jane')]), crb('b', 'missing-b', [user('jane')])],
      req(jane, 'get', 'pods'),
      'NoOpinion',
      'RBAC: [clusterrole.rbac.authorization.k8s.io "missing-a" not found, clusterrole.rbac.authorization.k8s.io "missing-b" not found]',
    ],
    [
      'a missing role does not hide a grant',
      [podReader, crb('a', 'missing', [user('jane')]), crb('b', 'pod-reader', [user('jane')])],
      req(jane, 'get', 'pods'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "pod-reader" to User "jane"',
    ],
  ])('%s', (_n, objs, a, decision, reason) => {
    const authz = createRbacAuthorizer(new Policy().put(...objs).cache);
    expect(authz.authorize(a)).toEqual({ decision, reason });
  });

  it('follows the cache: a new binding grants, a changed one moves the grant, a deleted one takes it away', () => {
    const p = new Policy().put(podReader);
    const authz = createRbacAuthorizer(p.cache);
    const can = (u: UserInfo) => authz.authorize(req(u, 'get', 'pods', 'web')).decision;
    const joe: UserInfo = { name: 'joe', groups: [] };
    expect([can(jane), can(joe)]).toEqual(['NoOpinion', 'NoOpinion']);
    p.put(rb('web', 'r', 'ClusterRole', 'pod-reader', [user('jane')]));
    expect([can(jane), can(joe)]).toEqual(['Allow', 'NoOpinion']);
    p.put(rb('web', 'r', 'ClusterRole', 'pod-reader', [user('joe')]));
    expect([can(jane), can(joe)]).toEqual(['NoOpinion', 'Allow']);
    p.del(rb('web', 'r', 'ClusterRole', 'pod-reader', []));
    expect([can(jane), can(joe)]).toEqual(['NoOpinion', 'NoOpinion']);
    // Bindings that existed before the authorizer was made count too.
    p.put(crb('early', 'pod-reader', [user('joe')]));
    expect(createRbacAuthorizer(p.cache).authorize(req(joe, 'get', 'pods')).decision).toBe('Allow');
    // A rule edit applies at once: roles are read per request.
    p.put(clusterRole('pod-reader', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]));
    expect(authz.authorize(req(joe, 'get', 'pods')).decision).toBe('NoOpinion');
    authz.stop();
  });

  it('remembers a decision only for the same user, groups and attributes', () => {
    const base = req(jane, 'get', 'pods', 'web');
    const differ: AuthorizationAttributes[] = [
      req({ name: 'joe', groups: jane.groups }, 'get', 'pods', 'web'),
      req({ name: jane.name, groups: ['devs'] }, 'get', 'pods', 'web'),
      req(jane, 'list', 'pods', 'web'),
      req(jane, 'get', 'pods', 'db'),
      req(jane, 'get', 'pods/log', 'web'),
      req(jane, 'get', 'pods', 'web', { name: 'x' }),
      req(jane, 'get', 'pods', 'web', { apiGroup: 'apps' }),
      // a namespace and a name swapped are not the same request
      req(jane, 'get', 'pods', 'x', { name: 'web' }),
      pathReq(jane, 'get', '/healthz'),
    ];
    const keys = new Set([base, ...differ].map(decisionKey));
    expect(keys.size).toBe(differ.length + 1);
    // Parts holding the separators of a joined key stay apart: a group list is not one group with a control character.
    const crafted = [
      req({ name: jane.name, groups: ['devs\u0001system:masters'] }, 'get', 'pods', 'web'),
      req({ name: jane.name, groups: ['devs', 'system:masters'] }, 'get', 'pods', 'web'),
      req({ name: `${jane.name}\u0000devs`, groups: [] }, 'get', 'pods', 'web'),
      req({ name: jane.name, groups: ['devs'] }, 'get', 'pods', 'web'),
      req(jane, 'get', 'pods', 'a\u0000b'),
      req(jane, 'get', 'pods', 'a', { apiGroup: 'b' }),
    ];
    expect(new Set(crafted.map(decisionKey)).size).toBe(crafted.length);
    // apiVersion, uid and extra do not change what RBAC decides.
    expect(decisionKey({ ...base, apiVersion: 'v2', user: { ...jane, uid: 'u', extra: { a: ['b'] } } })).toBe(decisionKey(base));
  });

  it('keeps at most MEMO_LIMIT decisions and still decides right past it', () => {
    const p = new Policy().put(podReader, crb('jane-pods', 'pod-reader', [user('jane')]));
    const authz = createRbacAuthorizer(p.cache);
    for (let i = 0; i < MEMO_LIMIT + 10; i++) expect(authz.authorize(req(jane, 'get', 'pods', `ns-${i}`)).decision).toBe('Allow');
    expect((authz as unknown as { memo: Map<string, unknown> }).memo.size).toBeLessThanOrEqual(MEMO_LIMIT);
    expect(authz.authorize(req(jane, 'delete', 'pods', 'ns-1')).decision).toBe('NoOpinion');
    authz.stop();
  });

  it('rulesFor: the rules of every applying binding, resource and non-resource apart, with errors', () => {
    const p = new Policy().put(
      podReader,
      clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]),
      role('web', 'cm', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]),
      crb('health', 'health', [group('system:authenticated')]),
      rb('web', 'pods', 'ClusterRole', 'pod-reader', [user('jane')]),
      rb('web', 'cm', 'Role', 'cm', [group('devs')]),
      rb('web', 'broken', 'Role', 'nope', [user('jane')]),
      rb('db', 'other', 'ClusterRole', 'pod-reader', [user('jane')]),
    );
    const authz = createRbacAuthorizer(p.cache);
    expect(authz.rulesFor(jane, 'web')).toEqual({
      resourceRules: [
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.k8s.io "nope" not found',
    });
    expect(authz.rulesFor({ name: 'nobody', groups: [] }, 'web')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});
