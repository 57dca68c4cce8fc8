// The scheduling algorithm of one cycle (schedule_one.go schedulePod):
// PreFilter → Filter until enough feasible nodes are found (adaptive
// percentageOfNodesToScore) → PreScore/Score/Normalize × weight → the highest
// total, ties broken at random. Synchronous: the cache cannot change under it.

import type { Pod } from '@kubelab/api';
import type { CycleState } from '../framework/cycle-state.js';
import { FitError, newDiagnosis, NO_NODES_AVAILABLE, type Diagnosis } from '../framework/fit-error.js';
import type { NodeInfo } from '../framework/node-info.js';
import type { FilterPlugin } from '../framework/interface.js';
import type { Framework, PluginScores } from '../framework/runtime.js';
import { asStatus, type Status } from '../framework/status.js';
import { Code, newStatus } from '../framework/status.js';

/** Below this many nodes every node is evaluated (minFeasibleNodesToFind). */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** The adaptive percentage never goes below this (minFeasibleNodesPercentageToFind). */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/** How many feasible nodes to find before scoring: 50% − nodes/125 (floor 5%), at least 100 nodes. */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage <= 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  if (percentage >= 100) return numAllNodes;
  const n = Math.trunc((numAllNodes * percentage) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

export interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
}

/** Errors that are not "no node fits" (upstream returns them as framework.Error). */
export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/** ErrNoNodesAvailable: upstream treats it as UnschedulableAndUnresolvable, not as a scheduler error. */
export class NoNodesAvailableError extends ScheduleError {
  override name = 'NoNodesAvailableError';
  constructor() {
    super(NO_NODES_AVAILABLE);
  }
}

export type ScheduleOutcome = { ok: true; result: ScheduleResult } | { ok: false; fitError: FitError } | { ok: false; error: Error };

/** Keeps the rotation through the node list between cycles (nextStartNodeIndex). */
export interface AlgorithmState {
  nextStartNodeIndex: number;
  random: () => number;
}

export function newAlgorithmState(random: () => number = Math.random): AlgorithmState {
  return { nextStartNodeIndex: 0, random };
}

/** findNodesThatFitPod: PreFilter, then Filter over the nodes starting where the last cycle stopped. */
export function findNodesThatFitPod(
  fwk: Framework,
  algo: AlgorithmState,
  state: CycleState,
  pod: Pod,
  allNodes: readonly NodeInfo[],
): { feasible: NodeInfo[]; diagnosis: Diagnosis } | { error: Error } {
  const diagnosis = newDiagnosis();
  const pre = fwk.runPreFilterPlugins(state, pod, allNodes);
  if (pre.status && !pre.status.isSuccess()) {
    if (!pre.status.isRejected()) return { error: pre.status.error ?? new ScheduleError(pre.status.message()) };
    diagnosis.preFilterMsg = pre.status.message();
    diagnosis.absentNodesStatus = pre.status;
    if (pre.status.plugin) diagnosis.unschedulablePlugins.add(pre.status.plugin);
    return { feasible: [], diagnosis };
  }
  let nodes = allNodes;
  let restricted = false;
  const names = pre.result?.nodeNames;
  if (names) {
    restricted = true;
    const picked: NodeInfo[] = [];
    for (const n of allNodes) if (names.has(n.name)) picked.push(n);
    nodes = picked;
    diagnosis.absentNodesStatus = newStatus(Code.UnschedulableAndUnresolvable, `node(s) didn't satisfy plugin(s) [${(pre.narrowedBy ?? []).join(' ')}]`);
  }
  const feasible = findNodesThatPassFilters(fwk, algo, state, pod, nodes, diagnosis, restricted);
  if ('error' in feasible) return feasible;
  return { feasible, diagnosis };
}

