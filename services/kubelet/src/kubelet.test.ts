import { applyPatch, formatTime, type ContainerStatus, type Pod, type PodSpec, type PodStatus } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { staticPodFromManifest } from './config/file.js';
import { CriClientError } from './kuberuntime/cri.js';
import { TEST_NODE, newTestKubelet, type TestKubelet } from './testing/test-kubelet.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
// kubernetes.io/config.seen as the file source writes it: RFC 3339 with fractional seconds (upstream RFC3339Nano), not a second-precision metav1.Time.
const SEEN = new Date(T0).toISOString();

function web(spec: Partial<PodSpec> = {}, status?: PodStatus): Pod {
  return { metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }], ...spec }, ...(status ? { status } : {}) };
}

/** A container status in a word: `app=running`, `app=waiting:CrashLoopBackOff`, `app=terminated:Error(137)`, with ` ready` and `#<restarts>`. */
function containerLine(c: ContainerStatus): string {
  const s = c.state ?? {};
  const state = s.running ? 'running' : s.waiting ? `waiting:${s.waiting.reason}` : s.terminated ? `terminated:${s.terminated.reason}(${s.terminated.exitCode})` : 'unknown';
  return `${c.name}=${state}${c.ready ? ' ready' : ''}${c.restartCount ? ` #${c.restartCount}` : ''}`;
}

/** The pod status in one line: phase (and reason), then init containers and containers. */
function statusLine(s: PodStatus | undefined): string {
  if (!s) return 'none';
  const containers = [...(s.initContainerStatuses ?? []).map((c) => `init:${containerLine(c)}`), ...(s.containerStatuses ?? []).map(containerLine)];
  return [`${s.phase}${s.reason ? `/${s.reason}` : ''}`, ...containers].join(' ');
}

/** A test kubelet running `pod` after one sync; the runtime's calls and the events so far are cleared. */
async function running(pod: Pod): Promise<{ t: TestKubelet; uid: string }> {
  const t = newTestKubelet();
  t.runtime.addImage('busybox:1.36');
  const uid = t.addApiPod(pod).metadata.uid!;
  await t.kubelet.syncPod(uid);
  await t.kubelet.statusManager.whenIdle();
  t.runtime.calls.length = 0;
  t.recorder.events.length = 0;
  t.api.clearActions();
  return { t, uid };
}

