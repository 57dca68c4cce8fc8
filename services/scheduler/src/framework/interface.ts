// The plugin contract (framework/interface.go): a base with a name and one
// small interface per extension point; a plugin implements the ones it needs
// and declares them with `satisfies`.

import type { Pod } from '@kubelab/api';
import type { CycleState } from './cycle-state.js';
import type { ClusterEvent } from './events.js';
import type { NodeInfo } from './node-info.js';
import type { Status } from './status.js';

/** Highest score a Score plugin may give after normalization. */
export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

export interface Plugin {
  readonly name: string;
}

/** A pod waiting in the queue, with its attempt bookkeeping (framework.QueuedPodInfo). */
export interface QueuedPodInfo {
  pod: Pod;
  key: string;
  /** When the pod was added to the queue, or moved back to it (ms). */
  timestamp: number;
  /** When the pod first entered the queue (ms), for the e2e scheduling latency. */
  initialAttemptTimestamp: number | undefined;
  attempts: number;
  /** Plugins that rejected the pod in its last attempt. */
  unschedulablePlugins: Set<string>;
  /** Plugins that made the pod Pending (not retried on backoff). */
  pendingPlugins: Set<string>;
  /** PreEnqueue plugin that keeps the pod out of activeQ (e.g. SchedulingGates). */
  gatingPlugin: string | undefined;
}

export interface PreEnqueuePlugin extends Plugin {
  /** Success lets the pod into activeQ; anything else keeps it gated. */
  preEnqueue(pod: Pod): Status | undefined;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** Narrows the nodes to evaluate (e.g. a required matchFields metadata.name). */
export interface PreFilterResult {
  nodeNames?: Set<string>;
}

export interface PreFilterPlugin extends Plugin {
  /** Computes per-pod state once. Return Skip to have Filter not run for this pod. */
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { result?: PreFilterResult; status?: Status } | undefined;
}

export interface FilterPlugin extends Plugin {
  /** undefined (or Success) when the pod fits the node. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
}

/** Where each rejected node's status is kept for the FitError and PostFilter. */
export type NodeToStatus = Map<string, Status>;

export interface PostFilterResult {
  nominatedNodeName?: string;
}

export interface PostFilterPlugin extends Plugin {
  /** Runs when no node fits (preemption). */
  postFilter(state: CycleState, pod: Pod, statuses: NodeToStatus): Promise<{ result?: PostFilterResult; status: Status }>;
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined;
}

export interface NodeScore {
  name: string;
  score: number;
}

export interface ScorePlugin extends Plugin {
  /** A score in [0, 100] (or any non-negative number when normalizeScore follows). Throws on internal errors. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number;
  /** Rescales this plugin's scores for all feasible nodes into [0, 100] in place. */
  normalizeScore?(state: CycleState, pod: Pod, scores: NodeScore[]): Status | undefined;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PreBindPlugin extends Plugin {
  /** Runs before Bind (VolumeBinding writes the volume decisions and waits for them); a failure fails the binding cycle. */
  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined>;
}

export interface BindPlugin extends Plugin {
  /** Skip lets the next bind plugin try. */
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined>;
}

/** What a rejected pod waits for: events after which it is worth retrying. */
export interface ClusterEventWithHint {
  event: ClusterEvent;
  /** Optional finer check (QueueingHintFn): true = Queue, false = QueueSkip. */
  hint?: (pod: Pod, oldObj: unknown, newObj: unknown) => boolean;
}

export interface EnqueueExtensions extends Plugin {
  eventsToRegister(): ClusterEventWithHint[];
}

/** Type guards used by the runtime to sort plugins into extension points. */
export const is = {
  preEnqueue: (p: Plugin): p is PreEnqueuePlugin => typeof (p as PreEnqueuePlugin).preEnqueue === 'function',
  queueSort: (p: Plugin): p is QueueSortPlugin => typeof (p as QueueSortPlugin).less === 'function',
  preFilter: (p: Plugin): p is PreFilterPlugin => typeof (p as PreFilterPlugin).preFilter === 'function',
  filter: (p: Plugin): p is FilterPlugin => typeof (p as FilterPlugin).filter === 'function',
  postFilter: (p: Plugin): p is PostFilterPlugin => typeof (p as PostFilterPlugin).postFilter === 'function',
  preScore: (p: Plugin): p is PreScorePlugin => typeof (p as PreScorePlugin).preScore === 'function',
  score: (p: Plugin): p is ScorePlugin => typeof (p as ScorePlugin).score === 'function',
  reserve: (p: Plugin): p is ReservePlugin => typeof (p as ReservePlugin).reserve === 'function',
  preBind: (p: Plugin): p is PreBindPlugin => typeof (p as PreBindPlugin).preBind === 'function',
  bind: (p: Plugin): p is BindPlugin => typeof (p as BindPlugin).bind === 'function',
  enqueueExtensions: (p: Plugin): p is EnqueueExtensions => typeof (p as EnqueueExtensions).eventsToRegister === 'function',
};
