// Node selector matching (component-helpers/scheduling/corev1/nodeaffinity):
// terms are ORed, requirements within a term ANDed. matchExpressions read the
// node's labels with label-selector rules; matchFields know only metadata.name
// with In/NotIn and exactly one value. A term that is empty or holds an invalid
// requirement matches nothing, as upstream's lazy-error selector does.
import type { Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../core/v1/types.js';

const INT64 = /^[+-]?\d+$/;

/** labels.Requirement.Matches for one node label value (undefined = absent); undefined when the requirement is invalid. */
function labelRequirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean | undefined {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return values.length === 0 ? undefined : value !== undefined && values.includes(value);
    case 'NotIn':
      return values.length === 0 ? undefined : value === undefined || !values.includes(value);
    case 'Exists':
      return values.length !== 0 ? undefined : value !== undefined;
    case 'DoesNotExist':
      return values.length !== 0 ? undefined : value === undefined;
    case 'Gt':
    case 'Lt': {
      const bound = values[0];
      if (values.length !== 1 || bound === undefined || !INT64.test(bound)) return undefined;
      if (value === undefined || !INT64.test(value)) return false;
      return r.operator === 'Gt' ? BigInt(value) > BigInt(bound) : BigInt(value) < BigInt(bound);
    }
    default:
      return undefined;
  }
}

/** nodeSelectorRequirementsAsFieldSelector for metadata.name; undefined when invalid. */
function fieldRequirementMatches(r: NodeSelectorRequirement, nodeName: string): boolean | undefined {
  if (r.key !== 'metadata.name' || r.values?.length !== 1) return undefined;
  if (r.operator === 'In') return r.values[0] === nodeName;
  if (r.operator === 'NotIn') return r.values[0] !== nodeName;
  return undefined;
}

/** One NodeSelectorTerm against a node: every expression and field must match. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels;
  for (const r of exprs) if (labelRequirementMatches(r, labels?.[r.key]) !== true) return false;
  const name = node.metadata.name ?? '';
  for (const r of fields) if (fieldRequirementMatches(r, name) !== true) return false;
  return true;
}

/** NodeSelector.Match: any term matches. */
export function matchNodeSelector(sel: NodeSelector, node: Node): boolean {
  return (sel.nodeSelectorTerms ?? []).some((t) => matchNodeSelectorTerm(t, node));
}

/** Every spec.nodeSelector label is on the node with the same value. */
function matchesNodeSelectorLabels(nodeSelector: Record<string, string> | undefined, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  return Object.entries(nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
}

/** GetRequiredNodeAffinity(pod).Match: spec.nodeSelector and the required node affinity both admit the node. */
export function podMatchesNodeSelectorAndAffinityTerms(pod: Pod, node: Node): boolean {
  if (!matchesNodeSelectorLabels(pod.spec?.nodeSelector, node)) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return !required || matchNodeSelector(required, node);
}
