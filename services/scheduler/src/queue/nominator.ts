// The nominator (upstream internal/queue nominator, framework.PodNominator):
// pods that preempted victims and wait for the space on their nominated node
// (status.nominatedNodeName). Filters count them on that node so pods of no
// higher priority cannot take the space freed for them.

import type { Pod } from '@kubelab/api';
import { newPodInfo, podKey, type PodInfo } from '../framework/node-info.js';

/** What the framework reads (framework.PodNominator's NominatedPodsForNode). */
export interface PodNominator {
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** Whether any pod is nominated anywhere: a cycle with none skips the lookup per node. */
  hasNominatedPods(): boolean;
}

/** The answer for a node with no nomination: one shared list, not a new one per lookup. */
const NONE: readonly PodInfo[] = Object.freeze([]);

export class Nominator implements PodNominator {
  /** node name → nominated pods, and pod key → node name. */
  private readonly byNode = new Map<string, PodInfo[]>();
  private readonly nodeOf = new Map<string, string>();

  /**
   * Records the pod's nomination: to `nodeName` when given (the preemption
   * result, ModeOverride), else to its status.nominatedNodeName; a pod with
   * neither, or already bound, is not nominated anywhere.
   */
  addNominatedPod(pod: Pod, nodeName?: string): void {
    this.deleteNominatedPodIfExists(pod);
    const node = nodeName ?? pod.status?.nominatedNodeName;
    if (!node || pod.spec?.nodeName) return;
    const key = podKey(pod);
    this.nodeOf.set(key, node);
    const list = this.byNode.get(node);
    if (list) list.push(newPodInfo(pod));
    else this.byNode.set(node, [newPodInfo(pod)]);
  }

  /**
   * updateNominatedPod: an update that arrives before the status patch
   * naming the node keeps the nomination made in memory; one that clears
   * status.nominatedNodeName drops it.
   */
  updateNominatedPod(oldPod: Pod, newPod: Pod): void {
    const fromStatus = newPod.status?.nominatedNodeName;
    const keep = !oldPod.status?.nominatedNodeName && !fromStatus ? this.nodeOf.get(podKey(oldPod)) : undefined;
    this.addNominatedPod(newPod, fromStatus || keep);
  }

  deleteNominatedPodIfExists(pod: Pod): void {
    const key = podKey(pod);
    const node = this.nodeOf.get(key);
    if (node === undefined) return;
    this.nodeOf.delete(key);
    const rest = (this.byNode.get(node) ?? []).filter((p) => p.key !== key);
    if (rest.length > 0) this.byNode.set(node, rest);
    else this.byNode.delete(node);
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? NONE;
  }

  hasNominatedPods(): boolean {
    return this.byNode.size > 0;
  }

  /** The node a pod is nominated to (tests, debugging). */
  nominatedNodeOf(pod: Pod): string | undefined {
    return this.nodeOf.get(podKey(pod));
  }
}
