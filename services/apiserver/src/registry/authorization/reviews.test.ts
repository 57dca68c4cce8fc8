import { describe, expect, it } from 'vitest';
import { StatusError, type KubeObject } from '@kubelab/api';
import type { AuthorizationAttributes, Authorizer, RuleResolver } from '../../authorization/types.js';
import type { ResourceStore } from '../interface.js';
import { reviewStores } from './reviews.js';

const jane = { name: 'jane', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const asked: AuthorizationAttributes[] = [];
const authorizer: Authorizer = {
  authorize: (a) => {
    asked.push(a);
    if (a.verb === 'delete') return { decision: 'Deny', reason: 'never' };
    return a.user.name === 'jane' && a.verb === 'get' ? { decision: 'Allow', reason: 'jane reads' } : { decision: 'NoOpinion', reason: '' };
  },
};
const resolver: RuleResolver = {
  rulesFor: (user, ns) => ({ resourceRules: [{ verbs: ['get'], resources: [`${user.name}-${ns}`] }], nonResourceRules: [], incomplete: true, evaluationError: 'partial' }),
};
const stores = new Map(reviewStores(authorizer, resolver, () => new Date('2026-01-01T00:00:00Z')).map((s) => [`${s.info.resource}.${s.info.group}/${s.info.version}`, s]));
const store = (key: string): ResourceStore => stores.get(key)!;
const obj = (o: Record<string, unknown>) => ({ metadata: {}, ...o }) as unknown as KubeObject;

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (StatusError.isInstance(e)) return { code: e.code, message: e.status.message };
    throw e;
  }
  throw new Error('expected a failure');
}

describe('the review APIs', () => {
  it('SelfSubjectAccessReview answers for the caller', async () => {
    const out = await store('selfsubjectaccessreviews.authorization.k8s.io/v1').create(
      undefined,
      obj({ spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default', name: 'web' } } }),
      { user: jane },
    );
    expect(out).toMatchObject({ status: { allowed: true, reason: 'jane reads' } });
    expect(asked.at(-1)).toMatchObject({ user: jane, verb: 'get', resourceRequest: true, namespace: 'default', resource: 'pods', name: 'web' });
    const denied = await store('selfsubjectaccessreviews.authorization.k8s.io/v1').create(undefined, obj({ spec: { nonResourceAttributes: { verb: 'delete', path: '/x' } } }), { user: jane });
    expect((denied as unknown as { status: unknown }).status).toEqual({ allowed: false, denied: true, reason: 'never' });
  });

  it('SubjectAccessReview answers for the user in its spec, and validates as upstream', async () => {
    const sar = store('subjectaccessreviews.authorization.k8s.io/v1');
    const out = await sar.create(undefined, obj({ spec: { user: 'jane', groups: ['dev'], resourceAttributes: { verb: 'get', resource: 'pods' } } }), { user: { name: 'admin', groups: [] } });
    expect((out as unknown as { status: unknown }).status).toEqual({ allowed: true, reason: 'jane reads' });
    expect(await failure(sar.create(undefined, obj({ spec: { resourceAttributes: { verb: 'get' } } }), { user: jane }))).toEqual({
      code: 422,
      message: 'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    });
    expect(await failure(sar.create(undefined, obj({ metadata: { name: 'x' }, spec: { user: 'jane', resourceAttributes: {}, nonResourceAttributes: {} } }), { user: jane }))).toMatchObject({
      code: 422,
      message: expect.stringMatching(
        /^SubjectAccessReview.authorization.k8s.io "" is invalid: \[spec.nonResourceAttributes: Invalid value: .*: cannot be specified in combination with resourceAttributes, metadata: Invalid value: .*: must be empty\]$/,
      ),
    });
  });

  it('LocalSubjectAccessReview keeps to its namespace', async () => {
    const lsar = store('localsubjectaccessreviews.authorization.k8s.io/v1');
    expect(await failure(lsar.create('ns1', obj({ metadata: { namespace: 'ns1' }, spec: { user: 'jane', resourceAttributes: { verb: 'get', namespace: 'ns2' } } }), { user: jane }))).toMatchObject({
      code: 422,
      message: expect.stringContaining('spec.resourceAttributes.namespace: Invalid value: "ns2": must match metadata.namespace'),
    });
    expect(await lsar.create('ns1', obj({ metadata: { namespace: 'ns1' }, spec: { user: 'jane', resourceAttributes: { verb: 'get', namespace: 'ns1' } } }), { user: jane })).toMatchObject({
      status: { allowed: true },
    });
  });

  it('SelfSubjectRulesReview reports the resolvers rules, incomplete as they say', async () => {
    const ssrr = store('selfsubjectrulesreviews.authorization.k8s.io/v1');
    expect(await ssrr.create(undefined, obj({ spec: { namespace: 'default' } }), { user: jane })).toMatchObject({
      status: { resourceRules: [{ verbs: ['get'], resources: ['jane-default'] }], nonResourceRules: [], incomplete: true, evaluationError: 'partial' },
    });
    expect(await failure(ssrr.create(undefined, obj({ spec: {} }), { user: jane }))).toEqual({ code: 400, message: 'no namespace on request' });
  });

  it.each(['v1', 'v1beta1'])('SelfSubjectReview %s tells the caller who it is', async (version) => {
    expect(await store(`selfsubjectreviews.authentication.k8s.io/${version}`).create(undefined, obj({}), { user: jane })).toEqual({
      apiVersion: `authentication.k8s.io/${version}`,
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { userInfo: { username: 'jane', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } } },
    });
  });

  it('refuses every verb but create', async () => {
    expect(await failure(store('subjectaccessreviews.authorization.k8s.io/v1').get(undefined, 'x'))).toEqual({ code: 405, message: 'the server does not allow this method on the requested resource' });
  });
});
