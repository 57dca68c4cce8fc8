// The Scheduling view's model, shared with the page: the scheduler's decision
// records (NATS kubelab.sched.<namespace>.<pod>, @kubelab/proto/sched-record)
// as the two tables kube-scheduler-simulator shows — nodes × Filter plugins
// (✓ or upstream's reason) and Score plugins × feasible nodes with totals —
// plus the flow message a decision is in the message flow and a pod's story.
// Pure; no Node or DOM imports (the page bundles this file as it is).

import { nodeFilterVerdicts, type NodeDecision, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import type { FlowMessage } from './flow.js';

export type Unsequenced = Omit<FlowMessage, 'seq'>;

/** The passed-mark in the Filter table. */
export const PASSED = '✓';

export interface FilterCell {
  /** ✓, upstream's reason text, `skipped` (PreFilter said Skip) or `–` (did not run: an earlier plugin rejected the node). */
  text: string;
  state: 'passed' | 'rejected' | 'skipped' | 'not-run';
}

export interface FilterRow {
  node: string;
  chosen: boolean;
  verdict: NodeDecision['verdict'];
  cells: FilterCell[];
}

export interface FilterTable {
  /** `PreFilter` first when some node was rejected there, then the profile's Filter plugins in order. */
  columns: string[];
  rows: FilterRow[];
}

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** Nodes × Filter plugins. The chosen node first, then the feasible, then the rejected, each by name. */
export function filterTable(rec: SchedulingDecisionRecord): FilterTable {
  const withPreFilter = rec.nodes.some((n) => n.rejectedBy?.preFilter);
  const columns = [...(withPreFilter ? ['PreFilter'] : []), ...rec.filterPlugins];
  const rank = (n: NodeDecision) => (n.name === rec.node ? 0 : n.verdict === 'feasible' ? 1 : 2);
  const nodes = [...rec.nodes].sort((a, b) => rank(a) - rank(b) || byName(a.name, b.name));
  const rows = nodes.map((n): FilterRow => {
    const cells: FilterCell[] = [];
    const pre = n.rejectedBy?.preFilter ? n.rejectedBy : undefined;
    if (withPreFilter)
      cells.push(pre ? { text: pre.plugin === 'PreFilter' ? pre.reasons.join(', ') : `${pre.plugin}: ${pre.reasons.join(', ')}`, state: 'rejected' } : { text: PASSED, state: 'passed' });
    const verdicts = nodeFilterVerdicts(rec, n);
    for (const plugin of rec.filterPlugins) {
      const v = verdicts.find((f) => f.plugin === plugin);
      if (!v) cells.push({ text: '–', state: 'not-run' });
      else if (v.code === 'Success') cells.push({ text: PASSED, state: 'passed' });
      else if (v.code === 'Skip') cells.push({ text: 'skipped', state: 'skipped' });
      else cells.push({ text: v.reasons?.join(', ') || v.code, state: 'rejected' });
    }
    return { node: n.name, chosen: n.name === rec.node, verdict: n.verdict, cells };
  });
  return { columns, rows };
}

export interface ScoreTable {
  /** The scored nodes, highest total first (the chosen one first among equals). */
  nodes: string[];
  chosen?: string;
  /** One row per Score plugin: its weight and, per node, `raw → normalized ×weight = weighted`. */
  rows: { plugin: string; weight: number; cells: { raw: number; normalized: number; weighted: number; text: string }[] }[];
  totals: number[];
  /** Why there is no table: scoring is skipped with a single feasible node, and there is none when nothing fits. */
  note?: string;
}

/** Score plugins × feasible nodes, with totals. */
export function scoreTable(rec: SchedulingDecisionRecord): ScoreTable {
  const scored = rec.nodes.filter((n) => n.normalized && n.total !== undefined);
  const chosen = rec.node;
  if (scored.length === 0) {
    const note = rec.detailOmitted
      ? 'No node detail in this record (a burst of decisions: the scheduler details a limited number a second).'
      : rec.feasibleNodes === 1
        ? `One feasible node (${rec.node ?? rec.nodes.find((n) => n.verdict === 'feasible')?.name ?? '?'}): chosen without scoring, as upstream does.`
        : rec.feasibleNodes === 0
          ? 'No feasible node: nothing to score.'
          : 'No scores recorded.';
    return { nodes: [], rows: [], totals: [], note, ...(chosen ? { chosen } : {}) };
  }
  scored.sort((a, b) => b.total! - a.total! || (a.name === chosen ? -1 : b.name === chosen ? 1 : byName(a.name, b.name)));
  const rows = rec.scorePlugins.map(({ plugin, weight }, i) => ({
    plugin,
    weight,
    cells: scored.map((n) => {
      const raw = n.raw?.[i] ?? 0;
      const normalized = n.normalized?.[i] ?? 0;
      const weighted = normalized * weight;
      const text = raw === normalized ? `${raw} ×${weight} = ${weighted}` : `${raw} → ${normalized} ×${weight} = ${weighted}`;
      return { raw, normalized, weighted, text };
    }),
  }));
  return { nodes: scored.map((n) => n.name), rows, totals: scored.map((n) => n.total!), ...(chosen ? { chosen } : {}) };
}

/** The decision as the view's headline: where the pod went and why there, or the FailedScheduling message. */
export function decisionHeadline(rec: SchedulingDecisionRecord): string {
  const pod = `${rec.namespace}/${rec.name}`;
  const omitted = rec.detailOmitted
    ? ' (node detail left out: the scheduler details a limited number of decisions a second)'
    : rec.omittedNodes
      ? ` (${rec.omittedNodes} more node(s) not listed)`
      : '';
  if (rec.result === 'Scheduled') return `${pod} → ${rec.node}: ${rec.feasibleNodes} of ${rec.numAllNodes} node(s) feasible${omitted}`;
  const post = rec.postFilter?.nominatedNodeName ? ` Preemption nominated ${rec.postFilter.nominatedNodeName}.` : '';
  return `${pod}: FailedScheduling ${rec.message ?? ''}${post}${omitted}`;
}

/** The decision as a flow message: the scheduler's own step (a self-message in a pod's story). */
export function decisionMessage(rec: SchedulingDecisionRecord, now = Date.now()): Unsequenced {
  const t = Date.parse(rec.time);
  return {
    time: Number.isNaN(t) ? now : t,
    durationMs: rec.durationMs,
    kind: 'sched',
    from: 'scheduler',
    to: 'scheduler',
    ...(rec.node ? { node: rec.node } : {}),
    objectKind: 'Pod',
    namespace: rec.namespace,
    name: rec.name,
    method: rec.result === 'Scheduled' ? 'Filter/Score' : 'FailedScheduling',
    detail: rec.result === 'Scheduled' ? `→ ${rec.node} (${rec.feasibleNodes}/${rec.numAllNodes} feasible)` : (rec.message ?? ''),
    code: rec.result === 'Scheduled' ? 'OK' : rec.result,
    ...(rec.traceId ? { traceId: rec.traceId } : {}),
  };
}

/** The last decision records, newest last; the latest per pod. */
export class DecisionStore {
  private items: SchedulingDecisionRecord[] = [];

  constructor(readonly capacity = 200) {}

  push(rec: SchedulingDecisionRecord): void {
    this.items.push(rec);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }

  pushAll(recs: Iterable<SchedulingDecisionRecord>): void {
    for (const r of recs) this.push(r);
  }

  toArray(): SchedulingDecisionRecord[] {
    return this.items.slice();
  }

  /** Newest first. */
  recent(n: number): SchedulingDecisionRecord[] {
    return this.items.slice(-n).reverse();
  }

  /** The pod's newest record. */
  latest(pod: string): SchedulingDecisionRecord | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) if (`${this.items[i]!.namespace}/${this.items[i]!.name}` === pod) return this.items[i];
    return undefined;
  }

  /** Pods with a record, newest first. */
  pods(): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (let i = this.items.length - 1; i >= 0; i--) {
      const k = `${this.items[i]!.namespace}/${this.items[i]!.name}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(k);
    }
    return out;
  }

  clear(): void {
    this.items = [];
  }
}
