import { describe, expect, it } from 'vitest';
import type { Pod } from '@kubelab/api';
import { Backoff } from '../backoff.js';
import { FakeClock } from '@kubelab/client/testing';
import { nullRecorder, type Recorder } from '../events.js';
import { ImageManager } from '../images/image-manager.js';
import { computePodActions } from './actions.js';
import { FakeRuntimeService } from '../testing/fake-runtime.js';
import { CriClientError } from './cri.js';
import { RuntimeManager } from './manager.js';
import { emptyPodStatus, type RuntimePodStatus } from './podstatus.js';

const pod: Pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1' },
  spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
};

/** The runtime manager on the in-memory runtime, which already has the pod's image. */
function newManager(clock: FakeClock, recorder: Recorder = nullRecorder) {
  const rt = new FakeRuntimeService(clock);
  rt.addImage('busybox:1.36');
  const backoff = new Backoff(10_000, 300_000, clock);
  const m = new RuntimeManager({
    rt,
    images: new ImageManager(rt, backoff, nullRecorder, clock),
    recorder,
    crashBackoff: backoff,
    clock,
    podLogsDir: '/var/log/pods',
    runtimeName: 'containerd',
    nodeName: 'node-1',
    nodeIPs: () => ['127.0.0.1'],
  });
  return { rt, m };
}

function setup() {
  const { rt, m } = newManager(new FakeClock());
  const sync = (status: RuntimePodStatus) =>
    m.syncPod(
      pod,
      status,
      computePodActions(
        pod,
        status,
        () => undefined,
        () => undefined,
      ),
    );
  return { rt, m, sync };
}

describe('RuntimeManager.syncPod', () => {
  it('starts a new pod with one CRI call per step and no re-read of the pod (upstream SyncPod on a first start)', async () => {
    const { rt, m, sync } = setup();
    const before = emptyPodStatus('u1', 'web', 'default');
    const result = await sync(before);
    expect(rt.rpcs()).toEqual(['RunPodSandbox', 'PodSandboxStatus', 'ImageStatus', 'CreateContainer', 'StartContainer']);
    // Nothing of the pod existed, so nothing was killed: the status is the old one plus what started.
    expect(result.changes).toMatchObject({ killed: false, started: ['container-2'], sandbox: { id: 'sandbox-1', ready: true, ip: '10.244.0.1' } });
    rt.calls.length = 0;
    const after = await m.refreshAfter(before, result.changes);
    expect(rt.rpcs()).toEqual(['ContainerStatus']);
    expect(after.sandboxes.map((s) => s.id)).toEqual(['sandbox-1']);
    expect(after.containers.map((c) => [c.id, c.name, c.state])).toEqual([['container-2', 'app', 'running']]);
  });

  it('reports a kill when the runtime still had a sandbox of the pod (re-created sandbox)', async () => {
    const { rt, sync } = setup();
    const status: RuntimePodStatus = {
      ...emptyPodStatus('u1', 'web', 'default'),
      sandboxes: [{ id: 'old', ready: false, ip: '', additionalIps: [], createdAt: 1, attempt: 0 }],
    };
    const result = await sync(status);
    expect(result.changes.killed).toBe(true);
    expect(rt.rpcs()[0]).toBe('RunPodSandbox');
  });

  it("a liveness restart cancelled by the pod's termination stops waiting for the kill and creates nothing", async () => {
    const { rt, m, sync: start } = setup();
    await start(emptyPodStatus('u1', 'web', 'default'));
    const status = await m.getPodStatus('u1', 'web', 'default');
    rt.calls.length = 0;
    // The container ignores TERM: StopContainer answers only when the grace period is over.
    let stopDone = () => {};
    rt.onCall('StopContainer', () => new Promise<void>((r) => (stopDone = r)));
    const live: Pod = { ...pod, spec: { containers: [{ ...pod.spec!.containers[0]!, livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } } }] } };
    const actions = computePodActions(
      live,
      status,
      () => 'Failure',
      () => undefined,
    );
    expect(actions.containersToKill.map((k) => k.id)).toEqual(['container-2']);
    expect(actions.containersToStart).toEqual(['app']);
    const terminating = new AbortController();
    const sync = m.syncPod(live, status, actions, terminating.signal);
    await new Promise((r) => setImmediate(r));
    expect(rt.rpcs()).toEqual(['StopContainer']);
    terminating.abort();
    const result = await sync;
    expect(result.cancelled).toBe(true);
    stopDone();
    await new Promise((r) => setImmediate(r));
    expect(rt.rpcs()).toEqual(['StopContainer']);
  });

  it('a termination requested before the sync starts anything leaves the runtime untouched', async () => {
    const { rt, m } = setup();
    const terminating = new AbortController();
    terminating.abort();
    const before = emptyPodStatus('u1', 'web', 'default');
    const result = await m.syncPod(
      pod,
      before,
      computePodActions(
        pod,
        before,
        () => undefined,
        () => undefined,
      ),
      terminating.signal,
    );
    expect(result.cancelled).toBe(true);
    expect(rt.rpcs()).toEqual([]);
  });
});

