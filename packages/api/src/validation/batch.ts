// batch/v1 validation (pkg/apis/batch/validation): jobs, cron jobs, their
// updates and status writes, with upstream's messages.
import { cronParseError, loadLocationError } from '../batch/v1/cron.js';
import type { CronJob, CronJobSpec, Job, JobSpec, JobStatus, JobTemplateSpec } from '../batch/v1/types.js';
import { LABEL_CONTROLLER_UID, LABEL_JOB_NAME, LABEL_LEGACY_CONTROLLER_UID, LABEL_LEGACY_JOB_NAME } from '../batch/v1/types.js';
import type { ObjectMeta } from '../meta/types.js';
import { labelSelectorAsSelector } from '../labels/selector.js';
import type { FieldError } from '../meta/status.js';
import { validatePodTemplateSpec } from './core.js';
import { child, invalid, key, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, validateImmutableField, validateLabelSelector, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { deepEqual, goLabelSelector } from './util.js';

const COMPLETION_MODES = ['NonIndexed', 'Indexed'];
const RESTART_POLICIES = ['OnFailure', 'Never'];
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];
const MAX_PARALLELISM_INDEXED = 100000;
const POD_FAILURE_POLICY_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];

/** validateJobSpec: the checks a Job and a CronJob's jobTemplate share. */
function validateJobSpecCommon(spec: JobSpec | undefined, path: string): FieldError[] {
  if (!spec) return [required(path)];
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.parallelism, child(path, 'parallelism')));
  errs.push(...validateNonnegativeField(spec.completions, child(path, 'completions')));
  errs.push(...validateNonnegativeField(spec.activeDeadlineSeconds, child(path, 'activeDeadlineSeconds')));
  errs.push(...validateNonnegativeField(spec.backoffLimit, child(path, 'backoffLimit')));
  errs.push(...validateNonnegativeField(spec.ttlSecondsAfterFinished, child(path, 'ttlSecondsAfterFinished')));
  if (spec.completionMode !== undefined && spec.completionMode !== null) {
    if (!COMPLETION_MODES.includes(spec.completionMode)) errs.push(notSupported(child(path, 'completionMode'), spec.completionMode, COMPLETION_MODES));
    if (spec.completionMode === 'Indexed') {
      if (spec.completions === undefined || spec.completions === null) errs.push(required(child(path, 'completions'), 'when completion mode is Indexed'));
      if ((spec.parallelism ?? 0) > MAX_PARALLELISM_INDEXED) {
        errs.push(invalid(child(path, 'parallelism'), spec.parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
      }
    }
  }
  const rp = spec.template?.spec?.restartPolicy;
  if (rp !== 'OnFailure' && rp !== 'Never') errs.push(notSupported(child(path, 'template', 'spec', 'restartPolicy'), rp ?? '', RESTART_POLICIES));
  else if (spec.podFailurePolicy && rp !== 'Never') errs.push(invalid(child(path, 'template', 'spec', 'restartPolicy'), rp, 'only "Never" is supported when podFailurePolicy is specified'));
  (spec.podFailurePolicy?.rules ?? []).forEach((rule, i) => {
    const rp = `${child(path, 'podFailurePolicy', 'rules')}[${i}]`;
    if (!POD_FAILURE_POLICY_ACTIONS.includes(rule.action)) errs.push(notSupported(child(rp, 'action'), rule.action, POD_FAILURE_POLICY_ACTIONS));
    const op = rule.onExitCodes?.operator;
    if (op !== undefined && op !== 'In' && op !== 'NotIn') errs.push(notSupported(child(rp, 'onExitCodes', 'operator'), op, ['In', 'NotIn']));
  });
  errs.push(...validatePodTemplateSpec(spec.template, child(path, 'template')));
  return errs;
}

/** ValidateHasLabel: the label must be there with this value. */
function hasLabel(meta: ObjectMeta | undefined, path: string, k: string, want: string): FieldError[] {
  const p = key(child(path, 'labels'), k);
  const got = meta?.labels?.[k];
  if (got === undefined) return [required(p, `must be '${want}'`)];
  return got === want ? [] : [invalid(p, got, `must be '${want}'`)];
}

/** validateGeneratedSelector: a selector the strategy wrote (manualSelector unset) selects by the job's uid. */
function validateGeneratedSelector(job: Job): FieldError[] {
  const spec = job.spec!;
  if (spec.manualSelector || !spec.selector) return [];
  const sel = spec.selector;
  if (sel.matchExpressions !== undefined || sel.matchLabels === undefined) return [invalid('spec.selector', goLabelSelector(sel), '`selector` not auto-generated')];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  const tmeta = spec.template?.metadata;
  const errs = [
    ...hasLabel(tmeta, 'spec.template.metadata', LABEL_LEGACY_CONTROLLER_UID, uid),
    ...hasLabel(tmeta, 'spec.template.metadata', LABEL_LEGACY_JOB_NAME, name),
    ...hasLabel(tmeta, 'spec.template.metadata', LABEL_CONTROLLER_UID, uid),
    ...hasLabel(tmeta, 'spec.template.metadata', LABEL_JOB_NAME, name),
  ];
  try {
    if (!labelSelectorAsSelector(sel).matches({ [LABEL_CONTROLLER_UID]: uid })) errs.push(invalid('spec.selector', goLabelSelector(sel), '`selector` not auto-generated'));
  } catch {
    // reported by validateLabelSelector
  }
  return errs;
}

/** ValidateJobSpec: the shared checks plus a selector that matches the template. */
function validateJobSpec(job: Job): FieldError[] {
  const spec = job.spec;
  if (!spec) return [required('spec')];
  const errs = validateJobSpecCommon(spec, 'spec');
  if (!spec.selector) errs.push(required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    try {
      const labels = spec.template?.metadata?.labels ?? {};
      if (!labelSelectorAsSelector(spec.selector).matches(labels)) errs.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    } catch {
      errs.push(invalid('spec.selector', goLabelSelector(spec.selector), 'invalid label selector'));
    }
  }
  return errs;
}

export function validateJob(job: Job): FieldError[] {
  return [...validateObjectMeta(job.metadata, true, nameIsDNSSubdomain), ...validateGeneratedSelector(job), ...validateJobSpec(job)];
}

/** ValidateJobUpdate: the selector, template, completion mode and failure policies are fixed once created. */
export function validateJobUpdate(job: Job, old: Job): FieldError[] {
  const errs = [...validateObjectMetaUpdate(job.metadata, old.metadata), ...validateGeneratedSelector(job), ...validateJobSpec(job)];
  const s = job.spec;
  const o = old.spec;
  if (!s || !o) return errs;
  errs.push(...validateImmutableField(s.selector, o.selector, 'spec.selector', goLabelSelector(s.selector)));
  // Upstream lets a suspended job that never started change scheduling directives; kubelab keeps the template fixed.
  if (!deepEqual(s.template, o.template)) errs.push(invalid('spec.template', goTemplate(), 'field is immutable'));
  errs.push(...validateImmutableField(s.completionMode, o.completionMode, 'spec.completionMode'));
  errs.push(...validateImmutableField(s.podFailurePolicy, o.podFailurePolicy, 'spec.podFailurePolicy', goTemplate('batch.PodFailurePolicy')));
  errs.push(...validateImmutableField(s.backoffLimitPerIndex, o.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'));
  errs.push(...validateImmutableField(s.managedBy, o.managedBy, 'spec.managedBy'));
  if (s.completions !== o.completions && !(s.completionMode === 'Indexed' && s.completions === s.parallelism && o.completions === o.parallelism)) {
    errs.push(invalid('spec.completions', s.completions ?? null, 'field is immutable'));
  }
  return errs;
}

/** Go prints a struct's value in the message; kubelab names its type (the dump is hundreds of lines). */
function goTemplate(type = 'core.PodTemplateSpec'): { toString(): string } {
  return { toString: () => `${type}{...}` };
}

function validateJobStatus(s: JobStatus | undefined): FieldError[] {
  return (['active', 'succeeded', 'failed', 'ready', 'terminating'] as const).flatMap((f) => validateNonnegativeField(s?.[f], `status.${f}`));
}

export function validateJobStatusUpdate(job: Job, old: Job): FieldError[] {
  return [...validateObjectMetaUpdate(job.metadata, old.metadata), ...validateJobStatus(job.status)];
}

// ---------------------------------------------------------------- cron job

/** validateScheduleFormat: robfig's parse error, and no TZ in the schedule (use timeZone). */
function validateSchedule(schedule: string, allowTZ: boolean, timeZone: string | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const err = cronParseError(schedule);
  if (err) errs.push(invalid(path, schedule, err));
  if (allowTZ && schedule.includes('TZ') && timeZone !== undefined && timeZone !== null) {
    errs.push(invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    errs.push(invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

function validateTimeZone(tz: string | undefined, path: string): FieldError[] {
  if (tz === undefined || tz === null) return [];
  if (tz.length === 0) return [invalid(path, tz, 'timeZone must be nil or non-empty string')];
  if (tz.toLowerCase() === 'local') return [invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  const err = loadLocationError(tz);
  return err ? [invalid(path, tz, err)] : [];
}

/** ValidateJobTemplateSpec: the job's spec without a selector (the strategy generates it for each job). */
function validateJobTemplateSpec(t: JobTemplateSpec | undefined, path: string): FieldError[] {
  const spec = t?.spec;
  const errs = validateJobSpecCommon(spec, child(path, 'spec'));
  if (spec?.selector) errs.push(invalid(child(path, 'spec', 'selector'), goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  if (spec?.manualSelector) errs.push(notSupported(child(path, 'spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

function validateCronJobSpec(spec: CronJobSpec | undefined, old: CronJobSpec | undefined): FieldError[] {
  if (!spec) return [required('spec')];
  const errs: FieldError[] = [];
  if (!spec.schedule) errs.push(required('spec.schedule'));
  else errs.push(...validateSchedule(spec.schedule, old ? old.schedule.includes('TZ') : false, spec.timeZone, 'spec.schedule'));
  errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!old || old.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, 'spec.timeZone'));
  if (!spec.concurrencyPolicy) errs.push(required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(spec.concurrencyPolicy)) errs.push(notSupported('spec.concurrencyPolicy', spec.concurrencyPolicy, CONCURRENCY_POLICIES));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate, 'spec.jobTemplate'));
  errs.push(...validateNonnegativeField(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...validateNonnegativeField(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

/** A job's name is `<cronjob>-<minutes>`, 11 characters more, within a 63-character label. */
const MAX_CRONJOB_NAME = 63 - 11;

export function validateCronJob(cj: CronJob): FieldError[] {
  const errs = [...validateObjectMeta(cj.metadata, true, nameIsDNSSubdomain), ...validateCronJobSpec(cj.spec, undefined)];
  const name = cj.metadata.name ?? '';
  if (name.length > MAX_CRONJOB_NAME) errs.push(invalid('metadata.name', name, `must be no more than ${MAX_CRONJOB_NAME} characters`));
  return errs;
}

export function validateCronJobUpdate(cj: CronJob, old: CronJob): FieldError[] {
  return [...validateObjectMetaUpdate(cj.metadata, old.metadata), ...validateCronJobSpec(cj.spec, old.spec)];
}

export function validateCronJobStatusUpdate(cj: CronJob, old: CronJob): FieldError[] {
  return validateObjectMetaUpdate(cj.metadata, old.metadata);
}
