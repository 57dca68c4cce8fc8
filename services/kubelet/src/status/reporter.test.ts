import { formatTime, type Pod, type PodPhase, type PodStatus } from '@kubelab/api';
import { FakeClock, FakeRecorder } from '@kubelab/client/testing';
import { describe, expect, it } from 'vitest';
import { emptyPodStatus, type RuntimePodStatus } from '../kuberuntime/podstatus.js';
import { PodManager, type DesiredPod } from '../pod/pod-manager.js';
import { PodSyncStates } from '../pod-sync-state.js';
import { PodStatusReporter } from './reporter.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const UID = 'u1';
const MIRROR_UID = 'mirror-1';

/** The status manager's cache, recording each write as `<namespace>/<name> (<uid>) <phase>`. */
class FakeStatusManager {
  readonly writes: string[] = [];
  private readonly statuses = new Map<string, PodStatus>();

  getPodStatus(uid: string): PodStatus | undefined {
    return this.statuses.get(uid);
  }

  setPodStatus(uid: string, target: { namespace: string; name: string; uid?: string }, status: PodStatus): void {
    this.statuses.set(uid, status);
    this.writes.push(`${target.namespace}/${target.name} (${target.uid ?? 'no uid'}) ${status.phase}`);
  }
}

function web(opts: { deadline?: number; status?: PodStatus; static?: boolean } = {}): Pod {
  return {
    metadata: { name: opts.static ? 'web-node-1' : 'web', namespace: 'default', uid: UID },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36' }], ...(opts.deadline ? { activeDeadlineSeconds: opts.deadline } : {}) },
    ...(opts.status ? { status: opts.status } : {}),
  };
}

/** What the runtime shows of a pod whose app container runs since startedAt. */
function running(startedAt: number): RuntimePodStatus {
  return {
    ...emptyPodStatus(UID, 'web', 'default'),
    sandboxes: [{ id: 'sb', ready: true, ip: '10.244.0.2', additionalIps: [], createdAt: startedAt, attempt: 0 }],
    containers: [
      {
        id: 'c1',
        name: 'app',
        state: 'running',
        restartCount: 0,
        exitCode: 0,
        createdAt: startedAt,
        startedAt,
        finishedAt: 0,
        image: 'busybox:1.36',
        imageRef: 'sha256:b',
        reason: '',
        message: '',
        hash: '',
        logPath: '',
      },
    ],
  };
}

function setup(pod: Pod, opts: { static?: boolean; mirror?: boolean; timeScale?: number } = {}) {
  const clock = new FakeClock(T0);
  const podManager = new PodManager();
  const podStates = new PodSyncStates();
  const statusManager = new FakeStatusManager();
  const recorder = new FakeRecorder();
  const podStarts: number[] = [];
  podManager.set(UID, pod, !!opts.static);
  if (opts.mirror) podManager.setMirror({ ...pod, metadata: { ...pod.metadata, uid: MIRROR_UID } });
  const reporter = new PodStatusReporter({
    podManager,
    podStates,
    statusManager,
    prober: { updatePodStatus: () => {} },
    runtimeName: () => 'containerd',
    nodeIP: '192.168.0.10',
    timeScale: opts.timeScale ?? 1,
    recorder,
    clock,
    observePodStart: (seconds) => podStarts.push(seconds),
  });
  const d: DesiredPod = podManager.get(UID)!;
  return { clock, podManager, podStates, statusManager, recorder, podStarts, reporter, d };
}

const startedAgo = (ms: number, phase: PodStatus['phase'] = 'Running'): PodStatus => ({ phase, startTime: formatTime(T0 - ms) });

describe('PodStatusReporter.deadlinePassedUnreported: whether the sync loop must sync a pod for its active deadline', () => {
  it.each([
    { name: 'a pod without activeDeadlineSeconds never', pod: web({ status: startedAgo(3600_000) }), want: false },
    { name: 'a pod not started yet never', pod: web({ deadline: 30, status: { phase: 'Pending' } }), want: false },
    { name: 'started 10 s ago with a 30 s deadline: not yet', pod: web({ deadline: 30, status: startedAgo(10_000) }), want: false },
    { name: 'started 30 s ago with a 30 s deadline: the deadline passed', pod: web({ deadline: 30, status: startedAgo(30_000) }), want: true },
    { name: 'at time scale 10 a 30 s deadline passes 3 s after the start', pod: web({ deadline: 30, status: startedAgo(3_000) }), timeScale: 10, want: true },
    { name: 'passed, but a sync already reported it (DeadlineExceeded recorded)', pod: web({ deadline: 30, status: startedAgo(60_000) }), reported: true, want: false },
    { name: 'passed, but the pod already Failed: it never runs again', pod: web({ deadline: 30, status: startedAgo(60_000, 'Failed') }), want: false },
    { name: 'passed, but the pod already Succeeded', pod: web({ deadline: 30, status: startedAgo(60_000, 'Succeeded') }), want: false },
  ])('$name', (c) => {
    const t = setup(c.pod, { timeScale: c.timeScale });
    if (c.reported) t.podStates.of(UID).deadlineEventRecorded = true;
    expect(t.reporter.deadlinePassedUnreported(UID, t.d)).toBe(c.want);
  });
});

