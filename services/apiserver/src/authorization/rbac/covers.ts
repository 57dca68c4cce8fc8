// Whether one set of rules grants everything another does (upstream:
// k8s.io/component-helpers/auth/rbac/validation Covers and BreakdownRule).
// The requested rules are broken into one-verb, one-resource (one-name)
// pieces; the pieces no owner rule covers are what is missing. Bootstrap
// reconciliation adds exactly those pieces to a default role that lost some.

import type { PolicyRule } from '@kubelab/api';

const ALL = '*';
const has = (set: readonly string[] | undefined, x: string): boolean => (set ?? []).includes(x);
const hasAll = (set: readonly string[] | undefined, xs: readonly string[] | undefined): boolean => (xs ?? []).every((x) => has(set, x));

/** Every (group, resource, verb[, name]) and (url, verb) of a rule as a rule of its own. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if ((rule.resourceNames ?? []).length > 0) for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourcesCoverAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owner, ALL) || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((r) => {
    if (has(owner, r)) return true;
    const slash = r.indexOf('/');
    return slash >= 0 && has(owner, `*/${r.slice(slash + 1)}`);
  });
}

const urlCovers = (owner: string, path: string): boolean => owner === path || (owner.endsWith(ALL) && path.startsWith(owner.replace(/\*+$/, '')));

const urlsCoverAll = (owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean => (wanted ?? []).every((p) => (owner ?? []).some((o) => urlCovers(o, p)));

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const ownerNames = owner.resourceNames ?? [];
  const names = (sub.resourceNames ?? []).length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return verbs && groups && resourcesCoverAll(owner.resources, sub.resources) && names && urlsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs);
}

/** Whether `owner` covers `wanted`, and the broken-down pieces of `wanted` it does not. */
export function covers(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = wanted.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}
