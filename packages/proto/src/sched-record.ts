// The scheduler's decision record on NATS (kubelab's own telemetry, in the
// role of kube-scheduler-simulator's per-plugin result annotations): one JSON
// record per scheduling cycle — every node's Filter verdicts, every Score
// plugin's raw and normalized score, the chosen node or the FailedScheduling
// message — on `kubelab.sched.<namespace>.<pod>`. The scheduler writes it,
// the dashboard and `kubelab trace --all-components` read it. No gRPC
// imports (loaded through `@kubelab/proto/sched-record`).

import { jsonObject, parseJsonObject } from './json-record.js';

/** One Filter plugin's answer for one node: `Success`, `Skip` (its PreFilter had nothing to check), or the status code name (`Unschedulable`, ...) and upstream's reasons. */
export interface FilterVerdict {
  plugin: string;
  code: string;
  reasons?: string[];
}

/**
 * One node in a cycle. Compact on the wire (a record goes out every cycle):
 * a feasible node passed every Filter plugin that was not skipped; a
 * rejected node passed those before `rejectedBy.plugin` and the ones after
 * it did not run (upstream stops at the first rejection) —
 * `nodeFilterVerdicts` spells that out per plugin.
 */
export interface NodeDecision {
  name: string;
  /** `feasible` (every Filter passed) or `rejected` (a Filter, or PreFilter for every node, said no). */
  verdict: 'feasible' | 'rejected';
  /** The plugin that rejected the node, its code and upstream's reasons; `preFilter` when PreFilter did (no Filter ran). */
  rejectedBy?: { plugin: string; code: string; reasons: string[]; preFilter?: boolean };
  /** Score's raw and NormalizeScore's values, aligned with the record's `scorePlugins` (weighted = normalized × weight); absent when scoring did not run (a single feasible node is chosen without it, as upstream). */
  raw?: number[];
  normalized?: number[];
  /** Σ normalized × weight. */
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
  /** The profile's Filter plugins in order; those this pod skipped (their PreFilter said Skip); the Score plugins with their weights. */
  filterPlugins: string[];
  skippedFilters: string[];
  scorePlugins: { plugin: string; weight: number }[];
  /** The evaluated nodes — the feasible first, then the rejected — capped (the chosen one always listed); `omittedNodes` counts the rest, those not evaluated included (percentageOfNodesToScore). */
  nodes: NodeDecision[];
  omittedNodes: number;
  /** The scheduler left the node detail out (it carries it for a limited number of records a second; a burst of pods gets the outcome only). */
  detailOmitted?: boolean;
  /** PostFilter (DefaultPreemption) ran: its message, and the node it nominated ('' cleared the nomination). */
  postFilter?: { message?: string; nominatedNodeName?: string };
}

/** One node's Filter plugins as they went: `Skip`ped ones, `Success` up to the rejecting plugin, none after it. */
export function nodeFilterVerdicts(rec: Pick<SchedulingDecisionRecord, 'filterPlugins' | 'skippedFilters'>, node: NodeDecision): FilterVerdict[] {
  const by = node.rejectedBy;
  if (by?.preFilter) return [];
  const out: FilterVerdict[] = [];
  for (const plugin of rec.filterPlugins) {
    if (rec.skippedFilters.includes(plugin)) out.push({ plugin, code: 'Skip' });
    else if (by && by.plugin === plugin) return [...out, { plugin, code: by.code, reasons: [...by.reasons] }];
    else out.push({ plugin, code: 'Success' });
  }
  // A rejection by a plugin outside the list still shows.
  if (by) out.push({ plugin: by.plugin, code: by.code, reasons: [...by.reasons] });
  return out;
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

const nums = (v: unknown): number[] | undefined => (Array.isArray(v) ? v.map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : 0)) : undefined);

function decodeNode(v: unknown): NodeDecision | undefined {
  const o = jsonObject(v);
  const name = str(o?.name);
  if (!o || !name) return undefined;
  const node: NodeDecision = { name, verdict: o.verdict === 'feasible' ? 'feasible' : 'rejected' };
  const by = jsonObject(o.rejectedBy);
  const plugin = str(by?.plugin);
  if (by && plugin) node.rejectedBy = { plugin, code: str(by.code) ?? 'Unschedulable', reasons: strings(by.reasons), ...(by.preFilter === true ? { preFilter: true } : {}) };
  const raw = nums(o.raw);
  const normalized = nums(o.normalized);
  if (raw) node.raw = raw;
  if (normalized) node.normalized = normalized;
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
    skippedFilters: strings(r.skippedFilters),
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
  if (r.detailOmitted === true) rec.detailOmitted = true;
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