describe('PodStatusReporter.compute: a kubelet module failing the pod (upstream ShouldEvict)', () => {
  it.each([
    { name: 'a running pod within its deadline stays Running', pod: web({ deadline: 30, status: startedAgo(10_000) }), phase: 'Running', reason: undefined, events: [] },
    {
      name: 'past its active deadline: Failed with DeadlineExceeded, the event recorded once over two syncs',
      pod: web({ deadline: 30, status: startedAgo(30_000) }),
      phase: 'Failed',
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
      events: ['Normal DeadlineExceeded Pod was active on the node longer than the specified deadline'],
    },
    {
      name: 'evicted: Failed with the eviction reason, which wins over a passed deadline (no deadline event)',
      pod: web({ deadline: 30, status: startedAgo(30_000) }),
      eviction: { reason: 'Evicted', message: 'The node was low on resource: memory. ', gracePeriodSeconds: 0 },
      phase: 'Failed',
      reason: 'Evicted',
      message: 'The node was low on resource: memory. ',
      events: [],
    },
    {
      name: 'rejected at admission: Failed with the admission reason',
      pod: web({ status: startedAgo(0, 'Pending') }),
      eviction: { reason: 'OutOfcpu', message: "Pod was rejected: Node didn't have enough resource: cpu", gracePeriodSeconds: 0 },
      phase: 'Failed',
      reason: 'OutOfcpu',
      message: "Pod was rejected: Node didn't have enough resource: cpu",
      events: [],
    },
  ])('$name', (c) => {
    const t = setup(c.pod);
    if (c.eviction) t.podStates.of(UID).eviction = c.eviction;
    t.reporter.compute(UID, t.d, running(T0 - 1000));
    const status = t.reporter.compute(UID, t.d, running(T0 - 1000));
    expect({ phase: status.phase, reason: status.reason, message: status.message }).toEqual({ phase: c.phase, reason: c.reason, message: c.message });
    expect(t.recorder.events).toEqual(c.events);
  });

  it('remembers when each running container started, for the probes’ initial delays', () => {
    const t = setup(web());
    t.reporter.compute(UID, t.d, running(T0 - 1234));
    expect(t.podStates.containerStartedAt(UID, 'containerd://c1')).toBe(T0 - 1234);
  });
});

describe('PodStatusReporter.publish: where a status goes', () => {
  it.each([
    { name: 'an API pod: written to itself under its UID', static: false, mirror: false, writes: ['default/web (u1) Running'], held: undefined },
    { name: 'a static pod without its mirror pod: held, nothing written', static: true, mirror: false, writes: [], held: 'Running' },
    { name: 'a static pod with its mirror pod: written to the mirror pod under the mirror’s UID', static: true, mirror: true, writes: ['default/web-node-1 (mirror-1) Running'], held: undefined },
  ])('$name', (c) => {
    const t = setup(web({ static: c.static }), { static: c.static, mirror: c.mirror });
    t.reporter.publish(UID, t.d, { phase: 'Running' });
    expect(t.statusManager.writes).toEqual(c.writes);
    expect(t.podStates.get(UID)?.statusAwaitingMirror?.phase).toBe(c.held);
  });

  it.each([
    { name: 'the status held for a static pod goes to its mirror pod once that exists', publishFirst: true, writes: ['default/web-node-1 (mirror-1) Running'] },
    { name: 'nothing held: nothing written', publishFirst: false, writes: [] },
  ])('publishHeld: $name', (c) => {
    const pod = web({ static: true });
    const t = setup(pod, { static: true });
    if (c.publishFirst) t.reporter.publish(UID, t.d, { phase: 'Running' });
    t.podManager.setMirror({ ...pod, metadata: { ...pod.metadata, uid: MIRROR_UID } });
    t.reporter.publishHeld(UID, t.d);
    expect(t.statusManager.writes).toEqual(c.writes);
  });

  it.each<{ name: string; firstSeenAgo?: number; phases: PodPhase[]; podStarts: number[] }>([
    { name: 'first Running 5 s after the pod was first seen: observed once', firstSeenAgo: 5000, phases: ['Pending', 'Running', 'Running'], podStarts: [5] },
    { name: 'still Pending: not observed yet', firstSeenAgo: 5000, phases: ['Pending'], podStarts: [] },
    { name: 'never first-seen here (adopted after a restart): not observed', firstSeenAgo: undefined, phases: ['Running'], podStarts: [] },
  ])('pod start duration: $name', (c) => {
    const t = setup(web());
    if (c.firstSeenAgo !== undefined) t.podStates.of(UID).firstSeenAt = T0 - c.firstSeenAgo;
    for (const phase of c.phases) t.reporter.publish(UID, t.d, { phase });
    expect(t.podStarts).toEqual(c.podStarts);
  });
});