function findNodesThatPassFilters(
  fwk: Framework,
  algo: AlgorithmState,
  state: CycleState,
  pod: Pod,
  nodes: readonly NodeInfo[],
  diagnosis: Diagnosis,
  restricted: boolean,
): NodeInfo[] | { error: Error } {
  const numAll = nodes.length;
  if (numAll === 0) return [];
  const want = numFeasibleNodesToFind(fwk.percentageOfNodesToScore, numAll);
  const feasible: NodeInfo[] = [];
  const start = restricted ? 0 : algo.nextStartNodeIndex % numAll;
  const filters = fwk.activeFilters(state);
  const nf = filters.length;
  let processed = 0;
  let current: FilterPlugin | undefined;
  // One node's filters, stopping at the first that does not say Success.
  const runFilters = (st: CycleState, ni: NodeInfo): Status | undefined => {
    for (let k = 0; k < nf; k++) {
      current = filters[k]!;
      const s = current.filter(st, pod, ni);
      if (s && s.code !== Code.Success) {
        if (s.plugin === '') s.plugin = current.name;
        return s;
      }
    }
    return undefined;
  };
  try {
    for (let i = 0; i < numAll && feasible.length < want; i++) {
      const nodeInfo = nodes[(start + i) % numAll]!;
      processed++;
      // RunFilterPluginsWithNominatedPods: with the pods nominated here of no lower priority, then without them.
      const withNominated = fwk.addNominatedPods(pod, nodeInfo);
      let s = withNominated ? runFilters(state.clone(), withNominated) : undefined;
      if (!s) s = runFilters(state, nodeInfo);
      if (!s) {
        feasible.push(nodeInfo);
        continue;
      }
      if (s.code === Code.Error) return { error: s.error ?? new ScheduleError(s.message()) };
      diagnosis.nodeToStatus.set(nodeInfo.name, s);
      if (s.isRejected()) diagnosis.unschedulablePlugins.add(s.plugin);
      if (s.code === Code.Pending) diagnosis.pendingPlugins.add(s.plugin);
    }
  } catch (err) {
    return { error: asStatus(new Error(`running "${current?.name}" filter plugin: ${(err as Error).message}`)).error! };
  }
  if (!restricted) algo.nextStartNodeIndex = (start + processed) % numAll;
  return feasible;
}

/** selectHost: the highest total; among equals, each is picked with equal probability (reservoir sampling). */
export function selectHost(nodes: readonly { name: string }[], totals: readonly number[], random: () => number): string {
  if (nodes.length === 0) throw new ScheduleError('empty priorityList');
  let best = 0;
  let ties = 1;
  for (let i = 1; i < nodes.length; i++) {
    const t = totals[i]!;
    if (t > totals[best]!) {
      best = i;
      ties = 1;
    } else if (t === totals[best]) {
      ties++;
      if (random() * ties < 1) best = i;
    }
  }
  return nodes[best]!.name;
}

/**
 * What a cycle found, kept only when a decision record is wanted: the
 * feasible nodes in evaluation order, the rejections, each Score plugin's
 * scores (aligned with `feasible`) and the totals.
 */
export interface CycleDetail {
  feasible?: readonly NodeInfo[];
  diagnosis?: Diagnosis;
  scores?: PluginScores[];
  totals?: number[];
}

/** schedulePod: one pod against the current node snapshot; `detail`, when given, is filled for the decision record. */
export function schedulePod(fwk: Framework, algo: AlgorithmState, state: CycleState, pod: Pod, allNodes: readonly NodeInfo[], detail?: CycleDetail): ScheduleOutcome {
  if (allNodes.length === 0) return { ok: false, error: new NoNodesAvailableError() };
  const found = findNodesThatFitPod(fwk, algo, state, pod, allNodes);
  if ('error' in found) return { ok: false, error: found.error };
  const { feasible, diagnosis } = found;
  if (detail) {
    detail.feasible = feasible;
    detail.diagnosis = diagnosis;
  }
  if (feasible.length === 0) return { ok: false, fitError: new FitError(pod, allNodes.length, diagnosis) };
  const evaluatedNodes = feasible.length + diagnosis.nodeToStatus.size;
  if (feasible.length === 1) return { ok: true, result: { suggestedHost: feasible[0]!.name, evaluatedNodes, feasibleNodes: 1 } };
  try {
    const s = fwk.runPreScorePlugins(state, pod, feasible);
    if (s && !s.isSuccess()) return { ok: false, error: s.error ?? new ScheduleError(s.message()) };
    const scores = fwk.runScorePlugins(state, pod, feasible, detail ? (detail.scores = []) : undefined);
    if (detail) detail.totals = scores;
    return { ok: true, result: { suggestedHost: selectHost(feasible, scores, algo.random), evaluatedNodes, feasibleNodes: feasible.length } };
  } catch (err) {
    return { ok: false, error: err as Error };
  }
}
