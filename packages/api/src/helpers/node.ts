// Node helpers (pkg/api/v1/node, component-helpers/scheduling/corev1 taints):
// conditions and toleration matching with upstream semantics.
import type { Node, NodeCondition, NodeConditionType, NodeStatus, Taint, TaintEffect, Toleration } from '../core/v1/types.js';
import { conditionOfType } from './conditions.js';

/** GetNodeCondition: the condition of a type and its index (-1 when absent). */
export function getNodeCondition(status: NodeStatus | undefined, type: NodeConditionType): { index: number; condition?: NodeCondition } {
  return conditionOfType(status?.conditions, type);
}

/** IsNodeReady: the Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return getNodeCondition(node.status, 'Ready').condition?.status === 'True';
}

/** The node's InternalIP (else first address), for dialing the kubelet. */
export function nodeInternalIP(node: Node): string | undefined {
  const addrs = node.status?.addresses ?? [];
  return (addrs.find((a) => a.type === 'InternalIP') ?? addrs[0])?.address;
}

/**
 * Toleration.ToleratesTaint: an effect and key, when given, must match; an empty
 * key with Exists matches every taint; Equal (or empty) compares values.
 */
export function tolerationToleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** TolerationsTolerateTaint: any toleration tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => tolerationToleratesTaint(t, taint));
}

/** FindMatchingUntoleratedTaint: the first taint (passing `filter`) no toleration covers. */
export function findUntoleratedTaint(taints: readonly Taint[] | undefined, tolerations: readonly Toleration[] | undefined, filter: (t: Taint) => boolean = () => true): Taint | undefined {
  return (taints ?? []).find((t) => filter(t) && !tolerationsTolerateTaint(tolerations, t));
}

/** The scheduler's filter: only NoSchedule and NoExecute taints block placement. */
export const schedulingTaintFilter = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

/** Toleration.MatchToleration: same key, operator, value and effect (used to avoid adding duplicates). */
export function matchToleration(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');
}

/** The taints of one effect. */
export function taintsWithEffect(node: Node, effect: TaintEffect): Taint[] {
  return (node.spec?.taints ?? []).filter((t) => t.effect === effect);
}

/**
 * For NoExecute eviction (taint manager): seconds a pod may stay. -1 means
 * forever; 0 means evict now (some taint untolerated, or a toleration of <= 0 s).
 * Uses the first toleration matching each taint, as getMatchingTolerations does.
 */
export function minTolerationSeconds(taints: readonly Taint[], tolerations: readonly Toleration[] | undefined): number {
  if (taints.length === 0) return -1;
  const used: Toleration[] = [];
  for (const taint of taints) {
    const first = (tolerations ?? []).find((t) => tolerationToleratesTaint(t, taint));
    if (!first) return 0;
    used.push(first);
  }
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min;
}
