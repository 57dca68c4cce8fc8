// The authorizer chain (upstream: authorization/union and authorizerfactory):
// authorizers asked in `--authorization-mode` order, the first Allow or Deny
// wins; no decision is NoOpinion with every reason given, one a line. The
// rule resolvers of SelfSubjectRulesReview are unioned the same way.

import { GROUP_MASTERS, type UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes, Authorizer, AuthorizerResult, NonResourceRule, ResourceRule, RuleResolver } from './types.js';

export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(a: AuthorizationAttributes): AuthorizerResult {
      let reasons: string[] | undefined;
      for (const z of authorizers) {
        const r = z.authorize(a);
        if (r.decision !== 'NoOpinion') return r;
        if (r.reason) (reasons ??= []).push(r.reason);
      }
      return { decision: 'NoOpinion', reason: reasons ? reasons.join('\n') : '' };
    },
  };
}

export type Rules = ReturnType<RuleResolver['rulesFor']>;

export function unionRuleResolver(resolvers: readonly RuleResolver[]): RuleResolver {
  return {
    rulesFor(user: UserInfo, namespace: string): Rules {
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const r of resolvers) {
        const got = r.rulesFor(user, namespace);
        resourceRules.push(...got.resourceRules);
        nonResourceRules.push(...got.nonResourceRules);
        if (got.incomplete) incomplete = true;
        if (got.evaluationError) errors.push(got.evaluationError);
      }
      // utilerrors.NewAggregate: one error as itself, several as [a, b].
      const out: Rules = { resourceRules, nonResourceRules, incomplete };
      if (errors.length === 1) out.evaluationError = errors[0]!;
      else if (errors.length > 1) out.evaluationError = `[${errors.join(', ')}]`;
      return out;
    },
  };
}

const ALLOW: AuthorizerResult = Object.freeze({ decision: 'Allow', reason: '' });
const NO_OPINION: AuthorizerResult = Object.freeze({ decision: 'NoOpinion', reason: '' });

/** `--authorization-mode=AlwaysAllow` (upstream authorizerfactory.NewAlwaysAllowAuthorizer): everything, and rules saying so. */
export const alwaysAllow: Authorizer & RuleResolver = {
  authorize: () => ALLOW,
  rulesFor: () => ({ resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false }),
};

/** `--authorization-mode=AlwaysDeny`. */
export const alwaysDeny: Authorizer & RuleResolver = {
  authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

/** Members of these groups may do anything (upstream NewPrivilegedGroups(system:masters), first in the chain, no rules of its own). */
export function privilegedGroups(...groups: string[]): Authorizer {
  return { authorize: (a) => (a.user.groups.some((g) => groups.includes(g)) ? ALLOW : NO_OPINION) };
}

export const superuserAuthorizer = privilegedGroups(GROUP_MASTERS);
