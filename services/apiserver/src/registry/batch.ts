// The Job and CronJob strategies' own steps (pkg/registry/batch/job and
// cronjob strategy.go): status starts empty, and a job's pod template gets
// the generated selector and labels (upstream does it in Validate, after the
// uid is set; here prepareForCreate runs after the uid too).

import { generateJobSelector, type Job, type KubeObject } from '@kubelab/api';

export function prepareJobForCreate(o: KubeObject & { status?: unknown }): void {
  o.status = {};
  generateJobSelector(o as Job);
}

export function prepareCronJobForCreate(o: KubeObject & { status?: unknown }): void {
  o.status = {};
}
