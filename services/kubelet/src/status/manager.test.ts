import { applyPatch, forbidden, notFound, type Pod, type PodStatus } from '@kubelab/api';
import { createLogger } from '@kubelab/component-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatusManager, mergePodConditions, needsReconcile, podStatusPatch } from './manager.js';

const T = '2026-01-01T00:00:00Z';
const kubeletStatus = (ready: 'True' | 'False'): PodStatus => ({
  phase: 'Running',
  conditions: [
    { type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: T },
    { type: 'Initialized', status: 'True', lastTransitionTime: T },
    { type: 'Ready', status: ready, lastTransitionTime: T },
    { type: 'ContainersReady', status: ready, lastTransitionTime: T },
    { type: 'PodScheduled', status: 'True', lastTransitionTime: T },
  ],
  hostIP: '10.0.0.2',
  podIP: '10.244.1.5',
  startTime: T,
  containerStatuses: [{ name: 'app', ready: ready === 'True', restartCount: 0, image: 'busybox:1.36', imageID: '', containerID: 'containerd://abc', state: { running: { startedAt: T } } }],
});

/** What the node-lifecycle controller's MarkPodsNotReady leaves: Ready=False, the rest untouched. */
const markedNotReady = (s: PodStatus): PodStatus => ({
  ...s,
  conditions: s.conditions!.map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: '2026-01-01T00:01:00Z' } : c)),
});

describe('needsReconcile (upstream isPodStatusByKubeletEqual)', () => {
  it('is false for the status as written, whatever the key order or null fields on the wire', () => {
    const s = kubeletStatus('True');
    const wire = JSON.parse(
      JSON.stringify({ containerStatuses: s.containerStatuses, startTime: s.startTime, podIP: s.podIP, hostIP: s.hostIP, conditions: [...s.conditions!].reverse(), phase: s.phase, message: null }),
    );
    expect(needsReconcile(wire, s)).toBe(false);
  });

  it('is true when another writer changed a kubelet-owned condition (MarkPodsNotReady)', () => {
    const s = kubeletStatus('True');
    expect(needsReconcile(markedNotReady(s), s)).toBe(true);
  });

  it('ignores conditions and fields only others write (DisruptionTarget, nominatedNodeName)', () => {
    const s = kubeletStatus('True');
    const api: PodStatus = { ...s, nominatedNodeName: 'node-2', conditions: [...s.conditions!, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }] };
    expect(needsReconcile(api, s)).toBe(false);
  });

  it('is true when a field the kubelet writes is gone or different', () => {
    const s = kubeletStatus('True');
    expect(needsReconcile({ ...s, podIP: undefined }, s)).toBe(true);
    expect(needsReconcile(undefined, s)).toBe(true);
  });
});

