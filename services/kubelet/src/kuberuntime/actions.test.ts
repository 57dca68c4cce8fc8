import type { Container, Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { computePodActions, hashContainer } from './actions.js';
import type { RuntimeContainerStatus, RuntimePodStatus } from './podstatus.js';

const app: Container = { name: 'app', image: 'busybox:1.36', livenessProbe: { exec: { command: ['true'] } } };
const podOf = (spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({ metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec: { containers: [app], ...spec } });
const ctr = (name: string, over: Partial<RuntimeContainerStatus> = {}): RuntimeContainerStatus => ({
  id: `${name}-1`,
  name,
  state: 'running',
  createdAt: 1,
  startedAt: 1,
  finishedAt: 0,
  exitCode: 0,
  reason: '',
  message: '',
  image: '',
  imageRef: '',
  restartCount: 0,
  hash: '',
  logPath: '',
  ...over,
});
const withSandbox = (containers: RuntimeContainerStatus[], ready = true): RuntimePodStatus => ({
  uid: 'u1',
  name: 'p',
  namespace: 'default',
  sandboxes: [{ id: 'sb-1', ready, ip: '10.244.1.2', additionalIps: [], createdAt: 1, attempt: 0 }],
  containers,
});
const none = () => undefined;

describe('computePodActions', () => {
  it('creates a sandbox and starts the first init container of a new pod', () => {
    const a = computePodActions(podOf({ initContainers: [{ name: 'i1' }, { name: 'i2' }] }), { uid: 'u1', name: 'p', namespace: 'default', sandboxes: [], containers: [] }, none, none);
    expect(a).toMatchObject({ createSandbox: true, killPod: true, attempt: 0, initContainersToStart: ['i1'], containersToStart: [] });
  });

  it('runs the next init container after the previous one succeeded, app containers after all', () => {
    const pod = podOf({ initContainers: [{ name: 'i1' }, { name: 'i2' }] });
    expect(computePodActions(pod, withSandbox([ctr('i1', { state: 'exited' })]), none, none).initContainersToStart).toEqual(['i2']);
    expect(computePodActions(pod, withSandbox([ctr('i1', { state: 'running' })]), none, none).initContainersToStart).toEqual([]);
    const done = computePodActions(pod, withSandbox([ctr('i2', { state: 'exited', createdAt: 2 }), ctr('i1', { state: 'exited' })]), none, none);
    expect(done).toMatchObject({ initContainersToStart: [], containersToStart: ['app'], killPod: false });
  });

  it('fails the pod when an init container fails under restartPolicy Never, restarts it otherwise', () => {
    const failed = withSandbox([ctr('i1', { state: 'exited', exitCode: 1 })]);
    expect(computePodActions(podOf({ restartPolicy: 'Never', initContainers: [{ name: 'i1' }] }), failed, none, none)).toMatchObject({ initFailed: true, killPod: true });
    expect(computePodActions(podOf({ initContainers: [{ name: 'i1' }] }), failed, none, none).initContainersToStart).toEqual(['i1']);
  });

  it('kills and restarts a container whose liveness probe failed, with the upstream message', () => {
    const a = computePodActions(podOf(), withSandbox([ctr('app')]), (id) => (id === 'containerd://app-1' ? 'Failure' : undefined), none);
    expect(a.containersToKill).toEqual([{ id: 'app-1', name: 'app', message: 'Container app failed liveness probe, will be restarted' }]);
    expect(a.containersToStart).toEqual(['app']);
    expect(a.killPod).toBe(false);
  });

  it('kills but does not restart under restartPolicy Never; the pod is then done', () => {
    const a = computePodActions(podOf({ restartPolicy: 'Never' }), withSandbox([ctr('app')]), () => 'Failure', none);
    expect(a.containersToStart).toEqual([]);
    expect(a.killPod).toBe(true);
  });

  it('restarts a container whose spec hash changed', () => {
    const a = computePodActions(podOf(), withSandbox([ctr('app', { hash: 'stale' })]), none, none);
    expect(a.containersToKill[0]?.message).toBe('Container app definition changed, will be restarted');
    expect(computePodActions(podOf(), withSandbox([ctr('app', { hash: hashContainer(app) })]), none, none).containersToKill).toEqual([]);
  });

  // The hash is remembered only for frozen containers (the informer's): a container changed in place hashes anew.
  it.each([
    ['frozen', true],
    ['not frozen', false],
  ])('hashes a %s container as its spec says, every time', (_, frozen) => {
    const c: Container = { name: 'app', image: 'nginx:1.27', command: ['nginx'] };
    const first = hashContainer(frozen ? Object.freeze({ ...c }) : c);
    const again = hashContainer(frozen ? Object.freeze({ ...c }) : c);
    expect(again).toBe(first);
    expect(first).toMatch(/^[0-9a-f]{8}$/);
    if (!frozen) {
      c.image = 'nginx:1.28';
      expect(hashContainer(c)).not.toBe(first);
    }
  });

  it('follows the restart policy for exited containers', () => {
    const exited0 = withSandbox([ctr('app', { state: 'exited', exitCode: 0 })]);
    const exited1 = withSandbox([ctr('app', { state: 'exited', exitCode: 1 })]);
    expect(computePodActions(podOf(), exited0, none, none).containersToStart).toEqual(['app']);
    expect(computePodActions(podOf({ restartPolicy: 'OnFailure' }), exited0, none, none)).toMatchObject({ containersToStart: [], killPod: true });
    expect(computePodActions(podOf({ restartPolicy: 'OnFailure' }), exited1, none, none).containersToStart).toEqual(['app']);
    expect(computePodActions(podOf({ restartPolicy: 'Never' }), exited1, none, none)).toMatchObject({ containersToStart: [], killPod: true });
  });

  it('recreates a dead sandbox with the next attempt, but not for a finished Never pod', () => {
    const dead = withSandbox([ctr('app', { state: 'exited', exitCode: 137 })], false);
    expect(computePodActions(podOf(), dead, none, none)).toMatchObject({ createSandbox: true, attempt: 1, containersToStart: ['app'] });
    expect(computePodActions(podOf({ restartPolicy: 'Never' }), dead, none, none)).toMatchObject({ createSandbox: false, killPod: true });
  });

  it('leaves a healthy running pod alone', () => {
    expect(computePodActions(podOf(), withSandbox([ctr('app')]), () => 'Success', none)).toMatchObject({
      killPod: false,
      createSandbox: false,
      containersToStart: [],
      containersToKill: [],
      initContainersToStart: [],
    });
  });

  it.each<[string, RuntimeContainerStatus[], string[]]>([
    ['starts an ephemeral container the runtime never had', [ctr('app')], ['debugger']],
    ['never restarts one that exited', [ctr('app'), ctr('debugger', { state: 'exited', exitCode: 0 })], []],
    ['leaves a running one alone', [ctr('app'), ctr('debugger')], []],
    ['starts one while an init container still runs (to debug it)', [ctr('i1')], ['debugger']],
  ])('%s', (_name, containers, want) => {
    const pod = podOf({ ephemeralContainers: [{ name: 'debugger', image: 'busybox', stdin: true, tty: true }], ...(containers[0]?.name === 'i1' ? { initContainers: [{ name: 'i1' }] } : {}) });
    const a = computePodActions(pod, withSandbox(containers), none, none);
    expect(a.ephemeralContainersToStart).toEqual(want);
    expect(a.killPod).toBe(false);
  });
});