describe('syncPod of a pod new to the kubelet', () => {
  interface Case {
    name: string;
    pod: Pod;
    given?: (t: TestKubelet, uid: string) => unknown;
    changes: string[];
    status: string;
    events?: string[];
    /** The kubelet's error line for the sync, after its caller (none when absent). */
    errorLog?: string;
    /** ms from now to the retry the sync asks for (none: undefined). */
    retryIn?: number;
  }
  const cases: Case[] = [
    {
      name: 'creates the sandbox, pulls the image, creates and starts the container: Running and ready',
      pod: web(),
      changes: ['RunPodSandbox default/web', 'PullImage busybox:1.36', 'CreateContainer app', 'StartContainer app'],
      status: 'Running app=running ready',
      events: [
        'Normal Pulling Pulling image "busybox:1.36"',
        'Normal Pulled Successfully pulled image "busybox:1.36" in 0s (0s including waiting). Image size: 1000 bytes.',
        'Normal Created Created container: app',
        'Normal Started Started container app',
      ],
    },
    {
      name: 'does not pull an image the node already has (IfNotPresent)',
      pod: web(),
      given: (t) => t.runtime.addImage('busybox:1.36'),
      changes: ['RunPodSandbox default/web', 'CreateContainer app', 'StartContainer app'],
      status: 'Running app=running ready',
    },
    {
      name: 'starts every container of the pod in spec order',
      pod: web({
        containers: [
          { name: 'app', image: 'busybox:1.36' },
          { name: 'sidecar', image: 'busybox:1.36' },
        ],
      }),
      given: (t) => t.runtime.addImage('busybox:1.36'),
      changes: ['RunPodSandbox default/web', 'CreateContainer app', 'StartContainer app', 'CreateContainer sidecar', 'StartContainer sidecar'],
      status: 'Running app=running ready sidecar=running ready',
    },
    {
      name: 'starts the first init container only; the pod stays Pending',
      pod: web({ initContainers: [{ name: 'init', image: 'busybox:1.36' }] }),
      given: (t) => t.runtime.addImage('busybox:1.36'),
      changes: ['RunPodSandbox default/web', 'CreateContainer init', 'StartContainer init'],
      status: 'Pending init:init=running app=waiting:PodInitializing',
    },
    {
      name: 'a failed StartContainer leaves the container waiting with RunContainerError, retried in 10 s',
      pod: web(),
      given: (t) => {
        t.runtime.addImage('busybox:1.36');
        t.runtime.failNext('StartContainer', new CriClientError('Unknown', 'failed to start: exec: "nope": not found'));
      },
      changes: ['RunPodSandbox default/web', 'CreateContainer app', 'StartContainer app'],
      status: 'Pending app=waiting:RunContainerError',
      events: ['Normal Pulled Container image "busybox:1.36" already present on machine', 'Normal Created Created container: app', 'Warning Failed Error: failed to start: exec: "nope": not found'],
      errorLog: '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"app\\" with RunContainerError: \\"failed to start: exec: \\\\\\"nope\\\\\\": not found\\""',
      retryIn: 10_000,
    },
    {
      name: 'a failed RunPodSandbox is FailedCreatePodSandBox, nothing else runs, retried in 10 s',
      pod: web(),
      given: (t) => t.runtime.failNext('RunPodSandbox', new CriClientError('Unknown', 'no IP left')),
      changes: ['RunPodSandbox default/web'],
      status: 'Pending app=waiting:ContainerCreating',
      events: ['Warning FailedCreatePodSandBox Failed to create pod sandbox: rpc error: code = Unknown desc = no IP left'],
      retryIn: 10_000,
    },
    {
      name: 'while the runtime network is not ready nothing starts (NetworkNotReady), retried in 2 s',
      pod: web(),
      given: async (t) => {
        t.runtime.conditions = t.runtime.conditions.map((c) => (c.type === 'NetworkReady' ? { ...c, status: false, reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' } : c));
        await t.kubelet.nodeStatus.runtimeUp();
      },
      changes: [],
      status: 'Pending app=waiting:ContainerCreating',
      events: ['Warning NetworkNotReady network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni config uninitialized'],
      retryIn: 2_000,
    },
    {
      name: 'a host-network pod starts although the runtime network is not ready',
      pod: web({ hostNetwork: true }),
      given: async (t) => {
        t.runtime.addImage('busybox:1.36');
        t.runtime.conditions = t.runtime.conditions.map((c) => (c.type === 'NetworkReady' ? { ...c, status: false } : c));
        await t.kubelet.nodeStatus.runtimeUp();
      },
      changes: ['RunPodSandbox default/web', 'CreateContainer app', 'StartContainer app'],
      status: 'Running app=running ready',
    },
    {
      name: 'a pod whose termination was requested starts nothing',
      pod: web(),
      given: (t, uid) => t.workers.update(uid, { terminate: true }),
      changes: [],
      status: 'Pending app=waiting:ContainerCreating',
    },
    {
      name: 'a pod past its active deadline fails with DeadlineExceeded and starts nothing',
      pod: web({ activeDeadlineSeconds: 30 }, { phase: 'Pending', startTime: formatTime(T0 - 60_000) }),
      changes: [],
      status: 'Failed/DeadlineExceeded app=waiting:ContainerCreating',
      events: ['Normal DeadlineExceeded Pod was active on the node longer than the specified deadline'],
    },
  ];

  it.each(cases)('$name', async (c) => {
    const t = newTestKubelet();
    const uid = t.addApiPod(c.pod).metadata.uid!;
    await c.given?.(t, uid);
    const r = await t.kubelet.syncPod(uid);
    expect(t.runtime.changes()).toEqual(c.changes);
    expect(statusLine(await t.writtenStatus('default', 'web'))).toBe(c.status);
    if (c.events) expect(t.recorder.events).toEqual(c.events);
    // klog's text: the message, then err, pod and podUID quoted.
    if (c.errorLog) expect(t.errorLogs.map((l) => l.slice(l.indexOf('] ') + 2))).toEqual([`${c.errorLog} pod="default/web" podUID="${uid}"`]);
    else expect(t.errorLogs).toEqual([]);
    expect(r ? r.retryAt! - t.clock.now() : undefined).toBe(c.retryIn);
  });
});

describe('syncPod of a running pod', () => {
  /** The app container's process ends with exitCode and the PLEG sees it. */
  const exits = (exitCode: number) => async (t: TestKubelet) => {
    t.runtime.exitContainer('app', exitCode);
    await t.relist();
  };

  interface Case {
    name: string;
    pod?: Pod;
    /** What happens between the first sync and this one. */
    change: (t: TestKubelet, uid: string, pod: Pod) => unknown;
    changes: string[];
    status: string;
    events?: string[];
  }
  const cases: Case[] = [
    {
      name: 'nothing changed: no runtime change, the status stays Running',
      change: () => {},
      changes: [],
      status: 'Running app=running ready',
    },
    {
      name: 'a container that exited under restartPolicy Always starts again at once (no back-off before the first restart)',
      change: exits(1),
      changes: ['CreateContainer app', 'StartContainer app'],
      status: 'Running app=running ready #1',
    },
    {
      name: 'a container that exited 0 under restartPolicy Never: the pod Succeeded and its sandbox stops',
      pod: web({ restartPolicy: 'Never' }),
      change: exits(0),
      changes: ['StopPodSandbox default/web'],
      status: 'Succeeded app=terminated:Completed(0)',
    },
    {
      name: 'a container that failed under restartPolicy OnFailure starts again',
      pod: web({ restartPolicy: 'OnFailure' }),
      change: exits(2),
      changes: ['CreateContainer app', 'StartContainer app'],
      status: 'Running app=running ready #1',
    },
    {
      name: 'a changed container spec kills the container and starts the new one',
      change: (t, _uid, pod) => t.kubelet.onApiPod({ ...pod, spec: { ...pod.spec!, containers: [{ name: 'app', image: 'busybox:1.37' }] } }),
      changes: ['StopContainer app', 'PullImage busybox:1.37', 'CreateContainer app', 'StartContainer app'],
      status: 'Running app=running ready #1',
      events: [
        'Normal Killing Container app definition changed, will be restarted',
        'Normal Pulling Pulling image "busybox:1.37"',
        'Normal Pulled Successfully pulled image "busybox:1.37" in 0s (0s including waiting). Image size: 1000 bytes.',
        'Normal Created Created container: app',
        'Normal Started Started container app',
      ],
    },
  ];

  it.each(cases)('$name', async (c) => {
    const { t, uid } = await running(c.pod ?? web());
    const pod = t.kubelet.podManager.get(uid)!.pod;
    await c.change(t, uid, pod);
    await t.kubelet.syncPod(uid);
    expect(t.runtime.changes()).toEqual(c.changes);
    expect(statusLine(await t.writtenStatus('default', 'web'))).toBe(c.status);
    if (c.events) expect(t.recorder.events).toEqual(c.events);
  });
});

describe('syncTerminatingPod: a pod deleted in the API', () => {
  const deleting = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, deletionTimestamp: formatTime(T0), deletionGracePeriodSeconds: 30 } });

  it.each([
    {
      name: 'a running pod is stopped, its containers and sandbox removed (the sandbox stopped again first, as RemovePod does), its final status written and its deletion confirmed',
      start: true,
      changes: ['StopContainer app', 'StopPodSandbox default/web', 'RemoveContainer app', 'StopPodSandbox default/web', 'RemovePodSandbox default/web'],
      // Killed containers of a terminal pod: Failed (upstream getPhase with podIsTerminal).
      status: 'Failed app=terminated:Error(137)',
    },
    {
      name: 'a pod that never started only reports and confirms its deletion',
      start: false,
      changes: [],
      status: 'Pending app=waiting:ContainerCreating',
    },
  ])('$name', async (c) => {
    const { t, uid } = c.start ? await running(web()) : { t: newTestKubelet(), uid: '' };
    const pod = c.start ? t.kubelet.podManager.get(uid)!.pod : t.addApiPod(web());
    const podUid = pod.metadata.uid!;
    t.kubelet.onApiPod(deleting(pod));
    expect(t.workers.updates.at(-1)).toBe(`${podUid} terminate`);
    await t.kubelet.syncPod(podUid);
    expect(t.runtime.changes()).toEqual(c.changes);
    await t.kubelet.statusManager.whenIdle();
    // The last status write comes before the final delete (gracePeriodSeconds 0, UID precondition).
    const actions = t.api.actionLines().filter((a) => a.startsWith('patch') || a.startsWith('delete'));
    expect(actions.at(-1)).toBe('delete pods default/web');
    expect(t.api.peek({ group: '', version: 'v1', resource: 'pods' }, 'default', 'web')).toBeUndefined();
    // The status the writes left: each a strategic merge patch of pods/status (upstream PatchPodStatus).
    const patches = t.api.actions.filter((a) => a.verb === 'patch' && a.subresource === 'status');
    const written = patches.reduce<Pod>((p, a) => applyPatch('application/strategic-merge-patch+json', p, a.patch) as Pod, pod);
    expect(patches.length).toBeGreaterThan(0);
    expect(statusLine(written.status)).toBe(c.status);
  });
});

