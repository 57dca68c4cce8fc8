// Helpers over batch/v1 objects shared by the apiserver's strategy, the
// printers and the controllers (upstream: the Job strategy's generateSelector
// and pkg/controller/job/util).
import type { ConditionStatus } from '../../core/v1/types.js';
import { LABEL_CONTROLLER_UID, LABEL_JOB_NAME, LABEL_LEGACY_CONTROLLER_UID, LABEL_LEGACY_JOB_NAME, type Job, type JobCondition, type JobConditionType } from './types.js';

/**
 * generateSelector (Job strategy): unless manualSelector, the pod template
 * gets the job-name and controller-uid labels (the legacy and the
 * batch.kubernetes.io names; a label the user set is kept for validation to
 * judge) and the selector matches the controller-uid.
 */
export function generateJobSelector(job: Job): void {
  const spec = job.spec;
  if (!spec || spec.manualSelector) return;
  const tmeta = (spec.template ??= {});
  const meta = (tmeta.metadata ??= {});
  const labels = (meta.labels ??= {});
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const k of [LABEL_LEGACY_JOB_NAME, LABEL_JOB_NAME]) if (!(k in labels)) labels[k] = name;
  for (const k of [LABEL_LEGACY_CONTROLLER_UID, LABEL_CONTROLLER_UID]) if (!(k in labels)) labels[k] = uid;
  const sel = (spec.selector ??= {});
  const ml = (sel.matchLabels ??= {});
  if (!(LABEL_CONTROLLER_UID in ml)) ml[LABEL_CONTROLLER_UID] = uid;
}

export function jobCondition(job: Pick<Job, 'status'>, type: JobConditionType): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type);
}

/** Whether the job has the condition with status True. */
export function hasJobCondition(job: Pick<Job, 'status'>, type: JobConditionType, status: ConditionStatus = 'True'): boolean {
  return jobCondition(job, type)?.status === status;
}

/** IsJobFinished: Complete or Failed is True. */
export function isJobFinished(job: Pick<Job, 'status'>): boolean {
  return hasJobCondition(job, 'Complete') || hasJobCondition(job, 'Failed');
}
