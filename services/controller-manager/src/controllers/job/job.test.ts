import type { Job, Pod } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { countPods, formatIndexes, indexesToCreate, matchPodFailurePolicy, matchSuccessPolicy, parseIndexes, podTemplateFor, remainingBackoff, verdict, wantActive } from './decisions.js';
import { JobController } from './job-controller.js';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse(T0);
const FINALIZER = 'batch.kubernetes.io/job-tracking';

function job(spec: Partial<NonNullable<Job['spec']>> = {}, status: Job['status'] = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'hello', namespace: 'default', uid: 'job-uid', creationTimestamp: T0 },
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'job-uid' } },
      template: { metadata: { labels: { 'batch.kubernetes.io/controller-uid': 'job-uid', 'job-name': 'hello' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'hello', image: 'busybox' }] } },
      ...spec,
    },
    status,
  };
}

function pod(
  name: string,
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed',
  o: { finalizer?: boolean; finishedAt?: string; index?: number; deleted?: boolean; exitCode?: number; condition?: string } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: T0,
      labels: { 'batch.kubernetes.io/controller-uid': 'job-uid' },
      ...(o.index !== undefined ? { annotations: { 'batch.kubernetes.io/job-completion-index': String(o.index) } } : {}),
      ...(o.finalizer === false ? {} : { finalizers: [FINALIZER] }),
      ...(o.deleted ? { deletionTimestamp: T0 } : {}),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'hello', uid: 'job-uid', controller: true, blockOwnerDeletion: true }],
    },
    spec: { restartPolicy: 'Never', containers: [{ name: 'hello', image: 'busybox' }] },
    status: {
      phase,
      ...(o.finishedAt
        ? {
            containerStatuses: [
              {
                name: 'hello',
                ready: false,
                restartCount: 0,
                image: 'busybox',
                imageID: '',
                state: { terminated: { exitCode: o.exitCode ?? (phase === 'Failed' ? 1 : 0), finishedAt: o.finishedAt } },
              },
            ],
          }
        : {}),
      ...(o.condition ? { conditions: [{ type: o.condition, status: 'True' as const }] } : {}),
    },
  };
}

