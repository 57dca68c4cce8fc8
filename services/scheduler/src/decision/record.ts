// A scheduling cycle as a decision record (kubelab's, in the role of
// kube-scheduler-simulator's result annotations; the shape lives in
// @kubelab/proto/sched-record): per node, the Filter plugins that ran and
// what each said, per feasible node each Score plugin's raw, normalized and
// weighted score. Pure: built from what the cycle kept (CycleDetail), after
// the cycle, so scheduling itself does no extra work per plugin.

import type { Pod } from '@kubelab/api';
import { SCHED_RECORD_MAX_NODES, type FilterVerdict, type NodeDecision, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
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
  detail: CycleDetail;
  result: SchedulingDecisionRecord['result'];
  node?: string;
  message?: string;
  cycle: number;
  attempts: number;
  startMs: number;
  durationMs: number;
  postFilter?: SchedulingDecisionRecord['postFilter'];
  maxNodes?: number;
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The trace id of the pod's `kubelab.io/traceparent` annotation, if it holds a valid one. */
export function podTraceId(pod: Pod): string | undefined {
  const tp = pod.metadata.annotations?.['kubelab.io/traceparent'];
  const m = tp ? TRACEPARENT.exec(tp.trim()) : null;
  return m && !/^0+$/.test(m[1]!) ? m[1] : undefined;
}

/** The Filter plugins a node went through: those before the deciding one passed; the ones after did not run. */
function filterVerdicts(active: readonly string[], skipped: ReadonlySet<string>, all: readonly string[], status: Status | undefined): FilterVerdict[] {
  const out: FilterVerdict[] = [];
  for (const plugin of all) {
    if (skipped.has(plugin)) {
      out.push({ plugin, code: 'Skip' });
      continue;
    }
    if (status && plugin === status.plugin) {
      out.push({ plugin, code: codeName(status.code), reasons: [...status.reasons] });
      break;
    }
    out.push({ plugin, code: 'Success' });
  }
  // A status from a plugin outside the Filter list (none upstream) still shows.
  if (status && !active.includes(status.plugin)) out.push({ plugin: status.plugin || 'unknown', code: codeName(status.code), reasons: [...status.reasons] });
  return out;
}

/** The record of one cycle. Nodes: the feasible ones first (in evaluation order), then the rejected, then the rest; at most maxNodes. */
export function buildDecisionRecord(input: DecisionInput): SchedulingDecisionRecord {
  const { fwk, state, pod, allNodes, detail } = input;
  const max = input.maxNodes ?? SCHED_RECORD_MAX_NODES;
  const filterPlugins = fwk.filter.map((p) => p.name);
  const skipped = state.skipFilterPlugins;
  const active = filterPlugins.filter((p) => !skipped.has(p));
  const feasible = detail.feasible ?? [];
  const diagnosis = detail.diagnosis;
  const nodes: NodeDecision[] = [];
  const listed = new Set<string>();
  const scoreRows = detail.scores ?? [];
  for (let i = 0; i < feasible.length; i++) {
    const name = feasible[i]!.name;
    // The chosen node is always listed, even past the cap.
    if (nodes.length >= max && name !== input.node) continue;
    const d: NodeDecision = { name, verdict: 'feasible', filters: filterVerdicts(active, skipped, filterPlugins, undefined) };
    if (detail.totals) {
      d.scores = scoreRows.map((s) => ({ plugin: s.plugin, raw: s.raw[i]!, normalized: s.normalized[i]!, weighted: s.normalized[i]! * s.weight }));
      d.total = detail.totals[i]!;
    }
    nodes.push(d);
    listed.add(name);
  }
  if (diagnosis) {
    for (const [name, status] of diagnosis.nodeToStatus) {
      if (nodes.length >= max) break;
      nodes.push({ name, verdict: 'rejected', filters: filterVerdicts(active, skipped, filterPlugins, status) });
      listed.add(name);
    }
  }
  const absent = diagnosis?.absentNodesStatus;
  for (const n of allNodes) {
    if (nodes.length >= max) break;
    if (listed.has(n.name) || diagnosis?.nodeToStatus.has(n.name)) continue;
    // A PreFilter rejection (or the nodes its result left out) applies to the node without any Filter running.
    if (absent) nodes.push({ name: n.name, verdict: 'rejected', filters: [], preFilter: { ...(absent.plugin ? { plugin: absent.plugin } : {}), reasons: [...absent.reasons] } });
    else nodes.push({ name: n.name, verdict: 'not-evaluated', filters: [] });
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
    feasibleNodes: feasible.length,
    filterPlugins,
    scorePlugins: fwk.score.map(({ plugin, weight }) => ({ plugin: plugin.name, weight })),
    nodes,
    omittedNodes: Math.max(0, allNodes.length - recorded),
  };
  if (pod.metadata.uid) rec.uid = pod.metadata.uid;
  const traceId = podTraceId(pod);
  if (traceId) rec.traceId = traceId;
  if (input.node) rec.node = input.node;
  if (input.message) rec.message = input.message;
  if (input.postFilter) rec.postFilter = input.postFilter;
  return rec;
}
