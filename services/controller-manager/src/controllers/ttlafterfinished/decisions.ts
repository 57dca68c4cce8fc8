// The TTL-after-finished controller's decision (pkg/controller/ttlafterfinished):
// when a finished job with ttlSecondsAfterFinished expires.

import { jobCondition, type Job } from '@kubelab/api';

/** The time the job finished: its Complete or Failed condition's lastTransitionTime. */
export function jobFinishTime(job: Job): number | undefined {
  for (const type of ['Complete', 'Failed'] as const) {
    const c = jobCondition(job, type);
    if (c?.status === 'True' && c.lastTransitionTime) return Date.parse(c.lastTransitionTime);
  }
  return undefined;
}

/** needsCleanup and timeLeft: undefined when the job is not to be cleaned up, else the ms left (0: delete now). */
export function ttlTimeLeft(job: Job, now: number): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp) return undefined;
  const finished = jobFinishTime(job);
  if (finished === undefined) return undefined;
  return Math.max(0, finished + ttl * 1000 - now);
}
