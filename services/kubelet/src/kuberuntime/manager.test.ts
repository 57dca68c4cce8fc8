import { describe, expect, it } from 'vitest';
import type { Pod } from '@kubelab/api';
import { Backoff } from '../backoff.js';
import { FakeClock } from '../clock.js';
import { nullRecorder } from '../events.js';
import { ImageManager } from '../images/image-manager.js';
import { computePodActions } from './actions.js';
import type { ContainerStatus, RuntimeService } from './cri.js';
import { RuntimeManager } from './manager.js';
import { emptyPodStatus, type RuntimePodStatus } from './podstatus.js';

/** A runtime that logs every CRI call by its RPC name and answers like a healthy containerd. */
function fakeRuntime(calls: string[]): RuntimeService {
  let next = 0;
  const created = new Map<string, string>();
  const log =
    <A extends unknown[], R>(name: string, fn: (...a: A) => R) =>
    async (...a: A) => {
      calls.push(name);
      return fn(...a);
    };
  return {
    runPodSandbox: log('RunPodSandbox', () => `sb-${++next}`),
    podSandboxStatus: log('PodSandboxStatus', (id: string) => ({ id, metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 }, state: 'SANDBOX_READY', createdAt: 1, labels: {}, annotations: {}, network: { ip: '10.244.1.2', additionalIps: [] } })),
    imageStatus: log('ImageStatus', () => ({ id: 'sha256:b', repoTags: ['busybox:1.36'], repoDigests: [], size: 1 })),
    createContainer: log('CreateContainer', (_sb: string, config: { metadata: { name: string } }) => {
      const id = `c-${++next}`;
      created.set(id, config.metadata.name);
      return id;
    }),
    startContainer: log('StartContainer', () => undefined),
    stopContainer: log('StopContainer', () => undefined),
    stopPodSandbox: log('StopPodSandbox', () => undefined),
    containerStatus: log(
      'ContainerStatus',
      (id: string): ContainerStatus => ({
        id,
        metadata: { name: created.get(id) ?? '', attempt: 0 },
        state: 'CONTAINER_RUNNING',
        createdAt: 2,
        startedAt: 3,
        finishedAt: 0,
        exitCode: 0,
        image: 'busybox:1.36',
        imageRef: 'sha256:b',
        reason: '',
        message: '',
        labels: { 'io.kubernetes.container.name': created.get(id) ?? '' },
        annotations: {},
        logPath: '',
      }),
    ),
    listPodSandbox: log('ListPodSandbox', () => []),
    listContainers: log('ListContainers', () => []),
  } as unknown as RuntimeService;
}

const pod: Pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1' },
  spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
};

function setup(override: (calls: string[]) => Partial<RuntimeService> = () => ({})) {
  const calls: string[] = [];
  const rt = { ...fakeRuntime(calls), ...override(calls) } as RuntimeService;
  const clock = new FakeClock();
  const backoff = new Backoff(10_000, 300_000, clock);
  const m = new RuntimeManager({
    rt,
    images: new ImageManager(rt, backoff, nullRecorder, clock),
    recorder: nullRecorder,
    crashBackoff: backoff,
    clock,
    podLogsDir: '/var/log/pods',
    runtimeName: 'containerd',
    nodeName: 'node-1',
    nodeIPs: () => ['127.0.0.1'],
  });
  const sync = (status: RuntimePodStatus) => m.syncPod(pod, status, computePodActions(pod, status, () => undefined, () => undefined));
  return { calls, m, sync };
}

describe('RuntimeManager.syncPod', () => {
  it('starts a new pod with one CRI call per step and no re-read of the pod (upstream SyncPod on a first start)', async () => {
    const { calls, m, sync } = setup();
    const before = emptyPodStatus('u1', 'web', 'default');
    const result = await sync(before);
    expect(calls).toEqual(['RunPodSandbox', 'PodSandboxStatus', 'ImageStatus', 'CreateContainer', 'StartContainer']);
    // Nothing of the pod existed, so nothing was killed: the status is the old one plus what started.
    expect(result.changes).toMatchObject({ killed: false, started: ['c-2'], sandbox: { id: 'sb-1', ready: true, ip: '10.244.1.2' } });
    calls.length = 0;
    const after = await m.refreshAfter(before, result.changes);
    expect(calls).toEqual(['ContainerStatus']);
    expect(after.sandboxes.map((s) => s.id)).toEqual(['sb-1']);
    expect(after.containers.map((c) => [c.id, c.name, c.state])).toEqual([['c-2', 'app', 'running']]);
  });

  it('reports a kill when the runtime still had a sandbox of the pod (re-created sandbox)', async () => {
    const { calls, sync } = setup();
    const status: RuntimePodStatus = {
      ...emptyPodStatus('u1', 'web', 'default'),
      sandboxes: [{ id: 'old', ready: false, ip: '', additionalIps: [], createdAt: 1, attempt: 0 }],
    };
    const result = await sync(status);
    expect(result.changes.killed).toBe(true);
    expect(calls[0]).toBe('RunPodSandbox');
  });

  it('a liveness restart cancelled by the pod\'s termination stops waiting for the kill and creates nothing', async () => {
    // The container ignores TERM: StopContainer answers only when the grace period is over.
    let stopDone = () => {};
    const { calls, m } = setup((calls) => ({
      stopContainer: () => {
        calls.push('StopContainer');
        return new Promise<void>((r) => (stopDone = r));
      },
    }));
    const live: Pod = { ...pod, spec: { containers: [{ ...pod.spec!.containers[0]!, livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } } }] } };
    const status: RuntimePodStatus = {
      ...emptyPodStatus('u1', 'web', 'default'),
      sandboxes: [{ id: 'sb', ready: true, ip: '10.244.1.2', additionalIps: [], createdAt: 1, attempt: 0 }],
      containers: [{ id: 'c1', name: 'app', state: 'running', restartCount: 0, exitCode: 0, createdAt: 2, startedAt: 3, finishedAt: 0, image: 'busybox:1.36', imageRef: 'sha256:b', reason: '', message: '', hash: '', logPath: '' }],
    };
    const actions = computePodActions(live, status, () => 'Failure', () => undefined);
    expect(actions.containersToKill.map((k) => k.id)).toEqual(['c1']);
    expect(actions.containersToStart).toEqual(['app']);
    const terminating = new AbortController();
    const sync = m.syncPod(live, status, actions, terminating.signal);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['StopContainer']);
    terminating.abort();
    const result = await sync;
    expect(result.cancelled).toBe(true);
    stopDone();
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['StopContainer']);
  });

  it('a termination requested before the sync starts anything leaves the runtime untouched', async () => {
    const { calls, m } = setup();
    const terminating = new AbortController();
    terminating.abort();
    const before = emptyPodStatus('u1', 'web', 'default');
    const result = await m.syncPod(pod, before, computePodActions(pod, before, () => undefined, () => undefined), terminating.signal);
    expect(result.cancelled).toBe(true);
    expect(calls).toEqual([]);
  });
});
