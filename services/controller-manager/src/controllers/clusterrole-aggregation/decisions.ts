// The rules an aggregated ClusterRole should hold (upstream
// clusterroleaggregation syncClusterRole): for each of its selectors in
// order, the rules of the ClusterRoles it matches, by name, itself left out,
// each distinct rule once.

import { labelSelectorAsSelector, semanticJson, type ClusterRole, type PolicyRule } from '@kubelab/api';

export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorAsSelector(sel);
    const matched = all.filter((r) => r.metadata.name !== role.metadata.name && selector.matches(r.metadata.labels ?? {}));
    matched.sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    for (const r of matched) {
      for (const rule of r.rules ?? []) {
        const k = semanticJson(rule);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(rule);
      }
    }
  }
  return out;
}

/** Whether the stored rules already are these (nil and empty alike, as equality.Semantic). */
export const rulesEqual = (a: readonly PolicyRule[] | undefined, b: readonly PolicyRule[] | undefined): boolean => semanticJson(a ?? []) === semanticJson(b ?? []);
