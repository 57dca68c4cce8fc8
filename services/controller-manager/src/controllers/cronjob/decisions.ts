// The CronJob controller's decisions over its jobs (pkg/controller/cronjob/
// cronjob_controllerv2.go and utils.go): which active references are stale,
// which finished jobs fall out of the history limits, and the job a run makes.

import { CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION, jobCondition, newControllerRef, type CronJob, type Job, type ObjectReference } from '@kubelab/api';
import { jobNameFor, rfc3339InZone } from './schedule.js';

/** The condition type that finished a job (Complete or Failed). */
export function finishedConditionType(j: Job): 'Complete' | 'Failed' | undefined {
  if (jobCondition(j, 'Complete')?.status === 'True') return 'Complete';
  if (jobCondition(j, 'Failed')?.status === 'True') return 'Failed';
  return undefined;
}

/** getRef: the reference the active list keeps. */
export function jobRef(j: Job): ObjectReference {
  return {
    kind: 'Job',
    namespace: j.metadata.namespace ?? '',
    name: j.metadata.name ?? '',
    uid: j.metadata.uid ?? '',
    apiVersion: 'batch/v1',
    ...(j.metadata.resourceVersion ? { resourceVersion: j.metadata.resourceVersion } : {}),
  };
}

/**
 * The finished jobs beyond a history limit, oldest first (upstream sorts by
 * start time, then name, and deletes from the front).
 */
export function jobsBeyondLimit(jobs: readonly Job[], limit: number | undefined, want: 'Complete' | 'Failed'): Job[] {
  if (limit === undefined || limit === null) return [];
  const finished = jobs.filter((j) => finishedConditionType(j) === want);
  if (finished.length <= limit) return [];
  const start = (j: Job) => j.status?.startTime ?? j.metadata.creationTimestamp ?? '';
  const sorted = [...finished].sort((a, b) => start(a).localeCompare(start(b)) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  return sorted.slice(0, finished.length - limit);
}

/** getJobFromTemplate2: the job of the run scheduled at `scheduled`. */
export function jobFromTemplate(cj: CronJob, scheduled: number, tz: string): Job {
  const t = structuredClone(cj.spec!.jobTemplate);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cj.metadata.name ?? '', scheduled),
      namespace: cj.metadata.namespace ?? 'default',
      labels: { ...(t.metadata?.labels ?? {}) },
      annotations: { ...(t.metadata?.annotations ?? {}), [CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339InZone(scheduled, tz) },
      ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
    },
    spec: t.spec ?? { template: {} },
  };
}
