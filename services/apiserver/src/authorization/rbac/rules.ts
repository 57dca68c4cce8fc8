// Does one PolicyRule allow a request (upstream: plugin/pkg/auth/authorizer/
// rbac RuleAllows and pkg/apis/rbac/v1 evaluation_helpers): verbs and API
// groups match exactly or by `*`; resources by `*`, exactly (`pods/log` for a
// subresource) or `*/<subresource>`; resourceNames, when set, must hold the
// request's name (so they never allow list, watch, create or deletecollection,
// which carry none); non-resource URLs exactly, by `*`, or by a prefix ending
// in `*`.

import type { PolicyRule } from '@kubelab/api';
import type { AuthorizationAttributes } from '../types.js';

const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => r === ALL || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === ALL || u === path || (u.endsWith(ALL) && path.startsWith(u.replace(/\*+$/, ''))));
}

export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  if (!a.resourceRequest) return nonResourceURLMatches(rule, a.path);
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return apiGroupMatches(rule, a.apiGroup) && resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
}

export function rulesAllow(a: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(a, r));
}
