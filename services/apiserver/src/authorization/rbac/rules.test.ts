import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@kubelab/api';
import type { AuthorizationAttributes } from '../types.js';
import { ruleAllows } from './rules.js';

const user = { name: 'jane', groups: ['system:authenticated'] };
const res = (verb: string, resource: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => {
  const [r, sub = ''] = resource.split('/');
  return { user, verb, resourceRequest: true, path: '', namespace: 'default', apiGroup: '', apiVersion: 'v1', resource: r!, subresource: sub, name: '', ...extra };
};
const path = (verb: string, p: string): AuthorizationAttributes => ({
  user,
  verb,
  resourceRequest: false,
  path: p,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
});

const podsRead: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };

describe('ruleAllows (upstream RuleAllows)', () => {
  it.each<[string, PolicyRule, AuthorizationAttributes, boolean]>([
    ['verb, group and resource match', podsRead, res('get', 'pods'), true],
    ['another verb', podsRead, res('delete', 'pods'), false],
    ['another group', podsRead, res('get', 'pods', { apiGroup: 'apps' }), false],
    ['a subresource is not the resource', podsRead, res('get', 'pods/log'), false],
    ['pods/log names the subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', 'pods/log'), true],
    ['pods/log does not allow pods', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', 'pods'), false],
    ['* verbs', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('deletecollection', 'pods'), true],
    ['* groups', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res('get', 'deployments', { apiGroup: 'apps' }), true],
    ['* resources covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', 'pods/log'), true],
    ['*/scale matches any scale subresource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, res('get', 'deployments/scale', { apiGroup: 'apps' }), true],
    ['*/scale is not the resource itself', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, res('get', 'deployments', { apiGroup: 'apps' }), false],
    ['*/scale is not another subresource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, res('get', 'deployments/status', { apiGroup: 'apps' }), false],
    [
      'resourceNames: the named object',
      { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'] },
      res('get', 'configmaps', { name: 'kube-proxy' }),
      true,
    ],
    ['resourceNames: another object', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'] }, res('get', 'configmaps', { name: 'other' }), false],
    ['resourceNames: a list carries no name', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'] }, res('list', 'configmaps'), false],
    ['resourceNames: a create carries no name', { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'] }, res('create', 'configmaps'), false],
    ['a resource rule does not allow a path', podsRead, path('get', '/api'), false],
    ['a path rule does not allow a resource', { verbs: ['get'], nonResourceURLs: ['*'] }, res('get', 'pods'), false],
    ['an exact path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz'), true],
    ['not a longer path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz/etcd'), false],
    ['a trailing * is a prefix', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path('get', '/apis/apps/v1'), true],
    ['the prefix includes its slash', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path('get', '/apis'), false],
    ['* is every path', { verbs: ['*'], nonResourceURLs: ['*'] }, path('post', '/anything'), true],
    ['path verbs are HTTP methods', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('post', '/healthz'), false],
  ])('%s', (_n, rule, a, want) => {
    expect(ruleAllows(a, rule)).toBe(want);
  });
});
