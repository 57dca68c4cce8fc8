// The pod lifecycle end to end on one node, with node time compressed 10x
// (containerd --time-scale 10 and kubelet --time-scale 10): the seed's
// probedemo manifest runs unchanged, 30 s of sleep take 3 s.

import type { Pod } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

const get = (c: Cluster, name: string) => c.cs.core.pods('default').get(name);

describe.skipIf(!requireTool('nats-server'))('pod lifecycle (time-scale 10)', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster({ containerd: { timeScale: 10 }, kubelet: { timeScale: 10 } });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('probedemo: liveness fails after the file is removed, the container restarts, events read as upstream', async () => {
    await c.cs.core.pods('default').create(
      pod('probedemo', {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            args: ['sh', '-c', 'touch /tmp/healthy; sleep 30; rm /tmp/healthy; sleep 600'],
            livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
          },
        ],
      }),
    );
    const p = await waitFor(
      'a probedemo restart',
      async () => {
        const x = await get(c, 'probedemo');
        return (x.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? x : undefined;
      },
      { ...POLL, timeoutMs: 20_000 },
    );
    const cs = p.status!.containerStatuses![0]!;
    expect(cs.lastState?.terminated).toMatchObject({ reason: 'Error' });
    expect(cs.lastState?.terminated?.exitCode).toBeGreaterThan(128);
    const events = await podEvents(c.cs, 'probedemo');
    // The probe's output is what `cat` printed inside the container.
    expect(events.find((e) => e.startsWith('Unhealthy'))).toMatch(/^Unhealthy: Liveness probe failed: cat: .*\/tmp\/healthy.*No such file or directory\n$/);
    expect(events).toContain('Killing: Container app failed liveness probe, will be restarted');
    // The image was pulled once; the restart finds it present.
    expect(events.filter((e) => e.startsWith('Pulled'))).toEqual([
      expect.stringMatching(/^Pulled: Successfully pulled image "busybox:1.36"/),
      'Pulled: Container image "busybox:1.36" already present on machine',
    ]);
  }, 30_000);

  it('readiness failure takes the pod out of Ready without restarting it', async () => {
    await c.cs.core.pods('default').create(
      pod('notready', {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'touch /tmp/ready; sleep 20; rm /tmp/ready; sleep 600'],
            readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 2, failureThreshold: 1 },
          },
        ],
      }),
    );
    await waitFor('notready Ready', async () => (await get(c, 'notready')).status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True', { ...POLL, timeoutMs: 10_000 });
    const p = await waitFor(
      'notready not Ready',
      async () => {
        const x = await get(c, 'notready');
        return x.status?.conditions?.find((k) => k.type === 'Ready')?.status === 'False' ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(p.status?.conditions?.find((k) => k.type === 'ContainersReady')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
    expect(p.status?.containerStatuses?.[0]).toMatchObject({ ready: false, started: true, restartCount: 0 });
    expect(p.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
    expect(p.status?.phase).toBe('Running');
  }, 30_000);

  it('a startup probe holds liveness off until the slow starter is up', async () => {
    await c.cs.core.pods('default').create(
      pod('slowstart', {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'sleep 20; touch /tmp/up; sleep 600'],
            startupProbe: { exec: { command: ['cat', '/tmp/up'] }, periodSeconds: 2, failureThreshold: 30 },
            livenessProbe: { exec: { command: ['cat', '/tmp/up'] }, periodSeconds: 1, failureThreshold: 1 },
          },
        ],
      }),
    );
    const running = await waitFor(
      'slowstart running',
      async () => {
        const x = await get(c, 'slowstart');
        return x.status?.containerStatuses?.[0]?.state?.running ? x : undefined;
      },
      POLL,
    );
    expect(running.status?.containerStatuses?.[0]).toMatchObject({ started: false, ready: false });
    const started = await waitFor(
      'slowstart started',
      async () => {
        const x = await get(c, 'slowstart');
        return x.status?.containerStatuses?.[0]?.started ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(started.status?.containerStatuses?.[0]).toMatchObject({ started: true, ready: true, restartCount: 0 });
    const events = await podEvents(c.cs, 'slowstart');
    expect(events.filter((e) => e.startsWith('Killing'))).toEqual([]);
  }, 30_000);

  it('restartPolicy Never: a failed container stays terminated and the pod Failed; OnFailure: success completes the pod', async () => {
    await c.cs.core.pods('default').create(pod('never', { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 3'] }] }));
    await c.cs.core.pods('default').create(pod('onfailure', { restartPolicy: 'OnFailure', containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo done'] }] }));
    const never = await waitFor(
      'never Failed',
      async () => {
        const x = await get(c, 'never');
        return x.status?.phase === 'Failed' ? x : undefined;
      },
      POLL,
    );
    expect(never.status?.containerStatuses?.[0]).toMatchObject({ restartCount: 0, ready: false, state: { terminated: { exitCode: 3, reason: 'Error' } } });
    expect(never.status?.conditions?.find((k) => k.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
    const ok = await waitFor(
      'onfailure Succeeded',
      async () => {
        const x = await get(c, 'onfailure');
        return x.status?.phase === 'Succeeded' ? x : undefined;
      },
      POLL,
    );
    expect(ok.status?.containerStatuses?.[0]).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
    expect(ok.status?.conditions?.find((k) => k.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  }, 30_000);

  it('a crashing container goes into CrashLoopBackOff with upstream wording', async () => {
    await c.cs.core.pods('default').create(pod('crasher', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo starting; echo crashing; exit 1'] }] }));
    const p = await waitFor(
      'crasher in CrashLoopBackOff',
      async () => {
        const x = await get(c, 'crasher');
        return x.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff' ? x : undefined;
      },
      { ...POLL, timeoutMs: 15_000 },
    );
    const cs = p.status!.containerStatuses![0]!;
    // 10 s doubling, compressed 10x: `back-off 1s`, `2s`, ... (Go duration text).
    expect(cs.state?.waiting?.message).toMatch(new RegExp(`^back-off \\d+(\\.\\d+)?m?s restarting failed container=app pod=crasher_default\\(${p.metadata.uid}\\)$`));
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(p.status?.phase).toBe('Running');
    const events = await podEvents(c.cs, 'crasher');
    expect(events).toContain(`BackOff: Back-off restarting failed container app in pod crasher_default(${p.metadata.uid})`);
    // `kubectl logs -p` and `--tail`/`--timestamps` through the kubelet server.
    const base = '/containerLogs/default/crasher/app';
    expect((await c.kubeletGet(`${base}?previous=true`)).text).toBe('starting\ncrashing\n');
    expect((await c.kubeletGet(`${base}?previous=true&tailLines=1`)).text).toBe('crashing\n');
    expect((await c.kubeletGet(`${base}?previous=true&tailLines=1&timestamps=true`)).text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z crashing\n$/);
    const missing = await c.kubeletGet('/containerLogs/default/crasher/nope');
    expect([missing.status, missing.text]).toEqual([400, 'container nope is not valid for pod crasher']);
  }, 30_000);

  it('a container killed by its liveness probe again and again is restarted under crash-loop back-off: at once twice, then 10 s, 20 s, 40 s after the kill', async () => {
    // Wall-clock times of the runtime's StartContainer and first StopContainer (the kill) per container of this pod.
    const rt = c.containerd.runtime;
    const orig = { create: rt.createContainer.bind(rt), start: rt.startContainer.bind(rt), stop: rt.stopContainer.bind(rt) };
    const started: { id: string; at: number }[] = [];
    const killed = new Map<string, number>();
    const ours = new Set<string>();
    vi.spyOn(rt, 'createContainer').mockImplementation((sandboxId, config) => {
      const ctr = orig.create(sandboxId, config);
      if (config?.labels?.['io.kubernetes.pod.name'] === 'livekill') ours.add(ctr.id);
      return ctr;
    });
    vi.spyOn(rt, 'startContainer').mockImplementation((id) => {
      if (ours.has(id)) started.push({ id, at: Date.now() });
      return orig.start(id);
    });
    // Removing an exited container stops it again: only the first stop is the kill.
    vi.spyOn(rt, 'stopContainer').mockImplementation((id, timeout) => {
      if (ours.has(id) && !killed.has(id)) killed.set(id, Date.now());
      return orig.stop(id, timeout);
    });
    const seen: Pod[] = [];
    const list = await c.cs.core.pods('default').list();
    const stream = c.cs.core.pods('default').watch({ resourceVersion: list.metadata.resourceVersion ?? '' });
    const watching = (async () => {
      for await (const ev of stream) if (ev.object.metadata.name === 'livekill') seen.push(ev.object);
    })();
    try {
      await c.cs.core.pods('default').create(
        pod('livekill', {
          terminationGracePeriodSeconds: 2,
          containers: [
            {
              name: 'app',
              image: 'busybox:1.36',
              command: ['sh', '-c', 'sleep 600'],
              livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, failureThreshold: 1 },
            },
          ],
        }),
      );
      // Six starts: the first instance and five restarts after five liveness kills.
      await waitFor('six container starts', () => started.length >= 6, { timeoutMs: 25_000, everyMs: 100 });
    } finally {
      stream.stop();
      await watching;
      vi.restoreAllMocks();
    }
    // From each kill to the next start. Node time runs 10x: 1 s of wall time is 10 s of back-off.
    const gaps = started.slice(0, 5).map((s, i) => started[i + 1]!.at - killed.get(s.id)!);
    expect(gaps[0]).toBeLessThan(1000);
    expect(gaps[1]).toBeLessThan(1000);
    expect(gaps[2]).toBeGreaterThanOrEqual(1000);
    expect(gaps[3]).toBeGreaterThanOrEqual(2000);
    expect(gaps[4]).toBeGreaterThanOrEqual(4000);
    // ... and shorter than the next doubling (the window plus the 0.2 s kill and a sync, with room for a loaded machine).
    expect(gaps.slice(2).map((g, i) => g < 1000 * 2 ** (i + 1))).toEqual([true, true, true]);
    const uid = seen[0]!.metadata.uid!;
    // Each refused restart's waiting state, in the order the API showed them (a sixth kill may just have begun 8s).
    const waiting = [
      ...new Set(
        seen
          .map((p) => p.status?.containerStatuses?.[0]?.state?.waiting)
          .filter((w) => w?.reason === 'CrashLoopBackOff')
          .map((w) => w!.message),
      ),
    ];
    expect(waiting.slice(0, 3)).toEqual(['1s', '2s', '4s'].map((d) => `back-off ${d} restarting failed container=app pod=livekill_default(${uid})`));
    const backingOff = seen.find((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff')!;
    expect(backingOff.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(backingOff.status?.phase).toBe('Running');
    const events = await podEvents(c.cs, 'livekill');
    expect(events).toContain(`BackOff: Back-off restarting failed container app in pod livekill_default(${uid})`);
    expect(events).toContain('Killing: Container app failed liveness probe, will be restarted');
    await c.cs.core.pods('default').delete('livekill', { gracePeriodSeconds: 0 });
  }, 40_000);

  it('runs init containers one after another to completion, then the app container', async () => {
    await c.cs.core.pods('default').create(
      pod('withinit', {
        initContainers: [
          { name: 'init-1', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5'] },
          { name: 'init-2', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5'] },
        ],
        containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 600'] }],
      }),
    );
    const initializing = await waitFor(
      'the init container of withinit running',
      async () => {
        const x = await get(c, 'withinit');
        return x.status?.initContainerStatuses?.[0]?.state?.running ? x : undefined;
      },
      POLL,
    );
    expect(initializing.status?.phase).toBe('Pending');
    expect(initializing.status?.initContainerStatuses?.[1]?.state?.waiting?.reason).toBe('PodInitializing');
    expect(initializing.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('PodInitializing');
    expect(initializing.status?.conditions?.find((k) => k.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [init-1 init-2]',
    });
    const done = await waitFor(
      'withinit Running',
      async () => {
        const x = await get(c, 'withinit');
        return x.status?.phase === 'Running' ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    const [a, b] = done.status!.initContainerStatuses!;
    expect(a!.state?.terminated?.reason).toBe('Completed');
    expect(b!.state?.terminated?.reason).toBe('Completed');
    // init-2 started only after init-1 finished.
    expect(Date.parse(b!.state!.terminated!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(a!.state!.terminated!.finishedAt!));
  }, 30_000);

  it('an image that cannot be pulled ends in ImagePullBackOff; pull policy Never reports ErrImageNeverPull', async () => {
    await c.cs.core.pods('default').create(pod('badimage', { containers: [{ name: 'app', image: 'busybox:does-not-exist' }] }));
    await c.cs.core.pods('default').create(pod('neverpull', { containers: [{ name: 'app', image: 'nginx:1.26', imagePullPolicy: 'Never' }] }));
    const bad = await waitFor(
      'badimage in ImagePullBackOff',
      async () => {
        const x = await get(c, 'badimage');
        return x.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ImagePullBackOff' ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(bad.status?.containerStatuses?.[0]?.state?.waiting?.message).toBe('Back-off pulling image "busybox:does-not-exist"');
    const events = await waitFor(
      'an ImagePullBackOff event for badimage',
      async () => {
        const e = await podEvents(c.cs, 'badimage');
        return e.includes('Failed: Error: ImagePullBackOff') ? e : undefined;
      },
      POLL,
    );
    expect(events).toContain('Pulling: Pulling image "busybox:does-not-exist"');
    expect(events).toContain('Failed: Error: ErrImagePull');
    expect(events).toContain('BackOff: Back-off pulling image "busybox:does-not-exist"');
    expect(events).toContain('Failed: Error: ImagePullBackOff');
    expect(events.find((e) => e.startsWith('Failed: Failed to pull image'))).toMatch(/^Failed: Failed to pull image "busybox:does-not-exist": rpc error: code = NotFound desc = /);
    const never = await waitFor(
      'neverpull in ErrImageNeverPull',
      async () => {
        const x = await get(c, 'neverpull');
        return x.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ErrImageNeverPull' ? x : undefined;
      },
      POLL,
    );
    expect(never.status?.containerStatuses?.[0]?.state?.waiting?.message).toBe('Container image "nginx:1.26" is not present with pull policy of Never');
  }, 30_000);

  it('graceful deletion stops the containers, then removes the pod from the API', async () => {
    await c.cs.core.pods('default').create(pod('bye', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 600'] }] }));
    await waitFor('bye Running', async () => (await get(c, 'bye')).status?.phase === 'Running', POLL);
    const uid = (await get(c, 'bye')).metadata.uid!;
    const r = await c.cs.core.pods('default').delete('bye');
    expect(r.deleted).toBe(false);
    expect((r.object as Pod).metadata.deletionTimestamp).toBeDefined();
    await waitFor(
      'bye gone',
      async () => {
        try {
          await get(c, 'bye');
          return false;
        } catch (e) {
          return (e as { reason?: string }).reason === 'NotFound';
        }
      },
      { ...POLL, timeoutMs: 15_000 },
    );
    const events = await podEvents(c.cs, 'bye');
    expect(events).toContain('Killing: Stopping container app');
    const left = await c.kubelet.kubelet.rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': uid } });
    expect(left).toEqual([]);
  }, 30_000);

  it('probes over HTTP reach the pod port (nginx ready), and a port nobody listens on gives the upstream dial error', async () => {
    await c.cs.core.pods('default').create(
      pod('web', {
        containers: [
          { name: 'nginx', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 80 }], readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 2 } },
          {
            name: 'side',
            image: 'busybox:1.36',
            command: ['sleep', '600'],
            readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 2 },
            livenessProbe: { exec: { command: ['no-such-binary'] }, periodSeconds: 2, failureThreshold: 1 },
          },
        ],
      }),
    );
    const p = await waitFor(
      'the nginx container of web ready',
      async () => {
        const x = await get(c, 'web');
        return x.status?.containerStatuses?.find((s) => s.name === 'nginx')?.ready ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(p.status?.containerStatuses?.find((s) => s.name === 'side')?.ready).toBe(false);
    const events = await waitFor(
      'readiness and liveness Unhealthy events for web',
      async () => {
        const e = await podEvents(c.cs, 'web');
        return e.some((x) => x.startsWith('Unhealthy: Readiness')) && e.some((x) => x.startsWith('Unhealthy: Liveness')) ? e : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(events).toContain(`Unhealthy: Readiness probe failed: dial tcp ${p.status?.podIP}:8080: connect: connection refused`);
    // exec of a missing binary: the runtime's error output becomes the probe output, and the container restarts.
    expect(events.find((x) => x.startsWith('Unhealthy: Liveness'))).toMatch(/^Unhealthy: Liveness probe (failed|errored)/);
  }, 30_000);

  it('runs the preStop hook before stopping (a failing hook is reported without its output), and postStart after starting', async () => {
    await c.cs.core.pods('default').create(
      pod('hooks', {
        terminationGracePeriodSeconds: 10,
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'sleep 600'],
            lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo started > /tmp/poststart'] } }, preStop: { exec: { command: ['sh', '-c', 'echo secret-output; exit 3'] } } },
            readinessProbe: { exec: { command: ['cat', '/tmp/poststart'] }, periodSeconds: 1 },
          },
        ],
      }),
    );
    // Ready only if postStart ran inside the container.
    await waitFor('hooks ready', async () => (await get(c, 'hooks')).status?.containerStatuses?.[0]?.ready === true, { ...POLL, timeoutMs: 10_000 });
    await c.cs.core.pods('default').delete('hooks');
    const events = await waitFor(
      'a FailedPreStopHook event for hooks',
      async () => {
        const e = await podEvents(c.cs, 'hooks');
        return e.includes('FailedPreStopHook: PreStopHook failed') ? e : undefined;
      },
      { ...POLL, timeoutMs: 15_000 },
    );
    expect(events.indexOf('Killing: Stopping container app')).toBeLessThan(events.indexOf('FailedPreStopHook: PreStopHook failed'));
    expect(events.join('\n')).not.toContain('secret-output');
  }, 30_000);
});