describe('syncRemovedPod: a pod gone from every source', () => {
  it.each([
    {
      name: 'what the runtime still runs is stopped and removed, the pod forgotten',
      sourcesReady: true,
      changes: ['StopContainer app', 'StopPodSandbox default/web', 'RemoveContainer app', 'StopPodSandbox default/web', 'RemovePodSandbox default/web'],
      forgotten: true,
    },
    {
      name: 'before every source delivered its first set nothing is killed (it may just not have arrived yet)',
      sourcesReady: false,
      changes: [],
      forgotten: false,
    },
  ])('$name', async (c) => {
    const t = newTestKubelet({ sourcesReady: c.sourcesReady });
    t.runtime.addImage('busybox:1.36');
    const pod = t.addApiPod(web());
    const uid = pod.metadata.uid!;
    // An unready kubelet still runs the pods it has (as after a restart, before the informer synced).
    await t.kubelet.syncPod(uid);
    t.runtime.calls.length = 0;
    t.kubelet.onApiPodDeleted(pod);
    await t.kubelet.syncPod(uid);
    expect(t.runtime.changes()).toEqual(c.changes);
    expect(t.workers.forgotten.includes(uid)).toBe(c.forgotten);
    expect(t.kubelet.syncStateOf(uid) === undefined).toBe(c.forgotten);
  });

  it('a static pod removed before it ever ran leaves no sync state behind (its first-seen time used to stay)', async () => {
    const t = newTestKubelet();
    const p = staticPodFromManifest({ metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } }, '/etc/kubernetes/manifests/web.yaml', TEST_NODE, SEEN);
    const uid = p.metadata.uid!;
    t.kubelet.onStaticPods([p]);
    expect(t.kubelet.syncStateOf(uid)?.firstSeenAt).toBe(T0);
    t.kubelet.onStaticPods([]);
    await t.kubelet.syncPod(uid);
    expect(t.kubelet.syncStateOf(uid)).toBeUndefined();
  });
});

