// The CronJob controller (pkg/controller/cronjob, the v2 controller): for
// each cron job, on the controller-manager's clock, it reconciles the active
// list with the jobs it owns (SawCompletedJob, lastSuccessfulTime), trims the
// history, and at each scheduled time creates `<name>-<minutes>` unless
// suspended, too late (startingDeadlineSeconds) or forbidden by the
// concurrency policy; then it requeues itself for the next run.

import { contextFromObject } from '@kubelab/tracing';
import { formatTime, isAlreadyExists, isJobFinished, isNotFound, loadLocationError, type CronJob, type CronJobStatus, type Job } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type Lister, type SharedIndexInformer } from '@kubelab/client';
import { errText, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { CONTROLLER_UID_INDEX, controllerIndexers } from '../../util/indexers.js';
import { finishedConditionType, jobFromTemplate, jobRef, jobsBeyondLimit } from './decisions.js';
import { jobNameFor, localTimeZone, mostRecentScheduleTime, parseSchedule, rfc1123z, scheduleClock } from './schedule.js';

/** Upstream requeues a little after the next run so the clock is surely past it. */
const NEXT_SCHEDULE_DELTA_MS = 100;

export class CronJobController extends QueueController {
  private readonly cjLister: Lister<CronJob>;
  private readonly jobs: SharedIndexInformer<Job>;

  constructor(private readonly ctx: ControllerContext) {
    super('cronjob', ctx.logger, queueOptions(ctx));
    const cjs = ctx.informers.batch.cronJobs();
    this.jobs = ctx.informers.batch.jobs({ indexers: controllerIndexers });
    this.cjLister = cjs.lister();
    cjs.addEventHandler({ onAdd: (c) => this.enqueue(metaNamespaceKey(c)), onUpdate: (_o, c) => this.enqueue(metaNamespaceKey(c)) });
    const owner = (j: Job) => {
      const ref = j.metadata.ownerReferences?.find((r) => r.controller);
      if (ref?.kind !== 'CronJob') return;
      const cj = this.cjLister.namespace(j.metadata.namespace ?? '').get(ref.name);
      if (cj?.metadata.uid === ref.uid) this.enqueue(metaNamespaceKey(cj));
    };
    this.jobs.addEventHandler({ onAdd: owner, onUpdate: (_o, j) => owner(j), onDelete: (o) => owner(isTombstone(o) ? o.obj : o) });
  }

  private get recorder() {
    return this.ctx.recorder('cronjob-controller');
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.cjLister.namespace(namespace).get(name);
    if (!cached) return;
    const cj = structuredClone(cached);
    const now = this.clock.now();
    const jobs = this.jobs.getIndexer().byIndex(CONTROLLER_UID_INDEX, cj.metadata.uid ?? '') as Job[];
    let before = JSON.stringify(stripEmpty(cj.status ?? {}));
    const status: CronJobStatus = { ...(cj.status ?? {}), active: [...(cj.status?.active ?? [])] };
    cj.status = status;

    const adopted = await this.reconcileActive(cj, jobs);
    if (adopted) before = JSON.stringify(stripEmpty(adopted));
    const requeueAfter = await this.syncSchedule(cj, jobs, now);
    if (JSON.stringify(stripEmpty(status)) !== before) {
      await this.ctx.clientset.batch.cronJobs(namespace).updateStatus({ ...cj, status: stripEmpty(status) });
    }
    await this.cleanupFinishedJobs(cj, jobs);
    if (requeueAfter !== undefined) this.queue.addAfter(key, requeueAfter);
  }

  /** The active list against the jobs this cron job owns; returns the stored status when it had to be read afresh. */
  private async reconcileActive(cj: CronJob, jobs: Job[]): Promise<CronJobStatus | undefined> {
    const status = cj.status!;
    let adopted: CronJobStatus | undefined;
    const owned = new Set(jobs.map((j) => j.metadata.uid));
    for (const j of jobs) {
      const inActive = status.active!.some((r) => r.uid === j.metadata.uid);
      const finished = isJobFinished(j);
      if (!inActive && !finished) {
        // The cache may be behind this controller's own last write: ask the apiserver before calling it unexpected.
        const fresh = await this.ctx.clientset.batch.cronJobs(cj.metadata.namespace ?? '').get(cj.metadata.name ?? '');
        if ((fresh.status?.active ?? []).some((r) => r.uid === j.metadata.uid)) {
          cj.metadata = fresh.metadata;
          status.active = [...(fresh.status?.active ?? [])];
          if (fresh.status?.lastScheduleTime) status.lastScheduleTime = fresh.status.lastScheduleTime;
          if (fresh.status?.lastSuccessfulTime) status.lastSuccessfulTime = fresh.status.lastSuccessfulTime;
          adopted = structuredClone(fresh.status ?? {});
          continue;
        }
        this.recorder.eventf(cj, 'Warning', 'UnexpectedJob', 'Saw a job that the controller did not create or forgot: %s', j.metadata.name);
      } else if (inActive && finished) {
        status.active = status.active!.filter((r) => r.uid !== j.metadata.uid);
        this.recorder.eventf(cj, 'Normal', 'SawCompletedJob', 'Saw completed job: %s, condition: %v', j.metadata.name, finishedConditionType(j));
      }
      if (finished && finishedConditionType(j) === 'Complete' && j.status?.completionTime) {
        if (!status.lastSuccessfulTime || Date.parse(j.status.completionTime) > Date.parse(status.lastSuccessfulTime)) status.lastSuccessfulTime = j.status.completionTime;
      }
    }
    for (const ref of [...status.active!]) {
      if (owned.has(ref.uid)) continue;
      // The cache may be behind: ask the apiserver before calling it missing.
      try {
        await this.ctx.clientset.batch.jobs(ref.namespace ?? cj.metadata.namespace).get(ref.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.recorder.eventf(cj, 'Normal', 'MissingJob', 'Active job went missing: %v', ref.name);
        status.active = status.active!.filter((r) => r.uid !== ref.uid);
      }
    }
    return adopted;
  }

  /** Starts the run due now, if any; returns when to look again (wall time; the schedule runs on --time-scale's clock). */
  private async syncSchedule(cj: CronJob, jobs: Job[], wallNow: number): Promise<number | undefined> {
    const spec = cj.spec;
    if (!spec || cj.metadata.deletionTimestamp) return undefined;
    const tz = spec.timeZone ?? localTimeZone();
    if (spec.timeZone !== undefined) {
      const err = loadLocationError(spec.timeZone);
      if (err) {
        this.recorder.eventf(cj, 'Warning', 'UnknownTimeZone', 'invalid timeZone: %q: %s', spec.timeZone, err);
        return undefined;
      }
    }
    if (spec.suspend) return undefined;
    const sched = parseSchedule(spec.schedule, tz);
    if ('error' in sched) {
      this.recorder.eventf(cj, 'Warning', 'UnparseableSchedule', 'unparseable schedule: %q : %s', spec.schedule, sched.error);
      return undefined;
    }
    const status = cj.status!;
    const clock = scheduleClock(Date.parse(cj.metadata.creationTimestamp ?? formatTime(wallNow)), this.ctx.config.timeScale);
    const now = clock.toSchedule(wallNow);
    const lastScheduled = status.lastScheduleTime ? clock.toSchedule(Date.parse(status.lastScheduleTime)) : undefined;
    let earliest = lastScheduled ?? clock.toSchedule(Date.parse(cj.metadata.creationTimestamp ?? formatTime(wallNow)));
    const sds = spec.startingDeadlineSeconds;
    if (sds !== undefined && sds !== null) earliest = Math.max(earliest, now - sds * 1000);
    const run = mostRecentScheduleTime(sched, earliest, now);
    const requeue = clock.toWall(run.next) - wallNow + NEXT_SCHEDULE_DELTA_MS;
    if (run.tooManyMissed) {
      this.recorder.eventf(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    }
    const scheduled = run.scheduled;
    if (scheduled === undefined) return requeue;
    if (sds !== undefined && sds !== null && scheduled + sds * 1000 < now) {
      this.recorder.eventf(cj, 'Warning', 'MissSchedule', 'Missed scheduled time to start a job: %s', rfc1123z(scheduled));
      return requeue;
    }
    const jobName = jobNameFor(cj.metadata.name ?? '', scheduled);
    if (status.active!.some((r) => r.name === jobName) || (lastScheduled !== undefined && lastScheduled >= scheduled)) return requeue;
    const policy = spec.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && status.active!.length > 0) {
      this.recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return requeue;
    }
    if (policy === 'Replace') {
      for (const ref of [...status.active!]) {
        const j = jobs.find((x) => x.metadata.uid === ref.uid);
        if (!j) continue;
        try {
          await this.ctx.clientset.batch.jobs(j.metadata.namespace ?? '').delete(j.metadata.name ?? '', { propagationPolicy: 'Background' });
          this.recorder.eventf(cj, 'Normal', 'SuccessfulDelete', 'Deleted job %v', j.metadata.name);
        } catch (err) {
          if (!isNotFound(err)) {
            this.recorder.eventf(cj, 'Warning', 'FailedDelete', 'Deleted job: %v', errText(err));
            throw err;
          }
        }
        status.active = status.active!.filter((r) => r.uid !== ref.uid);
      }
    }
    const job = jobFromTemplate(cj, scheduled, tz);
    let created: Job;
    try {
      created = await this.ctx.clientset.batch.jobs(job.metadata.namespace).create(job, { traceContext: contextFromObject(cj) });
      this.recorder.eventf(cj, 'Normal', 'SuccessfulCreate', 'Created job %v', created.metadata.name);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.recorder.eventf(cj, 'Warning', 'FailedCreate', 'Error creating job: %v', errText(err));
        throw err;
      }
      // Created by an earlier sync whose status write was lost: it is this run's job.
      created = await this.ctx.clientset.batch.jobs(job.metadata.namespace).get(job.metadata.name ?? '');
      if (isJobFinished(created)) {
        status.lastScheduleTime = formatTime(clock.stamp(scheduled));
        return requeue;
      }
    }
    if (!status.active!.some((r) => r.uid === created.metadata.uid)) status.active!.push(jobRef(created));
    status.lastScheduleTime = formatTime(clock.stamp(scheduled));
    return requeue;
  }

  /** cleanupFinishedJobs: deletes the oldest finished jobs beyond the history limits. */
  private async cleanupFinishedJobs(cj: CronJob, jobs: Job[]): Promise<void> {
    const doomed = [...jobsBeyondLimit(jobs, cj.spec?.successfulJobsHistoryLimit, 'Complete'), ...jobsBeyondLimit(jobs, cj.spec?.failedJobsHistoryLimit, 'Failed')];
    for (const j of doomed) {
      try {
        await this.ctx.clientset.batch.jobs(j.metadata.namespace ?? '').delete(j.metadata.name ?? '', { propagationPolicy: 'Background' });
        this.recorder.eventf(cj, 'Normal', 'SuccessfulDelete', 'Deleted job %v', j.metadata.name);
      } catch (err) {
        if (isNotFound(err)) continue;
        this.recorder.eventf(cj, 'Warning', 'FailedDelete', 'Deleted job: %v', errText(err));
        throw err;
      }
    }
  }
}

/** The status as stored: an empty active list is omitted. */
function stripEmpty(s: CronJobStatus): CronJobStatus {
  const out = { ...s };
  if (!out.active?.length) delete out.active;
  return out;
}
