// kubectl 1.32 with batch/v1: create job / cronjob / job --from, what get
// prints, and a job run to completion by the controller-manager's
// job-controller (this test plays the kubelet: it writes the pod's status).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningControllerManager } from '@kubelab/controller-manager';
import { requireTool, waitFor } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';
import { POLL, squash, startCluster, startControllers, type Cluster } from './harness.js';

const run = requireTool('kubectl');

type Obj = Record<string, any>;

describe.skipIf(!run)('kubectl 1.32: jobs and cron jobs', { timeout: 60_000 }, () => {
  let c: Cluster;
  let cm: RunningControllerManager;

  beforeAll(async () => {
    c = await startCluster();
    cm = await startControllers(c, ['job-controller', 'cronjob-controller']);
  }, 60_000);

  afterAll(async () => {
    await cm?.stop();
    await c?.stop();
  });

  const json = async (args: string[]): Promise<Obj> => JSON.parse((await c.kubectl([...args, '-o', 'json'])).stdout) as Obj;

  it('create job runs a pod the job-controller made, and get job shows it Complete 1/1', async () => {
    const r = await c.kubectl(['create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('job.batch/hello created\n');

    const job = await json(['get', 'job', 'hello']);
    const uid = job.metadata.uid as string;
    expect(job.spec).toMatchObject({
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      manualSelector: false,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
    });
    expect(job.spec.template.metadata.labels).toEqual({ 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'hello', 'controller-uid': uid, 'job-name': 'hello' });

    // The pod the controller created, found by the generated label.
    const pod = await waitFor(
      'the job pod',
      async () => {
        const items = (await json(['get', 'pods', '-l', 'job-name=hello'])).items as Obj[];
        return items.length === 1 ? items[0] : undefined;
      },
      POLL,
    );
    expect(pod.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pod.metadata.ownerReferences).toMatchObject([{ apiVersion: 'batch/v1', kind: 'Job', name: 'hello', uid, controller: true }]);
    expect(pod.spec.containers[0].command).toEqual(['echo', 'hi']);
    expect(squash((await c.kubectl(['get', 'job', 'hello'])).stdout)[0]).toBe('NAME STATUS COMPLETIONS DURATION AGE');

    // The kubelet's part: the container ran and exited 0.
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const store = c.api.registry.store('', 'v1', 'pods')!;
    const cur = (await store.get('default', pod.metadata.name)) as KubeObject;
    await store.update(
      'default',
      pod.metadata.name,
      {
        ...structuredClone(cur),
        status: {
          phase: 'Succeeded',
          containerStatuses: [
            { name: 'hello', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } } },
          ],
        },
      } as KubeObject,
      {},
      'status',
    );

    const row = await waitFor(
      'job hello Complete',
      async () => {
        const line = squash((await c.kubectl(['get', 'job', 'hello'])).stdout)[1];
        return line?.startsWith('hello Complete 1/1 ') ? line : undefined;
      },
      POLL,
    );
    expect(row).toMatch(/^hello Complete 1\/1 \d+s \d+s$/);
    const done = await json(['get', 'job', 'hello']);
    expect(done.status.conditions.map((x: Obj) => `${x.type}=${x.status} ${x.reason}`)).toEqual(['SuccessCriteriaMet=True CompletionsReached', 'Complete=True CompletionsReached']);
    expect(done.status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    // Counted: the finalizer is gone, so the pod can be deleted.
    await waitFor('finalizer removed', async () => ((await json(['get', 'pod', pod.metadata.name])).metadata.finalizers ?? []).length === 0, POLL);
    const events = await waitFor(
      'job events',
      async () => {
        const e = (await c.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=hello', '-o', 'custom-columns=REASON:.reason,MESSAGE:.message', '--no-headers'])).stdout;
        return e.includes('Completed') ? squash(e) : undefined;
      },
      POLL,
    );
    expect(events).toEqual([`SuccessfulCreate Created pod: ${pod.metadata.name}`, 'Completed Job completed']);
  });

  it('the job template is immutable', async () => {
    const r = await c.kubectl(['set', 'image', 'job/hello', 'hello=nginx']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe('error: failed to patch image update to pod template: Job.batch "hello" is invalid: spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable\n');
  });

  it('create cronjob, get cronjob / cj, and create job --from=cronjob', async () => {
    const r = await c.kubectl(['create', 'cronjob', 'x', '--image=busybox', '--schedule=*/1 * * * *', '--', 'date']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('cronjob.batch/x created\n');
    const cj = await json(['get', 'cj', 'x']);
    expect(cj.spec).toMatchObject({ schedule: '*/1 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    const rows = squash((await c.kubectl(['get', 'cronjob', 'x'])).stdout);
    expect(rows[0]).toBe('NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE');
    expect(rows[1]).toMatch(/^x \*\/1 \* \* \* \* <none> False [01] (<none>|\d+s) \d+s$/);

    const from = await c.kubectl(['create', 'job', 'y', '--from=cronjob/x']);
    expect(from.stderr).toBe('');
    expect(from.stdout).toBe('job.batch/y created\n');
    const y = await json(['get', 'job', 'y']);
    expect(y.metadata.annotations['cronjob.kubernetes.io/instantiate']).toBe('manual');
    expect(y.metadata.ownerReferences).toMatchObject([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'x', uid: cj.metadata.uid, controller: true }]);
    expect(y.spec.template.spec.containers[0].command).toEqual(['date']);
    // kubectl get all lists both kinds (category all).
    const all = (await c.kubectl(['get', 'all', '-o', 'name'])).stdout;
    expect(all).toContain('job.batch/y');
    expect(all).toContain('cronjob.batch/x');
  });

  it('an invalid schedule and a TZ prefix get upstream messages', async () => {
    const bad = await c.kubectl(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=61 * * * *']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toBe('error: failed to create cronjob: CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61\n');
    const tz = await c.kubectl(['create', 'cronjob', 'tz', '--image=busybox', '--schedule=TZ=UTC 0 * * * *']);
    expect(tz.stderr).toContain('spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
  });
});
