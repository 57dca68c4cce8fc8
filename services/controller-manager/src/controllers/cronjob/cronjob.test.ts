import type { CronJob, Job } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { waitFor } from '@kubelab/testing';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { CronJobController } from './cronjob-controller.js';
import { jobsBeyondLimit } from './decisions.js';
import { jobNameFor, mostRecentScheduleTime, parseSchedule, rfc1123z, rfc3339InZone, scheduleClock, type Schedule } from './schedule.js';

const at = (s: string) => Date.parse(s);
const sched = (s: string, tz = 'UTC') => parseSchedule(s, tz) as Schedule;

function cronJob(spec: Partial<NonNullable<CronJob['spec']>> = {}, status: CronJob['status'] = {}): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'x', namespace: 'default', uid: 'cj-uid', creationTimestamp: '2026-01-01T00:00:30Z' },
    spec: {
      schedule: '*/1 * * * *',
      timeZone: 'UTC',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { metadata: { labels: { team: 'a' } }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'x', image: 'busybox', command: ['date'] }] } } } },
      ...spec,
    },
    status,
  };
}

function job(name: string, o: { done?: 'Complete' | 'Failed'; start?: string; completion?: string } = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: o.start ?? '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'x', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }],
    },
    spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'x', image: 'busybox' }] } } },
    status: {
      ...(o.start ? { startTime: o.start } : {}),
      ...(o.completion ? { completionTime: o.completion } : {}),
      ...(o.done ? { conditions: [{ type: o.done, status: 'True' }] } : {}),
    },
  };
}

