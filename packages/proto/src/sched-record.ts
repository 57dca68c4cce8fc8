// The scheduler's decision record on NATS (kubelab's own telemetry, in the
// role of kube-scheduler-simulator's per-plugin result annotations): one JSON
// record per scheduling cycle — every node's Filter verdicts, every Score
// plugin's raw and normalized score, the chosen node or the FailedScheduling
// message — on `kubelab.sched.<namespace>.<pod>`. The scheduler writes it,
// the dashboard and `kubelab trace --all-components` read it. No gRPC
// imports (loaded through `@kubelab/proto/sched-record`).

import { jsonObject, parseJsonObject } from './json-record.js';

/** One Filter plugin's answer for one node: `passed`, or the status code name (`Unschedulable`, ...) and upstream's reasons. */
export interface FilterVerdict {
  plugin: string;
  /** `Success` when the node passed this plugin; otherwise upstream's code name. */
  code: string;
  reasons?: string[];
}

/** One Score plugin's score for one node: Score's raw value, after NormalizeScore, and times the plugin's weight. */
export interface PluginScore {
  plugin: string;
  raw: number;
  normalized: number;
  weighted: number;
}

export interface NodeDecision {
  name: string;
  /**
   * `feasible` (every Filter passed), `rejected` (a Filter or PreFilter said
   * no), `not-evaluated` (enough feasible nodes were found before this one:
   * percentageOfNodesToScore).
   */
  verdict: 'feasible' | 'rejected' | 'not-evaluated';
  /** The Filter plugins that ran, in order; upstream stops at the first that does not pass. */
  filters: FilterVerdict[];
  /** PreFilter's rejection of every node, or the PreFilter result that left this node out. */
  preFilter?: { plugin?: string; reasons: string[] };
  /** Absent when scoring did not run (a single feasible node is chosen without scoring, as upstream). */
  scores?: PluginScore[];
  total?: number;
}

export interface SchedulingDecisionRecord {
  /** RFC 3339 time the cycle started (ms). */
  time: string;
  /** The profile (spec.schedulerName). */
  profile: string;
  namespace: string;
  name: string;
  uid?: string;
  /** The pod's `kubelab.io/traceparent` trace id. */
  traceId?: string;
  /** The queue's scheduling cycle and the pod's attempt count. */
  cycle: number;
  attempts: number;
  /** `Scheduled` (the node chosen; binding follows), `Unschedulable` (FailedScheduling, no node fits) or `SchedulerError`. */
  result: 'Scheduled' | 'Unschedulable' | 'SchedulerError';
  /** The chosen node (Scheduled). */
  node?: string;
  /** The FailedScheduling event's message, as upstream prints it. */
  message?: string;
  durationMs: number;
  numAllNodes: number;
  feasibleNodes: number;
  /** The profile's Filter plugins in order, and the Score plugins with their weights. */
  filterPlugins: string[];
  scorePlugins: { plugin: string; weight: number }[];
  /** Nodes in the order they were evaluated, capped; `omittedNodes` counts the rest. */
  nodes: NodeDecision[];
  omittedNodes: number;
  /** PostFilter (DefaultPreemption) ran: its message, and the node it nominated ('' cleared the nomination). */
  postFilter?: { message?: string; nominatedNodeName?: string };
}

const SUBJECT_ROOT = 'kubelab.sched';

/** Every decision record. */
export const SCHED_SUBJECT_ALL = `${SUBJECT_ROOT}.>`;

/** How many nodes one record lists at most. */
export const SCHED_RECORD_MAX_NODES = 100;

/** A subject token: NATS tokens cannot hold dots, wildcards or blanks. */
function token(s: string): string {
  return s.replace(/[.*> \t]/g, '_') || '_';
}

/** `kubelab.sched.<namespace>.<pod>`. */
export function schedRecordSubject(namespace: string, name: string): string {
  return `${SUBJECT_ROOT}.${token(namespace)}.${token(name)}`;
}

