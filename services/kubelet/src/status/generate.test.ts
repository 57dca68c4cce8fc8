import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import type { RuntimeContainerStatus, RuntimePodStatus } from '../kuberuntime/podstatus.js';
import { generateAPIPodStatus, getPhase, normalizeImageName } from './generate.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const T = (s: number) => NOW - s * 1000;

function podOf(spec: Partial<NonNullable<Pod['spec']>>): Pod {
  return { metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }], ...spec } };
}

function ctr(name: string, over: Partial<RuntimeContainerStatus>): RuntimeContainerStatus {
  return {
    id: `${name}-id`,
    name,
    state: 'running',
    createdAt: T(60),
    startedAt: T(60),
    finishedAt: 0,
    exitCode: 0,
    reason: '',
    message: '',
    image: 'docker.io/library/busybox:1.36',
    imageRef: 'sha256:abc',
    restartCount: 0,
    hash: '',
    logPath: '',
    ...over,
  };
}

function rt(containers: RuntimeContainerStatus[], sandboxReady = true): RuntimePodStatus {
  return { uid: 'u1', name: 'p', namespace: 'default', sandboxes: [{ id: 'sb', ready: sandboxReady, ip: '10.244.1.5', additionalIps: [], createdAt: T(61), attempt: 0 }], containers };
}

const gen = (pod: Pod, r: RuntimePodStatus, extra: Partial<Parameters<typeof generateAPIPodStatus>[0]> = {}) =>
  generateAPIPodStatus({
    pod,
    runtime: r,
    runtimeName: 'containerd',
    nodeIPs: ['192.168.0.10'],
    now: NOW,
    applyProbes: (_p, s) => s.containerStatuses?.forEach((c) => ((c.ready = !!c.state?.running), (c.started = !!c.state?.running))),
    ...extra,
  });