describe('job decisions', () => {
  it.each([
    ['completions 1, nothing yet', job(), 0, 1],
    ['parallelism 3 of 5, 4 done', job({ parallelism: 3, completions: 5 }), 4, 1],
    ['work queue: parallelism 3, none done', job({ parallelism: 3, completions: undefined }), 0, 3],
    ['work queue: one succeeded stops new pods', job({ parallelism: 3, completions: undefined }), 1, 0],
  ])('wantActive: %s', (_n, j, succeeded, want) => {
    expect(wantActive(j, succeeded)).toBe(want);
  });

  it.each([
    ['no failures', 0, undefined, 0],
    ['first failure: 10 s', 1, NOW - 4_000, 6_000],
    ['third failure: 40 s', 3, NOW - 10_000, 30_000],
    ['the cap is 6 min', 12, NOW, 360_000],
    ['waited long enough', 2, NOW - 20_000, 0],
  ])('back-off: %s', (_n, failures, last, want) => {
    expect(remainingBackoff(failures, last, NOW)).toBe(want);
  });

  it.each([
    ['backoffLimit exceeded', job({ backoffLimit: 2 }), 0, 3, 0, { type: 'Failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }],
    ['at the limit still runs', job({ backoffLimit: 2 }), 0, 2, 1, undefined],
    [
      'deadline passed',
      job({ activeDeadlineSeconds: 30 }, { startTime: '2025-12-31T23:59:00Z' }),
      0,
      0,
      1,
      { type: 'Failed', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
    ],
    ['completions reached', job({ completions: 2 }), 2, 0, 0, { type: 'Complete', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }],
    [
      'work queue: one success and none active',
      job({ completions: undefined, parallelism: 2 }),
      1,
      0,
      0,
      { type: 'Complete', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
    ],
    ['work queue: one success, one still active', job({ completions: undefined, parallelism: 2 }), 1, 0, 1, undefined],
  ])('verdict: %s', (_n, j, succeeded, failed, active, want) => {
    expect(verdict({ job: j, succeeded, failed, active, now: NOW })).toEqual(want);
  });

  it.each([
    ['exit code 42 in [42]: FailJob', { exitCode: 42 }, { action: 'FailJob', message: 'Container hello for pod default/p failed with exit code 42 matching FailJob rule at index 0' }],
    ['exit code 1: no rule', { exitCode: 1 }, undefined],
    ['DisruptionTarget: Ignore', { exitCode: 137, condition: 'DisruptionTarget' }, { action: 'Ignore', message: 'Pod default/p has condition DisruptionTarget matching Ignore rule at index 1' }],
  ])('podFailurePolicy: %s', (_n, o, want) => {
    const j = job({
      podFailurePolicy: {
        rules: [
          { action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ],
      },
    });
    expect(matchPodFailurePolicy(j, pod('p', 'Failed', { finishedAt: T0, ...o }))).toEqual(want);
  });

  it('counts only finished pods that still hold the finalizer and are not yet recorded', () => {
    const j = job({}, { uncountedTerminatedPods: { succeeded: ['uid-b'] } });
    const c = countPods(j, [
      pod('a', 'Succeeded'),
      pod('b', 'Succeeded'),
      pod('c', 'Succeeded', { finalizer: false }),
      pod('d', 'Failed'),
      pod('e', 'Running'),
      pod('f', 'Running', { deleted: true }),
    ]);
    expect(c.newlySucceeded.map((p) => p.metadata.name)).toEqual(['a']);
    // A running pod being deleted will never succeed: it counts as failed (podReplacementPolicy TerminatingOrFailed).
    expect(c.newlyFailed.map((p) => p.metadata.name)).toEqual(['d', 'f']);
    expect(c.active.map((p) => p.metadata.name)).toEqual(['e']);
    expect(c.terminating).toBe(1);
  });

  it('Indexed: completed indexes as intervals, the lowest free indexes next', () => {
    expect(formatIndexes([5, 0, 1, 2, 7, 4])).toBe('0-2,4-5,7');
    expect([...parseIndexes('0-2,4,9', 5)]).toEqual([0, 1, 2, 4]);
    const j = job({ completionMode: 'Indexed', completions: 5, parallelism: 3 });
    expect(indexesToCreate(j, new Set([0, 2]), [pod('x', 'Running', { index: 1 })])).toEqual([3, 4]);
  });

  it('Indexed: a pod carries its index in annotation, label, hostname and JOB_COMPLETION_INDEX', () => {
    const { template, generateName } = podTemplateFor(job({ completionMode: 'Indexed', completions: 3 }), 2);
    expect(generateName).toBe('hello-2-');
    expect(template.metadata?.annotations).toEqual({ 'batch.kubernetes.io/job-completion-index': '2' });
    expect(template.metadata?.labels?.['batch.kubernetes.io/job-completion-index']).toBe('2');
    expect(template.metadata?.finalizers).toEqual([FINALIZER]);
    expect(template.spec?.hostname).toBe('hello-2');
    expect(template.spec?.containers[0]?.env).toEqual([{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
  });
});

describe('successPolicy (Indexed, completions 5)', () => {
  const indexed = (rules: NonNullable<Job['spec']>['successPolicy']) => job({ completionMode: 'Indexed', completions: 5, parallelism: 5, successPolicy: rules });
  it.each([
    ['succeededIndexes all done', [{ succeededIndexes: '0,2' }], [0, 2], 'Matched rules at index 0'],
    ['succeededIndexes one missing', [{ succeededIndexes: '0-2' }], [0, 2], undefined],
    ['succeededIndexes with succeededCount', [{ succeededIndexes: '0-3', succeededCount: 2 }], [1, 3], 'Matched rules at index 0'],
    ['succeededCount alone', [{ succeededCount: 3 }], [0, 1, 4], 'Matched rules at index 0'],
    ['the second rule matches', [{ succeededIndexes: '4' }, { succeededCount: 1 }], [0], 'Matched rules at index 1'],
    ['indexes beyond completions do not count', [{ succeededIndexes: '7' }], [0, 1], undefined],
    ['nothing succeeded yet', [{ succeededCount: 0 }], [], undefined],
  ])('%s', (_n, rules, done, want) => {
    expect(matchSuccessPolicy(indexed({ rules }), new Set(done))).toBe(want);
  });

  it('a met policy is the verdict before all completions, with reason SuccessPolicy', () => {
    expect(verdict({ job: indexed({ rules: [{ succeededIndexes: '0' }] }), succeeded: 1, failed: 0, active: 4, completedIndexes: new Set([0]), now: NOW })).toEqual({
      type: 'Complete',
      reason: 'SuccessPolicy',
      message: 'Matched rules at index 0',
    });
  });
});

describe('JobController sync', () => {
  async function setup(j: Job, pods: Pod[] = []) {
    const env = fakeEnv();
    env.fake.seed(GVR.jobs, j);
    if (pods.length) env.fake.seed(GVR.pods, ...pods);
    const c = new JobController(env.ctx);
    await env.sync();
    return { env, c };
  }

  it('a new job gets a pod with the tracking finalizer and its controller ref, and a start time', async () => {
    const { env, c } = await setup(job());
    await c.sync('default/hello');
    expect(env.fake.actionLines()).toEqual(['create pods default', 'update jobs/status default/hello']);
    const created = env.fake.objects<Pod>(GVR.pods)[0]!;
    expect(created.metadata.generateName).toBe('hello-');
    expect(created.metadata.finalizers).toEqual([FINALIZER]);
    expect(created.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'hello', uid: 'job-uid', controller: true, blockOwnerDeletion: true }]);
    expect(env.recorder.events).toEqual([`Normal SuccessfulCreate Created pod: ${created.metadata.name}`]);
    expect(env.fake.peek<Job>(GVR.jobs, 'default', 'hello')?.status).toEqual({ startTime: T0, active: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    await env.stop();
  });

  it('adopts an orphan its selector matches (controller ref and tracking finalizer), leaves pods of other controllers and non-matching orphans alone', async () => {
    const orphan = pod('hello-orphan', 'Running', { finalizer: false });
    delete orphan.metadata.ownerReferences;
    const foreign = pod('other', 'Running');
    foreign.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true }];
    const stranger = pod('stranger', 'Running', { finalizer: false });
    delete stranger.metadata.ownerReferences;
    stranger.metadata.labels = { app: 'x' };
    const { env, c } = await setup(job({}, { startTime: T0 }), [orphan, foreign, stranger]);
    await c.sync('default/hello');
    // The live re-read of the job (canAdopt), the adoption; the adopted pod is the one active pod: none created.
    expect(env.fake.actionLines()).toEqual(['get jobs default/hello', 'patch pods default/hello-orphan', 'update jobs/status default/hello']);
    const adopted = env.fake.peek<Pod>(GVR.pods, 'default', 'hello-orphan')!;
    expect(adopted.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'hello', uid: 'job-uid', controller: true, blockOwnerDeletion: true }]);
    expect(adopted.metadata.finalizers).toEqual([FINALIZER]);
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'other')!.metadata.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'stranger')!.metadata.ownerReferences).toBeUndefined();
    expect(env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status).toMatchObject({ active: 1 });
    await env.stop();
  });

  it('a job being deleted adopts nothing', async () => {
    const orphan = pod('hello-orphan', 'Running', { finalizer: false });
    delete orphan.metadata.ownerReferences;
    const j = job({}, { startTime: T0 });
    j.metadata.deletionTimestamp = T0;
    const { env, c } = await setup(j, [orphan]);
    await c.sync('default/hello');
    expect(env.fake.actionLines().filter((l) => l.startsWith('patch pods'))).toEqual([]);
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'hello-orphan')!.metadata.ownerReferences).toBeUndefined();
    await env.stop();
  });

  it('a succeeded pod is recorded, loses its finalizer, is counted, and the job completes', async () => {
    const { env, c } = await setup(job({}, { startTime: T0, active: 1 }), [pod('hello-a', 'Succeeded', { finishedAt: T0 })]);
    await env.clock.advance(9_000);
    await c.sync('default/hello');
    expect(env.fake.actionLines()).toEqual(['update jobs/status default/hello', 'patch pods default/hello-a', 'update jobs/status default/hello']);
    expect((env.fake.actions[0]!.object as Job | undefined)?.status).toMatchObject({ uncountedTerminatedPods: { succeeded: ['uid-hello-a'], failed: [] } });
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'hello-a')?.metadata.finalizers ?? []).toEqual([]);
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, completionTime: '2026-01-01T00:00:09Z', uncountedTerminatedPods: {} });
    expect(st.conditions?.map((x) => [x.type, x.status, x.reason, x.message])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    expect(env.recorder.events).toEqual(['Normal Completed Job completed']);
    await env.stop();
  });

  it('after a failure the next pod waits out the 10 s back-off', async () => {
    const { env, c } = await setup(job({}, { startTime: T0, failed: 1 }), [pod('hello-a', 'Failed', { finalizer: false, finishedAt: '2026-01-01T00:00:00Z' })]);
    await env.clock.advance(4_000);
    await c.sync('default/hello');
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    await env.clock.advance(6_000);
    await c.sync('default/hello');
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual(['create pods default']);
    await env.stop();
  });

  it('more failures than backoffLimit: FailureTarget, then Failed with BackoffLimitExceeded', async () => {
    const { env, c } = await setup(job({ backoffLimit: 1 }, { startTime: T0, failed: 1 }), [pod('hello-b', 'Failed', { finishedAt: T0 })]);
    await c.sync('default/hello');
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st.failed).toBe(2);
    expect(st.completionTime).toBeUndefined();
    expect(st.conditions?.map((x) => [x.type, x.reason, x.message])).toEqual([
      ['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
    expect(env.recorder.events).toEqual(['Warning BackoffLimitExceeded Job has reached the specified backoff limit']);
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    await env.stop();
  });

  it('past activeDeadlineSeconds the running pod is deleted and the job fails once it is gone', async () => {
    const { env, c } = await setup(job({ activeDeadlineSeconds: 5 }, { startTime: T0, active: 1 }), [pod('hello-a', 'Running')]);
    await env.clock.advance(6_000);
    await c.sync('default/hello');
    expect(env.fake.actionLines()).toEqual(['delete pods default/hello-a', 'update jobs/status default/hello']);
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st.conditions?.map((x) => x.type)).toEqual(['FailureTarget']);
    expect(st.terminating).toBe(1);
    expect(env.recorder.events).toEqual(['Normal SuccessfulDelete Deleted pod: hello-a']);
    await env.stop();
  });

  it('a suspended job deletes its pods and says Suspended', async () => {
    const { env, c } = await setup(job({ suspend: true }, { startTime: T0, active: 1 }), [pod('hello-a', 'Running')]);
    await c.sync('default/hello');
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st.conditions?.map((x) => [x.type, x.status, x.reason, x.message])).toEqual([['Suspended', 'True', 'JobSuspended', 'Job suspended']]);
    expect(env.recorder.events).toEqual(['Normal SuccessfulDelete Deleted pod: hello-a', 'Normal Suspended Job suspended']);
    await env.stop();
  });

  it('successPolicy met: SuccessCriteriaMet (SuccessPolicy), the other indexes are deleted, Complete once they are gone', async () => {
    const j = job({ completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededIndexes: '0' }] } }, { startTime: T0, active: 3 });
    const { env, c } = await setup(j, [pod('hello-0', 'Succeeded', { index: 0, finishedAt: T0 }), pod('hello-1', 'Running', { index: 1 }), pod('hello-2', 'Running', { index: 2 })]);
    await c.sync('default/hello');
    expect(env.fake.actionLines().filter((l) => l.startsWith('delete'))).toEqual(['delete pods default/hello-1', 'delete pods default/hello-2']);
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st.conditions?.map((x) => [x.type, x.status, x.reason, x.message])).toEqual([['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 0']]);
    expect(st).toMatchObject({ succeeded: 1, completedIndexes: '0', terminating: 2 });
    await env.stop();
  });

  it('Indexed with parallelism 2 creates the pods of indexes 0 and 1', async () => {
    const { env, c } = await setup(job({ completionMode: 'Indexed', completions: 3, parallelism: 2 }));
    await c.sync('default/hello');
    const names = env.fake
      .objects<Pod>(GVR.pods)
      .map((p) => `${p.metadata.generateName} ${p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']}`)
      .sort();
    expect(names).toEqual(['hello-0- 0', 'hello-1- 1']);
    await env.stop();
  });
  it('a pod the last sync created, seen only mid-sync, is not created twice (expectations are read before the pods are listed)', async () => {
    // completions 3, parallelism 2: A succeeded, B runs, and the last sync created X, which the informer has not delivered yet.
    const { env, c } = await setup(job({ completions: 3, parallelism: 2 }, { startTime: T0, active: 2 }), [pod('hello-a', 'Succeeded', { finishedAt: T0 }), pod('hello-b', 'Running')]);
    c.expectations.expectCreations('default/hello', 1);
    let delivered = false;
    // X's add event arrives while the sync records A (after it listed the pods, before it decides what to create).
    env.fake.prependReactor('update', 'jobs', () => {
      if (!delivered) env.fake.seed(GVR.pods, pod('hello-x', 'Pending'));
      delivered = true;
      return undefined;
    });
    await c.sync('default/hello');
    expect(env.fake.actionLines()).toEqual(['update jobs/status default/hello', 'patch pods default/hello-a', 'update jobs/status default/hello']);
    expect(
      env.fake
        .objects<Pod>(GVR.pods)
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['hello-a', 'hello-b', 'hello-x']);
    expect(env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status).toMatchObject({ succeeded: 1, active: 1 });

    // The next sync sees X: B and X are the two completions still missing, so nothing is created.
    env.fake.clearActions();
    await c.sync('default/hello');
    expect(env.fake.actionLines()).toEqual(['update jobs/status default/hello']);
    expect(env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status).toMatchObject({ succeeded: 1, active: 2 });
    await env.stop();
  });

  it('more succeeded pods than completions: Complete with the real count and a TooManySucceededPods warning, as upstream', async () => {
    const { env, c } = await setup(job({ completions: 1 }, { startTime: T0, active: 2 }), [pod('hello-a', 'Succeeded', { finishedAt: T0 }), pod('hello-b', 'Succeeded', { finishedAt: T0 })]);
    await c.sync('default/hello');
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st).toMatchObject({ succeeded: 2, uncountedTerminatedPods: {} });
    expect(st.conditions?.map((x) => x.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    expect(env.recorder.events).toEqual(['Warning TooManySucceededPods Too many succeeded pods running after completion count reached', 'Normal Completed Job completed']);
    await env.stop();
  });

  it('Indexed: two succeeded pods of one index count once (succeeded is the number of completed indexes)', async () => {
    const j = job({ completionMode: 'Indexed', completions: 2, parallelism: 2 }, { startTime: T0, active: 2 });
    const { env, c } = await setup(j, [
      pod('hello-0-a', 'Succeeded', { finishedAt: T0, index: 0 }),
      pod('hello-0-b', 'Succeeded', { finishedAt: T0, index: 0 }),
      pod('hello-1-a', 'Running', { index: 1 }),
    ]);
    await c.sync('default/hello');
    expect(env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status).toMatchObject({ succeeded: 1, completedIndexes: '0', active: 1, uncountedTerminatedPods: {} });
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    await env.stop();
  });

  it('podFailurePolicy FailJob fails the job at once with reason PodFailurePolicy; Ignore leaves a failure uncounted', async () => {
    const rules = {
      rules: [
        { action: 'FailJob' as const, onExitCodes: { operator: 'In' as const, values: [42] } },
        { action: 'Ignore' as const, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' as const }] },
      ],
    };
    const ignored = await setup(job({ podFailurePolicy: rules }, { startTime: T0, active: 1 }), [pod('hello-a', 'Failed', { finishedAt: T0, exitCode: 137, condition: 'DisruptionTarget' })]);
    await ignored.c.sync('default/hello');
    expect(ignored.env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!.failed).toBeUndefined();
    expect(ignored.env.fake.peek<Pod>(GVR.pods, 'default', 'hello-a')?.metadata.finalizers ?? []).toEqual([]);
    await ignored.env.stop();

    const { env, c } = await setup(job({ podFailurePolicy: rules }, { startTime: T0, active: 1 }), [pod('hello-b', 'Failed', { finishedAt: T0, exitCode: 42 })]);
    await c.sync('default/hello');
    const st = env.fake.peek<Job>(GVR.jobs, 'default', 'hello')!.status!;
    expect(st.failed).toBe(1);
    expect(st.conditions?.map((x) => [x.type, x.reason, x.message])).toEqual([
      ['FailureTarget', 'PodFailurePolicy', 'Container hello for pod default/hello-b failed with exit code 42 matching FailJob rule at index 0'],
      ['Failed', 'PodFailurePolicy', 'Container hello for pod default/hello-b failed with exit code 42 matching FailJob rule at index 0'],
    ]);
    expect(env.recorder.events).toEqual(['Warning PodFailurePolicy Container hello for pod default/hello-b failed with exit code 42 matching FailJob rule at index 0']);
    await env.stop();
  });
});