export function encodeSchedulingDecisionRecord(rec: SchedulingDecisionRecord): string {
  return JSON.stringify(rec);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');
const RESULTS = new Set(['Scheduled', 'Unschedulable', 'SchedulerError']);
const VERDICTS = new Set(['feasible', 'rejected', 'not-evaluated']);

function decodeNode(v: unknown): NodeDecision | undefined {
  const o = jsonObject(v);
  const name = str(o?.name);
  if (!o || !name) return undefined;
  const node: NodeDecision = {
    name,
    verdict: VERDICTS.has(o.verdict as string) ? (o.verdict as NodeDecision['verdict']) : 'rejected',
    filters: arr(o.filters).flatMap((f) => {
      const fo = jsonObject(f);
      const plugin = str(fo?.plugin);
      if (!fo || !plugin) return [];
      const reasons = strings(fo.reasons);
      return [{ plugin, code: str(fo.code) ?? 'Success', ...(reasons.length ? { reasons } : {}) }];
    }),
  };
  const pre = jsonObject(o.preFilter);
  if (pre) node.preFilter = { ...(str(pre.plugin) ? { plugin: str(pre.plugin)! } : {}), reasons: strings(pre.reasons) };
  if (Array.isArray(o.scores)) {
    node.scores = o.scores.flatMap((s) => {
      const so = jsonObject(s);
      const plugin = str(so?.plugin);
      return so && plugin ? [{ plugin, raw: num(so.raw), normalized: num(so.normalized), weighted: num(so.weighted) }] : [];
    });
  }
  if (typeof o.total === 'number') node.total = o.total;
  return node;
}

/** A record from a message body, read leniently; undefined when the body is not a decision record. */
export function decodeSchedulingDecisionRecord(data: string): SchedulingDecisionRecord | undefined {
  const r = parseJsonObject(data);
  const namespace = str(r?.namespace);
  const name = str(r?.name);
  if (!r || !namespace || !name || !RESULTS.has(r.result as string)) return undefined;
  const rec: SchedulingDecisionRecord = {
    time: str(r.time) ?? new Date().toISOString(),
    profile: str(r.profile) ?? 'default-scheduler',
    namespace,
    name,
    cycle: num(r.cycle),
    attempts: num(r.attempts),
    result: r.result as SchedulingDecisionRecord['result'],
    durationMs: num(r.durationMs),
    numAllNodes: num(r.numAllNodes),
    feasibleNodes: num(r.feasibleNodes),
    filterPlugins: strings(r.filterPlugins),
    scorePlugins: arr(r.scorePlugins).flatMap((s) => {
      const so = jsonObject(s);
      const plugin = str(so?.plugin);
      return so && plugin ? [{ plugin, weight: num(so.weight) }] : [];
    }),
    nodes: arr(r.nodes).flatMap((n) => decodeNode(n) ?? []),
    omittedNodes: num(r.omittedNodes),
  };
  for (const k of ['uid', 'traceId', 'node', 'message'] as const) {
    const v = str(r[k]);
    if (v) rec[k] = v;
  }
  const post = jsonObject(r.postFilter);
  if (post) rec.postFilter = { ...(str(post.message) ? { message: str(post.message)! } : {}), ...(typeof post.nominatedNodeName === 'string' ? { nominatedNodeName: post.nominatedNodeName } : {}) };
  return rec;
}

/** One line for a reader (`kubelab trace --all-components`): the pod and where it went, or why not. */
export function formatSchedulingDecision(rec: SchedulingDecisionRecord): string {
  const pod = `${rec.namespace}/${rec.name}`;
  if (rec.result === 'Scheduled') {
    const scored = rec.feasibleNodes > 1 ? `, ${rec.feasibleNodes} feasible, scored` : rec.feasibleNodes === 1 ? ', the only feasible node' : '';
    return `Scheduled ${pod} → ${rec.node ?? '?'} (${rec.numAllNodes} node(s)${scored})`;
  }
  return `${rec.result === 'Unschedulable' ? 'FailedScheduling' : 'SchedulerError'} ${pod}: ${rec.message ?? ''}`;
}