describe('generateAPIPodStatus', () => {
  it('reports a running pod as upstream: phase, conditions in order, IPs, container status', () => {
    const s = gen(podOf({}), rt([ctr('app', {})]));
    expect(s.phase).toBe('Running');
    expect(s.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['PodReadyToStartContainers', 'True'],
      ['Initialized', 'True'],
      ['Ready', 'True'],
      ['ContainersReady', 'True'],
      ['PodScheduled', 'True'],
    ]);
    expect(s).toMatchObject({
      hostIP: '192.168.0.10',
      hostIPs: [{ ip: '192.168.0.10' }],
      podIP: '10.244.1.5',
      podIPs: [{ ip: '10.244.1.5' }],
      startTime: '2025-01-01T12:00:00Z',
      qosClass: 'BestEffort',
    });
    expect(s.containerStatuses).toEqual([
      {
        name: 'app',
        state: { running: { startedAt: '2025-01-01T11:59:00Z' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'docker.io/library/busybox:1.36',
        imageID: 'sha256:abc',
        containerID: 'containerd://app-id',
        started: true,
      },
    ]);
  });

  it('shows ContainerCreating before any container exists, and the unready reason', () => {
    const s = gen(podOf({}), { ...rt([]), sandboxes: [] });
    expect(s.phase).toBe('Pending');
    expect(s.containerStatuses?.[0]?.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(s.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe('False');
    expect(s.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
  });

  it('puts the previous instance in lastState and shows CrashLoopBackOff from the sync reason', () => {
    const dead = ctr('app', { id: 'old', state: 'exited', exitCode: 1, reason: 'Error', finishedAt: T(5), restartCount: 2, createdAt: T(30) });
    const reasons = new Map([['app', { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=app pod=p_default(u1)' }]]);
    const s = gen(podOf({}), rt([dead]), { reasons });
    expect(s.containerStatuses?.[0]).toMatchObject({
      restartCount: 2,
      ready: false,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=app pod=p_default(u1)' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', containerID: 'containerd://old', finishedAt: '2025-01-01T11:59:55Z' } },
    });
    expect(s.phase).toBe('Running');
  });

  it('keeps lastTransitionTime of unchanged conditions and startTime of the old status', () => {
    const first = gen(podOf({}), rt([ctr('app', {})]));
    const later = gen(podOf({}), rt([ctr('app', {})]), { oldStatus: first, now: NOW + 60_000 });
    expect(later.startTime).toBe(first.startTime);
    expect(later.conditions).toEqual(first.conditions);
  });

  it('reports the QoS class the apiserver would (quantities compared, not strings) when the old status has none', () => {
    const res = (requests: Record<string, string>, limits: Record<string, string>) => podOf({ containers: [{ name: 'app', image: 'busybox:1.36', resources: { requests, limits } }] });
    const qos = (pod: Pod) => gen(pod, rt([ctr('app', {})])).qosClass;
    expect(qos(podOf({}))).toBe('BestEffort');
    expect(qos(res({ cpu: '100m' }, {}))).toBe('Burstable');
    expect(qos(res({ cpu: '1000m', memory: '1Gi' }, { cpu: '1', memory: '1024Mi' }))).toBe('Guaranteed');
    expect(qos(res({ cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }))).toBe('Burstable');
    // What the apiserver set at create stays.
    expect(gen(podOf({}), rt([ctr('app', {})]), { oldStatus: { qosClass: 'Guaranteed' } }).qosClass).toBe('Guaranteed');
  });

  it('reports init containers as incomplete until each one completed', () => {
    const pod = podOf({ initContainers: [{ name: 'a' }, { name: 'b' }] });
    const s = gen(pod, rt([ctr('a', { state: 'exited', exitCode: 0, reason: 'Completed', finishedAt: T(1) }), ctr('b', { id: 'b-id', createdAt: T(0.5) })]));
    expect(s.phase).toBe('Pending');
    expect(s.conditions?.find((c) => c.type === 'Initialized')).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [b]' });
    expect(s.containerStatuses?.[0]?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
  });
});

describe('getPhase', () => {
  const exited = (code: number) => ({ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: code } } });
  it.each([
    ['Always keeps a stopped pod Running', 'Always', 1, 'Running'],
    ['OnFailure with exit 0 is Succeeded', 'OnFailure', 0, 'Succeeded'],
    ['OnFailure with exit 1 stays Running (restarting)', 'OnFailure', 1, 'Running'],
    ['Never with exit 1 is Failed', 'Never', 1, 'Failed'],
    ['Never with exit 0 is Succeeded', 'Never', 0, 'Succeeded'],
  ] as const)('%s', (_n, policy, code, want) => {
    expect(getPhase(podOf({ restartPolicy: policy }), [], [exited(code)])).toBe(want);
  });

  it('fails a pod whose init container failed under Never', () => {
    const pod = podOf({ restartPolicy: 'Never', initContainers: [{ name: 'init' }] });
    expect(getPhase(pod, [{ ...exited(2), name: 'init' }], [])).toBe('Failed');
  });
});

describe('helpers', () => {
  it('normalizes image names as containerd reports them', () => {
    expect(normalizeImageName('busybox:1.36')).toBe('docker.io/library/busybox:1.36');
    expect(normalizeImageName('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImageName('kubelab/crasher:1.0')).toBe('docker.io/kubelab/crasher:1.0');
    expect(normalizeImageName('registry.k8s.io/pause:3.10')).toBe('registry.k8s.io/pause:3.10');
  });

  it('reports ephemeral containers in ephemeralContainerStatuses: waiting, running, terminated; they take no part in phase or readiness', () => {
    const pod = podOf({
      ephemeralContainers: [
        { name: 'new', image: 'busybox' },
        { name: 'dbg', image: 'busybox' },
        { name: 'done', image: 'busybox' },
      ],
    });
    const s = gen(pod, rt([ctr('app', {}), ctr('dbg', {}), ctr('done', { state: 'exited', exitCode: 3, finishedAt: T(1) })]));
    expect(s.ephemeralContainerStatuses?.map((c) => [c.name, Object.keys(c.state ?? {})[0], c.ready])).toEqual([
      ['new', 'waiting', false],
      ['dbg', 'running', false],
      ['done', 'terminated', false],
    ]);
    expect(s.ephemeralContainerStatuses?.[2]?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error', containerID: 'containerd://done-id' });
    expect([s.phase, s.conditions?.find((c) => c.type === 'Ready')?.status, s.containerStatuses?.map((c) => c.name)]).toEqual(['Running', 'True', ['app']]);
  });
});
