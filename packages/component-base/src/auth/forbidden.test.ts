import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type UserInfo } from '@kubelab/api';
import { forbiddenMessage, forbiddenStatus, type ForbiddenAttributes } from './forbidden.js';

const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'] };

function attrs(a: Partial<ForbiddenAttributes>): ForbiddenAttributes {
  return { user: jane, verb: 'get', resourceRequest: true, path: '', namespace: '', apiGroup: '', resource: '', subresource: '', name: '', ...a };
}

describe('forbiddenMessage (upstream responsewriters.forbiddenMessage)', () => {
  it.each<[string, Partial<ForbiddenAttributes>, string, string]>([
    ['a namespaced list', { verb: 'list', resource: 'pods', namespace: 'default' }, '', 'User "jane" cannot list resource "pods" in API group "" in the namespace "default"'],
    ['a cluster-scoped get', { resource: 'nodes', name: 'node-2' }, '', 'User "jane" cannot get resource "nodes" in API group "" at the cluster scope'],
    ['a list across namespaces is cluster scope', { verb: 'list', resource: 'pods' }, '', 'User "jane" cannot list resource "pods" in API group "" at the cluster scope'],
    [
      'a group and a subresource',
      { verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'web', name: 'x' },
      '',
      'User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "web"',
    ],
    ['a non-resource path', { resourceRequest: false, verb: 'get', path: '/api' }, '', 'User "jane" cannot get path "/api"'],
    ['anonymous', { user: ANONYMOUS, resourceRequest: false, path: '/metrics' }, '', 'User "system:anonymous" cannot get path "/metrics"'],
    [
      'the reason follows',
      { verb: 'patch', resource: 'nodes', name: 'node-2', user: { name: 'system:node:node-1', groups: ['system:nodes'] } },
      "node 'node-1' cannot modify node 'node-2'",
      'User "system:node:node-1" cannot patch resource "nodes" in API group "" at the cluster scope: node \'node-1\' cannot modify node \'node-2\'',
    ],
    ['what reads as HTML is escaped', { resourceRequest: false, path: '/<script>&' }, '', 'User "jane" cannot get path "/&lt;script&gt;&amp;"'],
  ])('%s', (_n, a, reason, want) => {
    expect(forbiddenMessage(attrs(a), reason)).toBe(want);
  });
});

describe('forbiddenStatus (upstream apierrors.NewForbidden)', () => {
  it('names the resource, its group and the object', () => {
    expect(forbiddenStatus(attrs({ verb: 'delete', apiGroup: 'apps', resource: 'deployments', namespace: 'web', name: 'x' }), '').status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "x" is forbidden: User "jane" cannot delete resource "deployments" in API group "apps" in the namespace "web"',
      reason: 'Forbidden',
      details: { name: 'x', group: 'apps', kind: 'deployments' },
      code: 403,
    });
  });

  it('a path is `forbidden: ...` with empty details, as kube-scheduler answers an anonymous GET /metrics', () => {
    expect(forbiddenStatus(attrs({ user: ANONYMOUS, resourceRequest: false, path: '/metrics' }), '').status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "system:anonymous" cannot get path "/metrics"',
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
  });
});
