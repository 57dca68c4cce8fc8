// The Job controller's decisions (pkg/controller/job/job_controller.go,
// indexed_job_utils.go, backoff_utils.go) as pure functions over the job,
// its pods and the time: what to count, whether the job is done or failed,
// how many pods to run, which indexes still need one, how long to back off.

import {
  formatTime,
  isPodReady,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_COMPLETION_INDEX_ENV,
  JOB_TRACKING_FINALIZER,
  type Job,
  type JobCondition,
  type JobConditionType,
  type JobStatus,
  type Pod,
  type PodFailurePolicyRule,
} from '@kubelab/api';

/** Failed pods that finished after the last succeeded one, and when the last of them finished (the backoffRecord's inputs). */
export function failuresSinceSuccess(pods: readonly Pod[], job: Job): { count: number; last: number | undefined } {
  let lastSuccess = -Infinity;
  for (const p of pods) if (p.status?.phase === 'Succeeded') lastSuccess = Math.max(lastSuccess, finishedAt(p) ?? -Infinity);
  let count = 0;
  let last: number | undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const t = finishedAt(p) ?? (p.metadata.deletionTimestamp ? Date.parse(p.metadata.deletionTimestamp) : undefined);
    if (t === undefined || t < lastSuccess) continue;
    count++;
    last = Math.max(last ?? 0, t);
  }
  return { count, last };
}

/** Upstream's constants: the first back-off after a failure, its cap. */
export const DEFAULT_JOB_BACKOFF_MS = 10_000;
export const MAX_JOB_BACKOFF_MS = 360_000;

export const REASON_BACKOFF_LIMIT_EXCEEDED = 'BackoffLimitExceeded';
export const MESSAGE_BACKOFF_LIMIT_EXCEEDED = 'Job has reached the specified backoff limit';
export const REASON_DEADLINE_EXCEEDED = 'DeadlineExceeded';
export const MESSAGE_DEADLINE_EXCEEDED = 'Job was active longer than specified deadline';
export const REASON_COMPLETIONS_REACHED = 'CompletionsReached';
export const MESSAGE_COMPLETIONS_REACHED = 'Reached expected number of succeeded pods';

const isTerminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
export const hasTrackingFinalizer = (p: Pod): boolean => (p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

/** Running or pending, not being deleted: what counts as active. */
export const isActive = (p: Pod): boolean => !isTerminal(p) && !p.metadata.deletionTimestamp;
/** Deleted but not yet terminal (status.terminating). */
export const isTerminating = (p: Pod): boolean => !isTerminal(p) && !!p.metadata.deletionTimestamp;

/**
 * isPodFailed: phase Failed, or (podReplacementPolicy TerminatingOrFailed)
 * deleted before it succeeded: a pod that will not finish counts as failed.
 */
export function isPodFailed(p: Pod, job: Job): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (job.spec?.podReplacementPolicy === 'Failed') return false;
  return !!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded';
}

/** A pod the controller is done with: succeeded, or failed as isPodFailed says. */
export const isFinished = (p: Pod, job: Job): boolean => p.status?.phase === 'Succeeded' || isPodFailed(p, job);

/** The completion index of a pod of an Indexed job, or undefined when it has none (or a malformed one). */
export function completionIndex(p: Pod): number | undefined {
  const v = p.metadata.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  return Number(v);
}

/** Intervals of sorted indexes as upstream writes completedIndexes: `1,3-5,7`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The indexes a completedIndexes string names (malformed parts skipped, bounded by completions). */
export function parseIndexes(s: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const part of (s ?? '').split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const a = Number(m[1]);
    const b = Math.min(m[2] === undefined ? a : Number(m[2]), completions - 1);
    for (let i = a; i <= b; i++) out.add(i);
  }
  return out;
}