/**
 * A pod whose container fails its liveness probe `runMs` after every start,
 * driven through computePodActions + syncPod on a fake clock as the kubelet
 * does: the failing probe's sync kills and restarts; a refused restart is
 * retried at the SyncResult's retryAt. Returns, per kill, how long the next
 * start came after it, and what each refused start reported.
 */
async function livenessLoop(runMs: number, kills: number) {
  const clock = new FakeClock();
  const events: string[] = [];
  const live: Pod = { ...pod, spec: { containers: [{ ...pod.spec!.containers[0]!, livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } } }] } };
  const recorder: Recorder = { event: (_ref, type, reason, message) => events.push(`${type} ${reason} ${message}`) };
  const { rt, m } = newManager(clock, recorder);
  const starts: number[] = [];
  const killedAt: number[] = [];
  rt.onCall('StartContainer', () => void starts.push(clock.now()));
  rt.onCall('StopContainer', () => void killedAt.push(clock.now()));
  // The pre-sync snapshot: the kill inside the sync must not change what the sync decided on.
  const sync = async (probe: 'Failure' | undefined) => {
    const s = await m.getPodStatus('u1', 'web', 'default');
    return m.syncPod(
      live,
      s,
      computePodActions(
        live,
        s,
        () => probe,
        () => undefined,
      ),
    );
  };
  const waiting: string[] = [];
  await sync(undefined);
  for (let k = 0; k < kills; k++) {
    await clock.advance(runMs);
    let r = await sync('Failure');
    for (let i = 0; starts.length <= k + 1 && i < 10; i++) {
      const why = r.reasons.get('app');
      waiting.push(`${why?.reason}: ${why?.message}`);
      await clock.setTime(r.retryAt!);
      r = await sync(undefined);
    }
  }
  const gaps = killedAt.map((t, i) => (starts[i + 1]! - t) / 1000);
  return { gaps, waiting, events, restartCounts: [...rt.containers.values()].map((c) => c.metadata.attempt) };
}

describe('crash-loop back-off after liveness kills (upstream doBackOff)', () => {
  it('a container killed by its liveness probe restarts at once twice, then 10 s, 20 s, 40 s ... 5 min after each kill', async () => {
    const { gaps, waiting, events, restartCounts } = await livenessLoop(1000, 10);
    // At the 5 min cap the window no longer outgrows the run before it: every other kill restarts at once, as upstream.
    expect(gaps).toEqual([0, 0, 10, 20, 40, 80, 160, 300, 0, 300]);
    expect(restartCounts).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Every refused start reads as upstream's, with the window then in force.
    expect(new Set(waiting)).toEqual(new Set(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s'].map((d) => `CrashLoopBackOff: back-off ${d} restarting failed container=app pod=web_default(u1)`)));
    expect(events).toContain('Warning BackOff Back-off restarting failed container app in pod web_default(u1)');
    expect(events.filter((e) => e.startsWith('Normal Killing'))).toHaveLength(10);
  });

  it('a container that runs longer than the back-off between kills (probedemo: 30 s) restarts at once until the back-off outgrows its run', async () => {
    // The window counts from the previous instance's end, which is a whole run ago.
    const { gaps } = await livenessLoop(30_000, 8);
    expect(gaps).toEqual([0, 0, 0, 0, 40, 80, 160, 300]);
  });
});

describe('an image that cannot be pulled (upstream: the pod worker syncs a failed pod again after backOffPeriod)', () => {
  it('turns ImagePullBackOff one relist after the first sync, then is synced every 10 s; the image back-off (10 s, 20 s, 40 s) decides each time whether to pull', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const { rt, m } = newManager(clock);
    const bad: Pod = { ...pod, spec: { containers: [{ ...pod.spec!.containers[0]!, image: 'busybox:does-not-exist' }] } };
    rt.onCall('PullImage', (image) => {
      throw new CriClientError('NotFound', `failed to pull and unpack image "docker.io/library/${image}": not found`);
    });
    const seen: string[] = [];
    while (clock.now() - start <= 61_000) {
      const s = await m.getPodStatus('u1', 'web', 'default');
      const r = await m.syncPod(
        bad,
        s,
        computePodActions(
          bad,
          s,
          () => undefined,
          () => undefined,
        ),
      );
      seen.push(`${(clock.now() - start) / 1000}s ${r.reasons.get('app')?.reason}`);
      await clock.setTime(r.retryAt!);
    }
    expect(seen).toEqual([
      '0s ErrImagePull',
      '1s ImagePullBackOff',
      '11s ErrImagePull',
      '21s ImagePullBackOff',
      '31s ErrImagePull',
      '41s ImagePullBackOff',
      '51s ImagePullBackOff',
      '61s ImagePullBackOff',
    ]);
    expect(rt.rpcs().filter((c) => c === 'PullImage')).toHaveLength(3);
  });
});