describe('StatusManager.syncBatch', () => {
  function setup() {
    let api: Pod = { metadata: { name: 'keeper', namespace: 'default', uid: 'u1', resourceVersion: '10' }, spec: { containers: [] }, status: {} };
    const writes: PodStatus[] = [];
    const sm = new StatusManager(
      {
        get: async () => api,
        patchStatus: async (p, status) => {
          writes.push(status);
          api = { ...p, status, metadata: { ...p.metadata, resourceVersion: String(Number(api.metadata.resourceVersion) + 1) } };
          return api;
        },
        deleteNow: async () => {},
      },
      createLogger({ component: 'test', level: 'error' }),
      () => api,
    );
    return { sm, writes, api: () => api, setApi: (p: Pod) => (api = p) };
  }

  it('re-posts the cached status once the API shows Ready=False written by someone else, and only then', async () => {
    const { sm, writes, api, setApi } = setup();
    sm.setPodStatus('u1', { namespace: 'default', name: 'keeper', uid: 'u1' }, kubeletStatus('True'));
    await sm.whenIdle();
    expect(writes).toHaveLength(1);
    expect(sm.syncBatch()).toEqual([]);

    // The node-lifecycle controller marks the pod not ready through pods/status.
    setApi({ ...api(), metadata: { ...api().metadata, resourceVersion: '20' }, status: markedNotReady(api().status!) });
    expect(sm.syncBatch()).toEqual(['u1']);
    await sm.whenIdle();
    expect(writes).toHaveLength(2);
    expect(writes[1]!.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');
    expect(sm.syncBatch()).toEqual([]);
  });

  it('leaves a lagging informer copy (older than our own write) alone', async () => {
    const { sm, writes, api, setApi } = setup();
    const before = api();
    sm.setPodStatus('u1', { namespace: 'default', name: 'keeper', uid: 'u1' }, kubeletStatus('True'));
    await sm.whenIdle();
    setApi(before); // the cache has not seen our write yet
    expect(sm.syncBatch()).toEqual([]);
    expect(writes).toHaveLength(1);
  });
});

describe('StatusManager: a pod gone from the API', () => {
  afterEach(() => void vi.useRealTimers());

  /** A status manager whose informer no longer has the pod, and whose GET answers with `err`. */
  function gone(err: Error) {
    const calls = { get: 0, update: 0 };
    const sm = new StatusManager(
      {
        get: async () => {
          calls.get++;
          throw err;
        },
        patchStatus: async (p) => {
          calls.update++;
          return p;
        },
        deleteNow: async () => {},
      },
      createLogger({ component: 'test', level: 'error' }),
      () => undefined,
    );
    return { sm, calls };
  }

  it('retries a refused write until housekeeping finds the pod orphaned (upstream RemoveOrphanedStatuses), then never again', async () => {
    vi.useFakeTimers();
    // What the Node authorizer answers for a pod no longer bound to the node.
    const { sm, calls } = gone(forbidden({ group: '', resource: 'pods' }, 'web-1', "no relationship found between node 'node-1' and this object"));
    sm.setPodStatus('u1', { namespace: 'default', name: 'web-1', uid: 'u1' }, kubeletStatus('False'));
    await vi.advanceTimersByTimeAsync(2_500);
    expect(calls.get).toBe(3); // at once, then once a second
    sm.removeOrphanedStatuses(new Set(['another-pod']));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual({ get: 3, update: 0 });
    expect(sm.getPodStatus('u1')).toBeUndefined();
    expect(sm.syncBatch()).toEqual([]);
  });

  it('keeps the statuses of pods the kubelet still knows', () => {
    const { sm } = gone(new Error('unused'));
    sm.setPodStatus('u1', { namespace: 'default', name: 'web-1', uid: 'u1' }, kubeletStatus('True'));
    sm.removeOrphanedStatuses(new Set(['u1']));
    expect(sm.getPodStatus('u1')?.phase).toBe('Running');
  });

  it('does not retry a pod the server does not have (NotFound on the GET, as upstream syncPod)', async () => {
    vi.useFakeTimers();
    const { sm, calls } = gone(notFound({ group: '', resource: 'pods' }, 'web-1'));
    sm.setPodStatus('u1', { namespace: 'default', name: 'web-1', uid: 'u1' }, kubeletStatus('False'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toEqual({ get: 1, update: 0 });
  });
});

describe('podStatusPatch (upstream statusutil.PatchPodStatus)', () => {
  const running = (ready: 'True' | 'False'): PodStatus => ({
    phase: 'Running',
    podIP: '10.244.1.5',
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: ready },
    ],
    containerStatuses: [{ name: 'app', ready: ready === 'True', restartCount: 0, image: 'busybox', imageID: 'sha256:1', state: { running: { startedAt: '2026-12-07T10:00:00Z' } } }],
  });

  it('carries what changed and the UID as a precondition, which the server applies as the new status', () => {
    const patch = podStatusPatch('u1', running('False'), running('True'));
    expect(patch).toEqual({
      metadata: { uid: 'u1' },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        '$setElementOrder/conditions': [{ type: 'Initialized' }, { type: 'Ready' }],
        // containerStatuses has no merge key upstream: the list goes whole.
        containerStatuses: running('True').containerStatuses,
      },
    });
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec: { containers: [] }, status: running('False') };
    expect((applyPatch('application/strategic-merge-patch+json', pod, patch) as Pod).status).toEqual(running('True'));
  });

  it('is the UID alone when nothing changed, and the whole status for a pod that had none', () => {
    expect(podStatusPatch('u1', running('True'), running('True'))).toEqual({ metadata: { uid: 'u1' } });
    expect(podStatusPatch('u1', undefined, { phase: 'Pending' })).toEqual({ metadata: { uid: 'u1' }, status: { phase: 'Pending' } });
  });
});

describe('StatusManager: a copy older than the server', () => {
  it("reads the pod afresh and patches again when the server still differs (its copy missed someone else's write)", async () => {
    let server: Pod = { metadata: { name: 'keeper', namespace: 'default', uid: 'u1', resourceVersion: '10' }, spec: { containers: [] }, status: markedNotReady(kubeletStatus('True')) };
    // The informer has not seen the node lifecycle controller's Ready=False yet.
    const informer: Pod = { ...server, status: kubeletStatus('True') };
    let gets = 0;
    const sm = new StatusManager(
      {
        get: async () => (gets++, server),
        patchStatus: async (p, status) => {
          const next = applyPatch('application/strategic-merge-patch+json', server, podStatusPatch(p.metadata.uid!, p.status, status), 'Pod') as Pod;
          server = { ...next, metadata: { ...next.metadata, resourceVersion: String(Number(server.metadata.resourceVersion) + 1) } };
          return server;
        },
        deleteNow: async () => {},
      },
      createLogger({ component: 'test', level: 'error' }),
      () => informer,
    );
    sm.setPodStatus('u1', { namespace: 'default', name: 'keeper', uid: 'u1' }, kubeletStatus('True'));
    await sm.whenIdle();
    expect(gets).toBe(1);
    expect(server.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('keeps conditions other writers own (upstream mergePodStatus): the patch never deletes them', () => {
    const old: PodStatus = { ...kubeletStatus('True'), conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }, ...kubeletStatus('True').conditions!] };
    const patch = podStatusPatch('u1', old, kubeletStatus('True'));
    expect(JSON.stringify(patch)).not.toContain('delete');
    expect(mergePodConditions(old.conditions, kubeletStatus('False').conditions).map((c) => `${c.type}=${c.status}`)).toEqual([
      'DisruptionTarget=True',
      ...kubeletStatus('False').conditions!.map((c) => `${c.type}=${c.status}`),
    ]);
  });
});
