import { describe, expect, it } from 'vitest';
import { AuthorizationModeError, buildAuthorization } from './modes.js';
import { alwaysAllow, alwaysDeny, unionAuthorizer, unionRuleResolver } from './union.js';
import type { AuthorizationAttributes, Authorizer, AuthorizerResult, RuleResolver } from './types.js';

const attrs = (user: { name: string; groups: string[] }): AuthorizationAttributes => ({
  user,
  verb: 'get',
  resourceRequest: true,
  path: '',
  namespace: 'default',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: 'web',
});
const jane = { name: 'jane', groups: ['system:authenticated'] };
const says = (decision: AuthorizerResult['decision'], reason = ''): Authorizer => ({ authorize: () => ({ decision, reason }) });

describe('unionAuthorizer', () => {
  it.each<[string, Authorizer[], AuthorizerResult]>([
    ['no authorizers: no opinion', [], { decision: 'NoOpinion', reason: '' }],
    ['the first Allow wins', [says('NoOpinion', 'not mine'), says('Allow', 'ok'), says('Deny', 'no')], { decision: 'Allow', reason: 'ok' }],
    ['the first Deny wins', [says('Deny', 'no'), says('Allow')], { decision: 'Deny', reason: 'no' }],
    ['no decision: every reason, one a line', [says('NoOpinion', 'a'), says('NoOpinion'), says('NoOpinion', 'b')], { decision: 'NoOpinion', reason: 'a\nb' }],
  ])('%s', (_name, list, want) => {
    expect(unionAuthorizer(list).authorize(attrs(jane))).toEqual(want);
  });

  it('asks no authorizer after a decision', () => {
    let asked = 0;
    unionAuthorizer([says('Allow'), { authorize: () => (asked++, { decision: 'Deny', reason: '' }) }]).authorize(attrs(jane));
    expect(asked).toBe(0);
  });
});

describe('unionRuleResolver', () => {
  const r = (incomplete: boolean, evaluationError?: string, verbs = ['get']): RuleResolver => ({
    rulesFor: () => ({ resourceRules: [{ verbs, resources: ['pods'] }], nonResourceRules: [], incomplete, ...(evaluationError ? { evaluationError } : {}) }),
  });
  it('joins rules; incomplete when any is; errors aggregated as upstream', () => {
    expect(unionRuleResolver([r(false), r(true, 'x', ['list'])]).rulesFor(jane, 'default')).toEqual({
      resourceRules: [
        { verbs: ['get'], resources: ['pods'] },
        { verbs: ['list'], resources: ['pods'] },
      ],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'x',
    });
    expect(unionRuleResolver([r(true, 'x'), r(true, 'y')]).rulesFor(jane, 'default').evaluationError).toBe('[x, y]');
  });
});

describe('buildAuthorization', () => {
  const deps = { cache: { observe: () => () => undefined, list: () => [], get: () => undefined } };
  const factories = { AlwaysAllow: () => alwaysAllow, AlwaysDeny: () => alwaysDeny, Node: () => says('NoOpinion', 'not a node') };

  it('puts system:masters first, then the modes in order', () => {
    const { authorizer } = buildAuthorization(['AlwaysDeny'], factories, deps);
    expect(authorizer.authorize(attrs({ name: 'admin', groups: ['system:masters'] }))).toEqual({ decision: 'Allow', reason: '' });
    expect(authorizer.authorize(attrs(jane))).toEqual({ decision: 'Deny', reason: 'Everything is forbidden.' });
    expect(buildAuthorization(['Node', 'AlwaysAllow'], factories, deps).authorizer.authorize(attrs(jane)).decision).toBe('Allow');
  });

  it('unions the rule resolvers of the modes that have them', () => {
    const { ruleResolver } = buildAuthorization(['Node', 'AlwaysAllow'], factories, deps);
    expect(ruleResolver.rulesFor(jane, 'default')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });

  it.each([
    [[], 'at least one authorization-mode must be passed'],
    [['Foo'], 'authorization-mode "Foo" is not a valid mode'],
    [['ABAC'], 'authorization-mode "ABAC" is not supported by kubelab'],
    [['Node', 'Node'], 'authorization-mode ["Node" "Node"] has mode specified more than once'],
  ])('refuses %j: %s', (modes, message) => {
    expect(() => buildAuthorization(modes, factories, deps)).toThrow(new AuthorizationModeError(message));
  });
});
