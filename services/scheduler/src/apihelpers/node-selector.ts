// Node selector matching (component-helpers/scheduling/corev1/nodeaffinity):
// terms are ORed, requirements within a term ANDed; matchFields only knows
// metadata.name. Kept here until @kubelab/api ships label-selector helpers.

import type { Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm } from '@kubelab/api';

function matchRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const has = value !== undefined;
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(value);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || r.values?.length !== 1) return false;
      if (!/^-?\d+$/.test(value) || !/^-?\d+$/.test(r.values[0]!)) return false;
      const a = Number(value);
      const b = Number(r.values[0]);
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** One term: every expression on labels and every field (metadata.name) must match. An empty term matches nothing. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, labels: Record<string, string> | undefined, name: string): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  for (const r of exprs) if (!matchRequirement(r, labels?.[r.key])) return false;
  for (const r of fields) {
    if (r.key !== 'metadata.name') return false;
    if (!matchRequirement(r, name)) return false;
  }
  return true;
}

/** NodeSelector: the terms are ORed. */
export function matchNodeSelector(sel: NodeSelector, node: Node): boolean {
  const labels = node.metadata.labels;
  const name = node.metadata.name ?? '';
  for (const term of sel.nodeSelectorTerms ?? []) if (matchNodeSelectorTerm(term, labels, name)) return true;
  return false;
}