describe('cron schedules', () => {
  it.each([
    ['nothing due yet', '*/1 * * * *', '2026-01-01T00:00:30Z', '2026-01-01T00:00:50Z', undefined, '2026-01-01T00:01:00Z', false],
    ['due at the minute', '*/1 * * * *', '2026-01-01T00:00:30Z', '2026-01-01T00:01:00Z', '2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z', false],
    ['three missed: the latest starts', '*/1 * * * *', '2026-01-01T00:00:30Z', '2026-01-01T00:03:10Z', '2026-01-01T00:03:00Z', '2026-01-01T00:04:00Z', false],
    ['@hourly', '@hourly', '2026-01-01T00:00:30Z', '2026-01-01T02:10:00Z', '2026-01-01T02:00:00Z', '2026-01-01T03:00:00Z', false],
    ['over 100 missed', '*/1 * * * *', '2026-01-01T00:00:00Z', '2026-01-01T03:00:30Z', '2026-01-01T03:00:00Z', '2026-01-01T03:01:00Z', true],
  ])('%s', (_n, spec, earliest, now, want, next, tooMany) => {
    const r = mostRecentScheduleTime(sched(spec), at(earliest), at(now));
    expect(r.scheduled === undefined ? undefined : new Date(r.scheduled).toISOString().replace('.000', '')).toBe(want);
    expect(new Date(r.next).toISOString().replace('.000', '')).toBe(next);
    expect(r.tooManyMissed).toBe(tooMany);
  });

  it.each([
    // robfig/cron's ConstantDelaySchedule: the delay after the earliest time, in whole seconds.
    ['@every 90s', '@every 90s', '2026-01-01T00:00:30Z', '2026-01-01T00:01:59Z', undefined, '2026-01-01T00:02:00Z', false],
    ['@every: due', '@every 90s', '2026-01-01T00:00:30Z', '2026-01-01T00:02:10Z', '2026-01-01T00:02:00Z', '2026-01-01T00:03:30Z', false],
    ['@every: fractions of a second dropped', '@every 1m30.5s', '2026-01-01T00:00:30.700Z', '2026-01-01T00:02:00Z', '2026-01-01T00:02:00Z', '2026-01-01T00:03:30Z', false],
    ['@every: under a second is a second', '@every 10ms', '2026-01-01T00:00:30Z', '2026-01-01T00:00:31Z', '2026-01-01T00:00:31Z', '2026-01-01T00:00:32Z', false],
    ['@every: over 100 missed counts from the earliest', '@every 1m', '2026-01-01T00:00:30Z', '2026-01-01T03:00:45Z', '2026-01-01T03:00:30Z', '2026-01-01T03:01:30Z', true],
  ])('%s', (_n, spec, earliest, now, want, next, tooMany) => {
    const r = mostRecentScheduleTime(sched(spec), at(earliest), at(now));
    expect(r.scheduled === undefined ? undefined : new Date(r.scheduled).toISOString().replace('.000', '')).toBe(want);
    expect(new Date(r.next).toISOString().replace('.000', '')).toBe(next);
    expect(r.tooManyMissed).toBe(tooMany);
  });

  it('a bad @every duration is the parser error', () => {
    expect(parseSchedule('@every 5x', 'UTC')).toEqual({ error: 'failed to parse duration @every 5x: time: invalid duration "5x"' });
  });

  it.each([
    // anchor (creation), scale, wall time → schedule time; a run's lastScheduleTime rounds up to the second.
    [1, '2026-01-01T00:00:45Z', '2026-01-01T00:00:45Z', '2026-01-01T00:01:00Z', '2026-01-01T00:01:00Z'],
    [10, '2026-01-01T00:00:33Z', '2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z', '2026-01-01T00:00:39Z'],
    [7, '2026-01-01T00:00:40Z', '2026-01-01T00:01:40Z', '2026-01-01T00:02:00Z', '2026-01-01T00:00:43Z'],
  ])('--time-scale %d: wall %s is schedule time %s; the run at %s is stamped %s', (scale, wall, schedTime, run, stamped) => {
    const c = scheduleClock(at('2026-01-01T00:00:30Z'), scale);
    expect(new Date(c.toSchedule(at(wall))).toISOString().replace('.000', '')).toBe(schedTime);
    expect(new Date(c.stamp(at(run))).toISOString().replace('.000', '')).toBe(stamped);
    // The stamp maps back to the run or just after it, never before: the run is not started twice.
    expect(c.toSchedule(c.stamp(at(run)))).toBeGreaterThanOrEqual(at(run));
  });

  it('runs in the cron job time zone', () => {
    // 09:00 in Paris is 08:00 UTC in winter.
    expect(new Date(sched('0 9 * * *', 'Europe/Paris').next(at('2026-01-01T00:00:00Z'))).toISOString()).toBe('2026-01-01T08:00:00.000Z');
  });

  it('names jobs by the scheduled minute and stamps the time in the zone', () => {
    expect(jobNameFor('x', at('2026-01-01T00:01:00Z'))).toBe('x-29453761');
    expect(rfc3339InZone(at('2026-01-01T08:00:00Z'), 'Europe/Paris')).toBe('2026-01-01T09:00:00+01:00');
    expect(rfc3339InZone(at('2026-01-01T08:00:00Z'), 'UTC')).toBe('2026-01-01T08:00:00Z');
    expect(rfc1123z(at('2026-01-01T08:00:00Z'))).toBe('Thu, 01 Jan 2026 08:00:00 +0000');
  });

  it('keeps the newest finished jobs within the history limit', () => {
    const jobs = [
      job('a', { done: 'Complete', start: '2026-01-01T00:01:00Z' }),
      job('b', { done: 'Complete', start: '2026-01-01T00:02:00Z' }),
      job('c', { done: 'Complete', start: '2026-01-01T00:03:00Z' }),
      job('d', { done: 'Failed', start: '2026-01-01T00:04:00Z' }),
      job('e', { start: '2026-01-01T00:05:00Z' }),
    ];
    expect(jobsBeyondLimit(jobs, 1, 'Complete').map((j) => j.metadata.name)).toEqual(['a', 'b']);
    expect(jobsBeyondLimit(jobs, 1, 'Failed')).toEqual([]);
    expect(jobsBeyondLimit(jobs, 0, 'Failed').map((j) => j.metadata.name)).toEqual(['d']);
  });
});

