// When `kubelab up` calls a node ready: its kubelet posts Ready=True and the
// node lifecycle controller has lifted the taints it put on while the node was
// not (TaintNodesByCondition's not-ready/unreachable), so a pod created next
// is scheduled at once instead of waiting in the unschedulable queue.

import { isNodeReady, type Node } from '@kubelab/api';

/** The taints the node lifecycle controller sets while Ready is not True. */
const READINESS_TAINTS = new Set(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);

/** Ready, and no readiness taint left (a user's own taints do not count). */
export function nodeTakesPods(node: Node): boolean {
  return isNodeReady(node) && !(node.spec?.taints ?? []).some((t) => READINESS_TAINTS.has(t.key));
}
