// A scheduling cycle as a decision record (kubelab's, in the role of
// kube-scheduler-simulator's result annotations; the shape lives in
// @kubelab/proto/sched-record): per node, the Filter plugins that ran and
// what each said, per feasible node each Score plugin's raw and
// normalized score. Pure: built from what the cycle kept (CycleDetail), after
// the cycle, so scheduling itself does no extra work per plugin.

import type { Pod } from '@kubelab/api';
import { SCHED_RECORD_MAX_NODES, type NodeDecision, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import type { CycleDetail } from '../algorithm/schedule-pod.js';
import type { CycleState } from '../framework/cycle-state.js';
import type { NodeInfo } from '../framework/node-info.js';
import type { Framework } from '../framework/runtime.js';
import { codeName, type Status } from '../framework/status.js';

export interface DecisionInput {
  fwk: Framework;
  state: CycleState;
  pod: Pod;
  allNodes: readonly NodeInfo[];
  /** What the cycle kept; absent: a summary record (`detailOmitted`), no nodes. */
  detail: CycleDetail | undefined;
  result: SchedulingDecisionRecord['result'];
  node?: string;
  message?: string;
  cycle: number;
  attempts: number;
  startMs: number;
  durationMs: number;
  postFilter?: SchedulingDecisionRecord['postFilter'];
  /** The cycle's count (a summary record has no feasible list to count). */
  feasibleNodes?: number;
  maxNodes?: number;
}

/** A status as the record's rejection: the plugin, upstream's code name and reasons. */
function rejection(s: Status): NonNullable<NodeDecision['rejectedBy']> {
  return { plugin: s.plugin || 'unknown', code: codeName(s.code), reasons: [...s.reasons] };
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The trace id of the pod's `kubelab.io/traceparent` annotation, if it holds a valid one. */
export function podTraceId(pod: Pod): string | undefined {
  const tp = pod.metadata.annotations?.['kubelab.io/traceparent'];
  const m = tp ? TRACEPARENT.exec(tp.trim()) : null;
  return m && !/^0+$/.test(m[1]!) ? m[1] : undefined;
}

/** The record of one cycle. Nodes: the feasible ones (in evaluation order), then the rejected; at most maxNodes, the chosen one always. */
export function buildDecisionRecord(input: DecisionInput): SchedulingDecisionRecord {
  const { fwk, state, pod, allNodes } = input;
  const detail = input.detail ?? {};
  const max = input.maxNodes ?? SCHED_RECORD_MAX_NODES;
  const filterPlugins = fwk.filter.map((p) => p.name);
  const skippedFilters = filterPlugins.filter((p) => state.skipFilterPlugins.has(p));
  const feasible = detail.feasible ?? [];
  const diagnosis = detail.diagnosis;
  const nodes: NodeDecision[] = [];
  const scoreRows = detail.scores ?? [];
  for (let i = 0; i < feasible.length; i++) {
    const name = feasible[i]!.name;
    if (nodes.length >= max && name !== input.node) continue;
    const d: NodeDecision = { name, verdict: 'feasible' };
    if (detail.totals) {
      d.raw = scoreRows.map((s) => s.raw[i]!);
      d.normalized = scoreRows.map((s) => s.normalized[i]!);
      d.total = detail.totals[i]!;
    }
    nodes.push(d);
  }
  if (diagnosis) {
    for (const [name, status] of diagnosis.nodeToStatus) {
      if (nodes.length >= max) break;
      nodes.push({ name, verdict: 'rejected', rejectedBy: rejection(status) });
    }
    // A PreFilter rejection (or the nodes its result left out) applies to the other nodes without any Filter running.
    const absent = diagnosis.absentNodesStatus;
    if (absent) {
      const listed = new Set(nodes.map((n) => n.name));
      for (const n of allNodes) {
        if (nodes.length >= max) break;
        if (listed.has(n.name) || diagnosis.nodeToStatus.has(n.name)) continue;
        nodes.push({ name: n.name, verdict: 'rejected', rejectedBy: { ...rejection(absent), plugin: absent.plugin || 'PreFilter', preFilter: true } });
      }
    }
  }
  const recorded = nodes.length;
  const rec: SchedulingDecisionRecord = {
    time: new Date(input.startMs).toISOString(),
    profile: fwk.profileName,
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name ?? '',
    cycle: input.cycle,
    attempts: input.attempts,
    result: input.result,
    durationMs: Math.round(input.durationMs * 1000) / 1000,
    numAllNodes: allNodes.length,
    feasibleNodes: input.feasibleNodes ?? feasible.length,
    filterPlugins,
    skippedFilters,
    scorePlugins: fwk.score.map(({ plugin, weight }) => ({ plugin: plugin.name, weight })),
    nodes,
    omittedNodes: Math.max(0, allNodes.length - recorded),
  };
  if (!input.detail) rec.detailOmitted = true;
  if (pod.metadata.uid) rec.uid = pod.metadata.uid;
  const traceId = podTraceId(pod);
  if (traceId) rec.traceId = traceId;
  if (input.node) rec.node = input.node;
  if (input.message) rec.message = input.message;
  if (input.postFilter) rec.postFilter = input.postFilter;
  return rec;
}
