// framework.FitError and Diagnosis: why no node fits, summarised the way
// kubectl describe shows it — "0/3 nodes are available: <PreFilterMsg>.
// <count reason, ...>. <PostFilterMsg>" (the last ends in its own full stop)
// with the "count reason" strings sorted as plain strings (Go's
// sort.Strings), as upstream does.

import type { Pod } from '@kubelab/api';
import type { NodeToStatus } from './interface.js';
import type { Status } from './status.js';

export interface Diagnosis {
  nodeToStatus: NodeToStatus;
  /** Plugins that rejected the pod (to pick the events that may help it). */
  unschedulablePlugins: Set<string>;
  pendingPlugins: Set<string>;
  preFilterMsg: string;
  postFilterMsg: string;
  /** Status of every node not in nodeToStatus (nodes a PreFilter result or preemption left out). */
  absentNodesStatus?: Status;
}

export function newDiagnosis(): Diagnosis {
  return { nodeToStatus: new Map(), unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
}

/** Go's sort.Strings order (byte-wise), which is what JS's default sort does for these ASCII strings. */
function goSortStrings(xs: string[]): string[] {
  return xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The "count reason" histogram over the rejected nodes, sorted. */
export function reasonsHistogram(nodeToStatus: NodeToStatus, numAllNodes = nodeToStatus.size, absent?: Status): string[] {
  const counts = new Map<string, number>();
  for (const s of nodeToStatus.values()) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const missing = numAllNodes - nodeToStatus.size;
  if (absent && missing > 0) for (const r of absent.reasons) counts.set(r, (counts.get(r) ?? 0) + missing);
  return goSortStrings([...counts].map(([r, n]) => `${n} ${r}`));
}

export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg !== '') msg += ` ${d.preFilterMsg}.`;
  else {
    const hist = reasonsHistogram(d.nodeToStatus, numAllNodes, d.absentNodesStatus);
    if (hist.length > 0) msg += ` ${hist.join(', ')}.`;
  }
  // The PostFilter message carries its own full stop (since 1.30 no second one is added).
  if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}`;
  return msg;
}

/** No node fits the pod; not an Error subclass because its text grows after PostFilter runs. */
export class FitError {
  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly diagnosis: Diagnosis,
  ) {}

  /** Upstream FitError.Error(). */
  error(): string {
    return fitErrorMessage(this.numAllNodes, this.diagnosis);
  }
}

/** Upstream's message when the cluster has no nodes at all. */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';
