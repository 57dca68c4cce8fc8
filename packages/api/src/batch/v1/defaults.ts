// batch/v1 defaulting (pkg/apis/batch/v1/defaults.go) plus the pod template's core defaults.
import { defaultPodTemplate } from '../../core/v1/defaults.js';
import type { CronJob, Job } from './types.js';

const unset = (v: unknown): boolean => v === undefined || v === null;

/** SetDefaults_Job: completions and parallelism 1 (both unset), backoffLimit 6, NonIndexed, not suspended, the template's labels as the job's. */
export function defaultJob(job: Job): void {
  const spec = job.spec;
  if (!spec) return;
  // A job with neither is a single run: both 1; completions stay unset once parallelism is given.
  if (unset(spec.completions) && unset(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (unset(spec.parallelism)) spec.parallelism = 1;
  if (unset(spec.backoffLimit)) spec.backoffLimit = unset(spec.backoffLimitPerIndex) ? 6 : 2147483647;
  const labels = spec.template?.metadata?.labels;
  if (labels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
  if (unset(spec.completionMode)) spec.completionMode = 'NonIndexed';
  if (unset(spec.suspend)) spec.suspend = false;
  if (unset(spec.manualSelector)) spec.manualSelector = false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) for (const p of rule.onPodConditions ?? []) if (!p.status) p.status = 'True';
  if (unset(spec.podReplacementPolicy)) spec.podReplacementPolicy = spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  defaultPodTemplate(spec.template);
}

/** SetDefaults_CronJob: Allow, not suspended, keep 3 successful and 1 failed job. */
export function defaultCronJob(cj: CronJob): void {
  const spec = cj.spec;
  if (!spec) return;
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  if (unset(spec.suspend)) spec.suspend = false;
  if (unset(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
  if (unset(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
  defaultPodTemplate(spec.jobTemplate?.spec?.template);
}