describe('syncPod of a static pod', () => {
  it.each([
    { name: 'with the Node registered: creates its mirror pod and writes the status there', node: true, mirrors: ['web-node-1'], status: 'Running app=running ready' },
    { name: 'before the Node exists: runs it, keeps its status for the mirror pod to come', node: false, mirrors: [], status: 'none' },
  ])('$name', async (c) => {
    const t = newTestKubelet();
    t.runtime.addImage('busybox:1.36');
    if (c.node) t.addNode();
    const p = staticPodFromManifest({ metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } }, '/etc/kubernetes/manifests/web.yaml', TEST_NODE, SEEN);
    t.kubelet.onStaticPods([p]);
    await t.kubelet.syncPod(p.metadata.uid!);
    expect(t.runtime.changes()).toEqual(['RunPodSandbox default/web-node-1', 'CreateContainer app', 'StartContainer app']);
    await t.kubelet.statusManager.whenIdle();
    const pods = t.api.objects<Pod>({ group: '', version: 'v1', resource: 'pods' }, 'default');
    expect(pods.map((m) => m.metadata.name)).toEqual(c.mirrors);
    expect(statusLine(pods[0]?.status)).toBe(c.status);
    expect(statusLine(t.kubelet.runningPods()[0]?.status)).toBe('Running app=running ready');
  });
});