/** When a pod finished: its containers' last finishedAt, else its Ready condition's last change, else undefined. */
export function finishedAt(p: Pod): number | undefined {
  let t: number | undefined;
  for (const cs of p.status?.containerStatuses ?? []) {
    const f = cs.state?.terminated?.finishedAt;
    if (f) t = Math.max(t ?? 0, Date.parse(f));
  }
  if (t !== undefined) return t;
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
  return ready ? Date.parse(ready) : undefined;
}

/**
 * The back-off before the next pod after failures (backoffRecord): 10 s
 * doubled per failure since the last success, capped at 6 min, counted from
 * the last failure. Returns the ms still to wait (0: create now).
 */
export function remainingBackoff(failuresSinceSuccess: number, lastFailure: number | undefined, now: number): number {
  if (failuresSinceSuccess <= 0 || lastFailure === undefined) return 0;
  const delay = Math.min(DEFAULT_JOB_BACKOFF_MS * 2 ** (failuresSinceSuccess - 1), MAX_JOB_BACKOFF_MS);
  return Math.max(0, lastFailure + delay - now);
}

export const REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';

/** The first podFailurePolicy rule a failed pod matches, with upstream's message for FailJob (matchPodFailurePolicy). */
export function matchPodFailurePolicy(job: Job, p: Pod): { action: PodFailurePolicyRule['action']; message: string } | undefined {
  const rules = job.spec?.podFailurePolicy?.rules;
  if (!rules || p.status?.phase !== 'Failed') return undefined;
  const where = `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
  for (const [i, rule] of rules.entries()) {
    const req = rule.onExitCodes;
    if (req) {
      for (const cs of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) {
        const code = cs.state?.terminated?.exitCode;
        // Exit code 0 never matches: the container did not fail.
        if (code === undefined || code === 0 || (req.containerName && req.containerName !== cs.name)) continue;
        if (req.values.includes(code) === (req.operator === 'In')) {
          return { action: rule.action, message: `Container ${cs.name} for pod ${where} failed with exit code ${code} matching ${rule.action} rule at index ${i}` };
        }
      }
    }
    for (const pattern of rule.onPodConditions ?? []) {
      if ((p.status?.conditions ?? []).some((c) => c.type === pattern.type && c.status === (pattern.status ?? 'True'))) {
        return { action: rule.action, message: `Pod ${where} has condition ${pattern.type} matching ${rule.action} rule at index ${i}` };
      }
    }
  }
  return undefined;
}

/** What the counting step found among the job's pods. */
export interface PodCounts {
  active: Pod[];
  ready: number;
  terminating: number;
  /** Finished pods still holding the tracking finalizer whose UID is not yet in uncountedTerminatedPods. */
  newlySucceeded: Pod[];
  newlyFailed: Pod[];
}

/** Sorts the job's pods into active, terminating and newly finished (those `ignore` names are being uncounted already). */
export function countPods(job: Job, pods: readonly Pod[], ignore: ReadonlySet<string> = new Set()): PodCounts {
  const uncounted = job.status?.uncountedTerminatedPods;
  const known = new Set([...(uncounted?.succeeded ?? []), ...(uncounted?.failed ?? [])]);
  const out: PodCounts = { active: [], ready: 0, terminating: 0, newlySucceeded: [], newlyFailed: [] };
  for (const p of pods) {
    if (isActive(p)) {
      out.active.push(p);
      if (isPodReady(p)) out.ready++;
    } else if (isTerminating(p)) out.terminating++;
    const uid = p.metadata.uid ?? '';
    if (!hasTrackingFinalizer(p) || known.has(uid) || ignore.has(uid) || !isFinished(p, job)) continue;
    (p.status?.phase === 'Succeeded' ? out.newlySucceeded : out.newlyFailed).push(p);
  }
  return out;
}

/** A condition as upstream's newCondition writes it (lastProbeTime and lastTransitionTime both now). */
export function newCondition(type: JobConditionType, reason: string, message: string, now: number, status: 'True' | 'False' = 'True'): JobCondition {
  const t = formatTime(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

/** ensureJobConditionStatus: sets or replaces a condition by type; unchanged when status, reason and message agree. */
export function withCondition(conditions: readonly JobCondition[] | undefined, c: JobCondition): JobCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  if (i < 0) return c.status === 'True' ? [...list, c] : list;
  const cur = list[i]!;
  if (cur.status === c.status && cur.reason === c.reason && cur.message === c.message) return list;
  list[i] = { ...c, lastTransitionTime: cur.status === c.status ? cur.lastTransitionTime! : c.lastTransitionTime! };
  return list;
}

/** The interim condition a finished job carries while its pods terminate (1.31+: FailureTarget, SuccessCriteriaMet). */
export type Verdict = { type: 'Failed'; reason: string; message: string } | { type: 'Complete'; reason: string; message: string } | undefined;

export interface VerdictInput {
  job: Job;
  /** A FailJob rule of the podFailurePolicy matched this message. */
  podFailurePolicyMessage?: string;
  succeeded: number;
  failed: number;
  active: number;
  completedIndexes?: Set<number>;
  now: number;
}

/** Whether the job has failed or succeeded (first failure reasons, then success), from the counts. */
export function verdict({ job, podFailurePolicyMessage, succeeded, failed, active, completedIndexes, now }: VerdictInput): Verdict {
  const spec = job.spec!;
  // An interim condition already decided the outcome.
  const target = job.status?.conditions?.find((c) => c.type === 'FailureTarget' && c.status === 'True');
  if (target) return { type: 'Failed', reason: target.reason ?? '', message: target.message ?? '' };
  const met = job.status?.conditions?.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
  if (met) return { type: 'Complete', reason: met.reason ?? '', message: met.message ?? '' };
  if (podFailurePolicyMessage !== undefined) return { type: 'Failed', reason: REASON_POD_FAILURE_POLICY, message: podFailurePolicyMessage };
  if (failed > (spec.backoffLimit ?? 6)) return { type: 'Failed', reason: REASON_BACKOFF_LIMIT_EXCEEDED, message: MESSAGE_BACKOFF_LIMIT_EXCEEDED };
  if (pastActiveDeadline(job, now)) return { type: 'Failed', reason: REASON_DEADLINE_EXCEEDED, message: MESSAGE_DEADLINE_EXCEEDED };
  const completions = spec.completions;
  if (spec.completionMode === 'Indexed') {
    const matched = matchSuccessPolicy(job, completedIndexes ?? new Set());
    if (matched !== undefined) return { type: 'Complete', reason: REASON_SUCCESS_POLICY, message: matched };
  }
  let complete: boolean;
  if (spec.completionMode === 'Indexed') complete = (completedIndexes?.size ?? 0) >= (completions ?? 0);
  else if (completions === undefined || completions === null) complete = succeeded > 0 && active === 0;
  else complete = succeeded >= completions;
  return complete ? { type: 'Complete', reason: REASON_COMPLETIONS_REACHED, message: MESSAGE_COMPLETIONS_REACHED } : undefined;
}

/** upstream batch.JobReasonSuccessPolicy. */
export const REASON_SUCCESS_POLICY = 'SuccessPolicy';

/**
 * matchSuccessPolicy (Indexed jobs): the first rule the succeeded indexes
 * satisfy, as upstream's message; a rule with succeededIndexes wants them
 * all, or succeededCount of them; one with succeededCount alone wants that
 * many indexes at all.
 */
export function matchSuccessPolicy(job: Job, succeeded: ReadonlySet<number>): string | undefined {
  const rules = job.spec?.successPolicy?.rules ?? [];
  const completions = job.spec?.completions ?? 0;
  if (succeeded.size === 0) return undefined;
  for (const [i, rule] of rules.entries()) {
    const count = rule.succeededCount ?? undefined;
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.size === 0) continue;
      let matched = 0;
      for (const x of required) if (succeeded.has(x)) matched++;
      if (count !== undefined ? matched >= count : matched === required.size) return `Matched rules at index ${i}`;
    } else if (count !== undefined && succeeded.size >= count) return `Matched rules at index ${i}`;
  }
  return undefined;
}

/** pastActiveDeadline: startTime + activeDeadlineSeconds has passed. */
export function pastActiveDeadline(job: Job, now: number): boolean {
  const ads = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (ads === undefined || ads === null || !start) return false;
  return now - Date.parse(start) >= ads * 1000;
}

/** The ms until the active deadline, for a requeue (undefined: none). */
export function untilActiveDeadline(job: Job, now: number): number | undefined {
  const ads = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (ads === undefined || ads === null || !start) return undefined;
  return Math.max(0, Date.parse(start) + ads * 1000 - now);
}

/**
 * How many pods should run (NonIndexed): parallelism, never more than the
 * completions still missing; with completions unset, none once one succeeded.
 */
export function wantActive(job: Job, succeeded: number): number {
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  if (completions === undefined || completions === null) return succeeded > 0 ? 0 : parallelism;
  return Math.max(0, Math.min(parallelism, completions - succeeded));
}

/** Indexed: the lowest indexes neither completed nor held by an active pod, up to parallelism minus active. */
export function indexesToCreate(job: Job, completed: ReadonlySet<number>, active: readonly Pod[]): number[] {
  const completions = job.spec?.completions ?? 0;
  const held = new Set(active.map(completionIndex).filter((i): i is number => i !== undefined));
  const room = Math.max(0, (job.spec?.parallelism ?? 1) - active.length);
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < room; i++) if (!completed.has(i) && !held.has(i)) out.push(i);
  return out;
}

/** Indexed: active pods beyond the first per index, or for an index already completed (duplicates to delete). */
export function extraIndexedPods(active: readonly Pod[], completed: ReadonlySet<number>, completions: number): Pod[] {
  const seen = new Set<number>();
  const out: Pod[] = [];
  for (const p of active) {
    const i = completionIndex(p);
    if (i === undefined || i >= completions || completed.has(i) || seen.has(i)) out.push(p);
    else seen.add(i);
  }
  return out;
}

/** The pod template of a job's pod, with the index set for Indexed jobs (annotation, label, hostname, env from the downward API). */
export function podTemplateFor(job: Job, index: number | undefined): { template: NonNullable<Job['spec']>['template']; generateName: string } {
  const t = structuredClone(job.spec!.template);
  const name = job.metadata.name ?? '';
  const meta = (t.metadata ??= {});
  meta.finalizers = [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER];
  if (index === undefined) return { template: t, generateName: `${name}-` };
  meta.annotations = { ...(meta.annotations ?? {}), [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) };
  meta.labels = { ...(meta.labels ?? {}), [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) };
  const spec = (t.spec ??= { containers: [] });
  if (!spec.hostname) spec.hostname = `${name}-${index}`;
  const env = { name: JOB_COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX_ANNOTATION}']` } } };
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    if (!(c.env ?? []).some((e) => e.name === JOB_COMPLETION_INDEX_ENV)) c.env = [...(c.env ?? []), env];
  }
  return { template: t, generateName: `${name}-${index}-` };
}

/** Status fields compared to decide whether a write is needed (everything the controller owns). */
export function statusChanged(a: JobStatus | undefined, b: JobStatus): boolean {
  return JSON.stringify(normalize(a ?? {})) !== JSON.stringify(normalize(b));
}

function normalize(s: JobStatus): JobStatus {
  const { conditions, uncountedTerminatedPods, ...rest } = s;
  const u = uncountedTerminatedPods ?? {};
  return {
    ...Object.fromEntries(Object.entries(rest).sort(([x], [y]) => x.localeCompare(y))),
    conditions: conditions ?? [],
    uncountedTerminatedPods: { succeeded: u.succeeded ?? [], failed: u.failed ?? [] },
  } as JobStatus;
}