describe('CronJobController sync', () => {
  async function setup(cj: CronJob, jobs: Job[] = [], now = '2026-01-01T00:01:00Z') {
    const env = fakeEnv();
    await env.clock.setTime(at(now));
    env.fake.seed(GVR.cronJobs, cj);
    if (jobs.length) env.fake.seed(GVR.jobs, ...jobs);
    const c = new CronJobController(env.ctx);
    await env.sync();
    return { env, c };
  }

  it('at its time creates <name>-<minutes> from the template and records it active', async () => {
    const { env, c } = await setup(cronJob());
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual(['create jobs default', 'update cronjobs/status default/x']);
    const j = env.fake.peek<Job>(GVR.jobs, 'default', 'x-29453761')!;
    expect(j.metadata.labels).toEqual({ team: 'a' });
    expect(j.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T00:01:00Z' });
    expect(j.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'x', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }]);
    const st = env.fake.peek<CronJob>(GVR.cronJobs, 'default', 'x')!.status!;
    expect(st.lastScheduleTime).toBe('2026-01-01T00:01:00Z');
    expect(st.active?.map((r) => [r.kind, r.name])).toEqual([['Job', 'x-29453761']]);
    expect(env.recorder.events).toEqual(['Normal SuccessfulCreate Created job x-29453761']);
    // The same minute again: nothing new.
    env.fake.clearActions();
    await c.sync('default/x');
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    await env.stop();
  });

  it('--time-scale 10: schedule time runs ten times faster from the creation; runs named in schedule time, stamped in wall time', async () => {
    const env = fakeEnv({ timeScale: 10 });
    // Created 00:00:30; 3 s later schedule time is 00:01:00, the first run of */1.
    await env.clock.setTime(at('2026-01-01T00:00:33Z'));
    env.fake.seed(GVR.cronJobs, cronJob());
    const c = new CronJobController(env.ctx);
    await env.sync();
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual(['create jobs default', 'update cronjobs/status default/x']);
    expect(env.fake.peek<Job>(GVR.jobs, 'default', 'x-29453761')!.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T00:01:00Z' });
    expect(env.fake.peek<CronJob>(GVR.cronJobs, 'default', 'x')!.status!.lastScheduleTime).toBe('2026-01-01T00:00:33Z');
    await env.sync();
    // Two wall seconds later (schedule 00:01:20): nothing due.
    await env.clock.setTime(at('2026-01-01T00:00:35Z'));
    env.fake.clearActions();
    await c.sync('default/x');
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    // 6 wall seconds after the first run: the next minute of schedule time.
    await env.clock.setTime(at('2026-01-01T00:00:39.100Z'));
    await c.sync('default/x');
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual(['create jobs default']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulCreate Created job x-29453761', 'Normal SuccessfulCreate Created job x-29453762']);
    await env.stop();
  });

  it('@every 30s: the first run 30 s after the creation', async () => {
    const { env, c } = await setup(cronJob({ schedule: '@every 30s' }), [], '2026-01-01T00:01:05Z');
    await c.sync('default/x');
    expect(env.recorder.events).toEqual(['Normal SuccessfulCreate Created job x-29453761']);
    expect(env.fake.peek<CronJob>(GVR.cronJobs, 'default', 'x')!.status!.lastScheduleTime).toBe('2026-01-01T00:01:00Z');
    await env.stop();
  });

  it('suspended: no job', async () => {
    const { env, c } = await setup(cronJob({ suspend: true }));
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });

  it('Forbid with a running job: JobAlreadyActive and no new job', async () => {
    const running = job('x-29453760', { start: '2026-01-01T00:00:00Z' });
    const { env, c } = await setup(
      cronJob(
        { concurrencyPolicy: 'Forbid' },
        { active: [{ kind: 'Job', namespace: 'default', name: 'x-29453760', uid: 'uid-x-29453760', apiVersion: 'batch/v1' }], lastScheduleTime: '2026-01-01T00:00:00Z' },
      ),
      [running],
    );
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual([]);
    expect(env.recorder.events).toEqual(['Normal JobAlreadyActive Not starting job because prior execution is running and concurrency policy is Forbid']);
    await env.stop();
  });

  it('Replace deletes the running job, then starts the new one', async () => {
    const running = job('x-29453760', { start: '2026-01-01T00:00:00Z' });
    const { env, c } = await setup(
      cronJob(
        { concurrencyPolicy: 'Replace' },
        { active: [{ kind: 'Job', namespace: 'default', name: 'x-29453760', uid: 'uid-x-29453760', apiVersion: 'batch/v1' }], lastScheduleTime: '2026-01-01T00:00:00Z' },
      ),
      [running],
    );
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual(['delete jobs default/x-29453760', 'create jobs default', 'update cronjobs/status default/x']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulDelete Deleted job x-29453760', 'Normal SuccessfulCreate Created job x-29453761']);
    await env.stop();
  });

  it('a finished active job leaves the list (SawCompletedJob) and sets lastSuccessfulTime', async () => {
    const done = job('x-29453760', { done: 'Complete', start: '2026-01-01T00:00:00Z', completion: '2026-01-01T00:00:05Z' });
    const { env, c } = await setup(
      cronJob({}, { active: [{ kind: 'Job', namespace: 'default', name: 'x-29453760', uid: 'uid-x-29453760', apiVersion: 'batch/v1' }], lastScheduleTime: '2026-01-01T00:00:00Z' }),
      [done],
      '2026-01-01T00:00:30Z',
    );
    await c.sync('default/x');
    const st = env.fake.peek<CronJob>(GVR.cronJobs, 'default', 'x')!.status!;
    expect(st).toEqual({ lastScheduleTime: '2026-01-01T00:00:00Z', lastSuccessfulTime: '2026-01-01T00:00:05Z' });
    expect(env.recorder.events).toEqual(['Normal SawCompletedJob Saw completed job: x-29453760, condition: Complete']);
    await env.stop();
  });

  it('a run further back than startingDeadlineSeconds is skipped', async () => {
    const { env, c } = await setup(cronJob({ schedule: '0 * * * *', startingDeadlineSeconds: 10 }, {}), [], '2026-01-01T01:00:30Z');
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual([]);
    // The run at 01:00 is 30 s past with a 10 s deadline: earliest is now-10s, so nothing is due at all.
    expect(env.recorder.events).toEqual([]);
    await env.stop();
  });

  it('trims finished jobs beyond the history limits', async () => {
    const jobs = [job('x-1', { done: 'Failed', start: '2025-12-31T00:01:00Z' }), job('x-2', { done: 'Failed', start: '2025-12-31T00:02:00Z' })];
    const { env, c } = await setup(cronJob({ suspend: true }), jobs);
    await c.sync('default/x');
    expect(env.fake.actionLines()).toEqual(['delete jobs default/x-1']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulDelete Deleted job x-1']);
    await env.stop();
  });

  it('a job missing from a stale active list is checked against the stored cron job before UnexpectedJob', async () => {
    const running = job('x-29453761', { start: '2026-01-01T00:01:00Z' });
    const { env, c } = await setup(cronJob({}, { lastScheduleTime: '2026-01-01T00:00:00Z' }), [running], '2026-01-01T00:01:10Z');
    // The apiserver already has the write the informer has not delivered.
    const stored = { ...cronJob({}, { active: [{ kind: 'Job', namespace: 'default', name: 'x-29453761', uid: 'uid-x-29453761', apiVersion: 'batch/v1' }], lastScheduleTime: '2026-01-01T00:01:00Z' }) };
    env.fake.prependReactor('get', 'cronjobs', () => stored);
    await c.sync('default/x');
    expect(env.recorder.events).toEqual([]);
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    // A job it never made is reported.
    env.fake.seed(GVR.jobs, { ...job('stray', { start: '2026-01-01T00:01:00Z' }) });
    await waitFor('the informer to see the stray job', () => Boolean(env.ctx.informers.batch.jobs().lister().namespace('default').get('stray')));
    await c.sync('default/x');
    expect(env.recorder.events).toEqual(['Warning UnexpectedJob Saw a job that the controller did not create or forgot: stray']);
    await env.stop();
  });
});
