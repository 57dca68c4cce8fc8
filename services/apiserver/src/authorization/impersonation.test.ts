import { describe, expect, it } from 'vitest';
import { StatusError } from '@kubelab/api';
import { impersonate, impersonationRequests } from './impersonation.js';
import type { AuthorizationAttributes, Authorizer } from './types.js';

const bob = { name: 'bob', groups: ['system:authenticated'] };

/** Allows bob to impersonate what `allowed` lists as `resource/name` (and records every check). */
function authorizer(allowed: string[]): Authorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return {
    asked,
    authorize: (a) => {
      asked.push(a);
      const key = `${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''}/${a.namespace}/${a.name}`;
      return a.verb === 'impersonate' && allowed.includes(key) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' };
    },
  };
}

describe('impersonate', () => {
  it('leaves the requestor alone without the headers', () => {
    expect(impersonate(bob, { accept: ['application/json'] }, authorizer([]))).toBe(bob);
  });

  it.each([
    ['a user gets system:authenticated', { 'impersonate-user': ['jane'] }, ['/users//jane'], { name: 'jane', groups: ['system:authenticated'] }],
    [
      'a user with groups keeps them and is authenticated',
      { 'impersonate-user': ['jane'], 'impersonate-group': ['dev', 'ops'] },
      ['/users//jane', '/groups//dev', '/groups//ops'],
      { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] },
    ],
    [
      'system:unauthenticated in the groups stops system:authenticated',
      { 'impersonate-user': ['jane'], 'impersonate-group': ['system:unauthenticated'] },
      ['/users//jane', '/groups//system:unauthenticated'],
      { name: 'jane', groups: ['system:unauthenticated'] },
    ],
    ['anonymous is unauthenticated', { 'impersonate-user': ['system:anonymous'] }, ['/users//system:anonymous'], { name: 'system:anonymous', groups: ['system:unauthenticated'] }],
    [
      'a service account gets its groups, checked on serviceaccounts in its namespace',
      { 'impersonate-user': ['system:serviceaccount:kube-system:default'] },
      ['/serviceaccounts/kube-system/default'],
      { name: 'system:serviceaccount:kube-system:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] },
    ],
    [
      'uid and extras are checked in authentication.k8s.io',
      { 'impersonate-user': ['jane'], 'impersonate-uid': ['u-1'], 'impersonate-extra-scopes': ['view', 'edit'], 'impersonate-extra-example.com%2fteam': ['a'] },
      [
        '/users//jane',
        'authentication.k8s.io/userextras/scopes//view',
        'authentication.k8s.io/userextras/scopes//edit',
        'authentication.k8s.io/userextras/example.com/team//a',
        'authentication.k8s.io/uids//u-1',
      ],
      { name: 'jane', uid: 'u-1', groups: ['system:authenticated'], extra: { scopes: ['view', 'edit'], 'example.com/team': ['a'] } },
    ],
  ])('%s', (_name, headers, allowed, want) => {
    expect(impersonate(bob, headers, authorizer(allowed))).toEqual(want);
  });

  it('refuses with upstream forbidden text naming the first refused part', () => {
    const run = (headers: Record<string, string[]>, allowed: string[]) => {
      try {
        impersonate(bob, headers, authorizer(allowed));
      } catch (e) {
        return StatusError.isInstance(e) ? e.status : e;
      }
      return 'allowed';
    };
    expect(run({ 'impersonate-user': ['jane'] }, [])).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'jane', kind: 'users' },
      code: 403,
    });
    expect(run({ 'impersonate-user': ['jane'], 'impersonate-group': ['admins'] }, ['/users//jane'])).toMatchObject({
      message: 'groups "admins" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
    });
    expect(run({ 'impersonate-user': ['system:serviceaccount:ns1:builder'] }, [])).toMatchObject({
      message: 'serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"',
    });
    expect(run({ 'impersonate-user': ['jane'], 'impersonate-extra-scopes': ['x'] }, ['/users//jane'])).toMatchObject({
      message: 'userextras.authentication.k8s.io "x" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      details: { name: 'x', group: 'authentication.k8s.io', kind: 'userextras' },
    });
  });
});

describe('impersonationRequests', () => {
  it('a group without a user is a bad request', () => {
    expect(() => impersonationRequests({ 'impersonate-group': ['dev'] })).toThrow('requested [Group "dev"] without impersonating a user');
  });
  it('a malformed service account name is a plain user', () => {
    expect(impersonationRequests({ 'impersonate-user': ['system:serviceaccount:only-ns'] })).toEqual([{ kind: 'User', name: 'system:serviceaccount:only-ns' }]);
  });
});
