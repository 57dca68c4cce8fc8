// The RBAC authorizer (upstream: plugin/pkg/auth/authorizer/rbac
// RBACAuthorizer): Allow when any rule that applies to the user allows the
// request, with the binding that granted it as the reason; otherwise no
// opinion (the next authorizer, or a 403), with any resolution errors as the
// reason. It also answers RulesFor for SelfSubjectRulesReview.

import type { UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes, Authorizer, AuthorizerResult, NonResourceRule, ResourceRule, RuleResolver } from '../types.js';
import { aggregateErrors, describeSource, visitRulesFor, type PolicySource, type RuleSource } from './resolver.js';
import { ruleAllows } from './rules.js';

/** Decisions remembered per policy generation; past this many the memo starts over (bounded memory). */
export const MEMO_LIMIT = 4096;

/** Each part length-prefixed: names, groups and URL parts may hold any character, and no two requests may share a key. */
const part = (v: string) => `${v.length}:${v}`;

/** A user's part of the key, made once per user object (authenticators give one identity one object). */
const userParts = new WeakMap<UserInfo, string>();
function userPart(u: UserInfo): string {
  let k = userParts.get(u);
  if (k === undefined) {
    k = part(u.name) + String(u.groups.length);
    for (const g of u.groups) k += part(g);
    userParts.set(u, k);
  }
  return k;
}

/** What an RBAC decision depends on: the user's name and groups and the request's attributes (not apiVersion, uid or extra). */
export function decisionKey(a: AuthorizationAttributes): string {
  const who = userPart(a.user) + part(a.verb);
  return a.resourceRequest ? who + part(a.namespace) + part(a.apiGroup) + part(a.resource) + part(a.subresource) + part(a.name) : `${who}/${part(a.path)}`;
}

export class RbacAuthorizer implements Authorizer, RuleResolver {
  // A busy client repeats the same request: its decision is remembered until
  // any role or binding changes (the source's generation), so the rule walk
  // runs once per policy change instead of once per request.
  private readonly memo = new Map<string, AuthorizerResult>();
  private memoGeneration: number | undefined;

  constructor(private readonly source: PolicySource) {}

  authorize(a: AuthorizationAttributes): AuthorizerResult {
    const gen = this.source.generation;
    if (gen === undefined) return this.decide(a);
    if (gen !== this.memoGeneration || this.memo.size >= MEMO_LIMIT) {
      this.memo.clear();
      this.memoGeneration = gen;
    }
    const key = decisionKey(a);
    let out = this.memo.get(key);
    if (!out) this.memo.set(key, (out = this.decide(a)));
    return out;
  }

  private decide(a: AuthorizationAttributes): AuthorizerResult {
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
