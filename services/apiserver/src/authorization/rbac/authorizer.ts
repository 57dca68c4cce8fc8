// The RBAC authorizer (upstream: plugin/pkg/auth/authorizer/rbac
// RBACAuthorizer): Allow when any rule that applies to the user allows the
// request, with the binding that granted it as the reason; otherwise no
// opinion (the next authorizer, or a 403), with any resolution errors as the
// reason. It also answers RulesFor for SelfSubjectRulesReview.

import type { UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes, Authorizer, AuthorizerResult, NonResourceRule, ResourceRule, RuleResolver } from '../types.js';
import { aggregateErrors, describeSource, visitRulesFor, type PolicySource, type RuleSource } from './resolver.js';
import { ruleAllows } from './rules.js';

export class RbacAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly source: PolicySource) {}

  authorize(a: AuthorizationAttributes): AuthorizerResult {
    let allowedBy: RuleSource | undefined;
    const errors: string[] = [];
    visitRulesFor(this.source, a.user, a.namespace, (source, rule, err) => {
      if (rule && source && ruleAllows(a, rule)) {
        allowedBy = source;
        return false;
      }
      if (err) errors.push(err);
      return true;
    });
    if (allowedBy) return { decision: 'Allow', reason: `RBAC: allowed by ${describeSource(allowedBy)}` };
    return { decision: 'NoOpinion', reason: errors.length ? `RBAC: ${aggregateErrors(errors)}` : '' };
  }

  rulesFor(user: UserInfo, namespace: string): ReturnType<RuleResolver['rulesFor']> {
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    const errors: string[] = [];
    visitRulesFor(this.source, user, namespace, (_source, rule, err) => {
      if (err) errors.push(err);
      if (!rule) return true;
      if ((rule.resources ?? []).length > 0) {
        const r: ResourceRule = { verbs: [...rule.verbs], apiGroups: [...(rule.apiGroups ?? [])], resources: [...(rule.resources ?? [])] };
        if ((rule.resourceNames ?? []).length > 0) r.resourceNames = [...rule.resourceNames!];
        resourceRules.push(r);
      }
      if ((rule.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs!] });
      return true;
    });
    const out: ReturnType<RuleResolver['rulesFor']> = { resourceRules, nonResourceRules, incomplete: false };
    if (errors.length) out.evaluationError = aggregateErrors(errors);
    return out;
  }
}
