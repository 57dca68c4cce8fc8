import type { Pod, ReplicaSet } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { compareForDeletion, podsToDelete } from '../../util/active-pods.js';
import { ReplicaSetController } from './replicaset-controller.js';
import { calculateReplicaSetStatus, replicasDiff } from './status.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

function pod(
  name: string,
  o: {
    node?: string;
    phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never) : never;
    ready?: boolean;
    readySince?: string;
    restarts?: number;
    created?: string;
    labels?: Record<string, string>;
    owner?: string;
  } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: o.labels ?? { app: 'web' },
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: o.owner, controller: true, blockOwnerDeletion: true }] } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'x' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: o.readySince ?? '2026-01-01T00:00:00Z' }],
      containerStatuses: [{ name: 'c', ready: !!o.ready, restartCount: o.restarts ?? 0, image: 'x', imageID: '' }],
    },
  };
}

function rs(replicas: number, minReadySeconds = 0): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default', uid: 'rs-uid', generation: 2 },
    spec: { replicas, minReadySeconds, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    status: { replicas: 0 },
  };
}

describe('which pods a ReplicaSet deletes first (ActivePods ordering)', () => {
  const cases: Array<[string, Pod, Pod]> = [
    ['unassigned before assigned', pod('a'), pod('b', { node: 'n1' })],
    ['Pending before Running', pod('a', { node: 'n1', phase: 'Pending' }), pod('b', { node: 'n1' })],
    ['not ready before ready', pod('a', { node: 'n1' }), pod('b', { node: 'n1', ready: true })],
    ['ready for less time before longer', pod('a', { node: 'n1', ready: true, readySince: '2026-01-01T00:09:59Z' }), pod('b', { node: 'n1', ready: true, readySince: '2026-01-01T00:00:00Z' })],
    ['more restarts first', pod('a', { node: 'n1', restarts: 5 }), pod('b', { node: 'n1', restarts: 1 })],
    ['newer before older', pod('a', { node: 'n1', created: '2026-01-01T00:09:00Z' }), pod('b', { node: 'n1', created: '2026-01-01T00:00:00Z' })],
  ];
  it.each(cases)('%s', (_name, first, second) => {
    expect(compareForDeletion(first, second, 0, 0, NOW)).toBeLessThan(0);
    expect(compareForDeletion(second, first, 0, 0, NOW)).toBeGreaterThan(0);
  });

  it('deletes pods doubled up on a node before lone ones', () => {
    const pods = [pod('a', { node: 'n1', ready: true }), pod('b', { node: 'n2', ready: true }), pod('c', { node: 'n2', ready: true })];
    expect(podsToDelete(pods, pods, 1, NOW).map((p) => p.metadata.name)).toEqual(['b']);
  });
});

describe('ReplicaSet status', () => {
  it('counts replicas, fully labeled, ready, and available after minReadySeconds', () => {
    const pods = [pod('a', { ready: true, labels: { app: 'web', tier: 'fe' }, readySince: '2026-01-01T00:00:00Z' }), pod('b', { ready: true, readySince: '2026-01-01T00:09:55Z' }), pod('c')];
    expect(calculateReplicaSetStatus(rs(3, 30), pods, NOW)).toEqual({ replicas: 3, fullyLabeledReplicas: 1, readyReplicas: 2, availableReplicas: 1, observedGeneration: 2 });
  });
  it('stores zero counts as upstream does: replicas always, the omitempty ones not at all', () => {
    expect(calculateReplicaSetStatus(rs(0), [], NOW)).toEqual({ replicas: 0, observedGeneration: 2 });
    const notReady = [pod('a', { labels: { app: 'web' } })];
    expect(calculateReplicaSetStatus(rs(1), notReady, NOW)).toEqual({ replicas: 1, observedGeneration: 2 });
  });
  it('adds ReplicaFailure on a create error and drops it once fixed', () => {
    const s = calculateReplicaSetStatus(rs(1), [], NOW, { reason: 'FailedCreate', message: 'pods "web-" is forbidden: quota' });
    expect(s.conditions).toEqual([{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T00:10:00Z', reason: 'FailedCreate', message: 'pods "web-" is forbidden: quota' }]);
    expect(calculateReplicaSetStatus({ ...rs(1), status: s }, [], NOW).conditions).toBeUndefined();
  });
  it.each([
    [1, 3, 2],
    [5, 3, -2],
    [0, 900, 500],
    [3, 3, 0],
  ])('diff from %i active to %i desired is %i (burst 500)', (active, desired, want) => expect(replicasDiff(active, desired, 500)).toBe(want));
});

describe('ReplicaSet sync (fake clientset)', () => {
  it('creates the missing pods with a controller reference, adopts a matching orphan, and writes status once', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.replicaSets, rs(3));
    env.fake.seed(GVR.pods, pod('web-owned', { owner: 'rs-uid', ready: true }), pod('orphan', { ready: true }), pod('other', { labels: { app: 'db' } }));
    const c = new ReplicaSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual(['get replicasets default/web', 'patch pods default/orphan', 'create pods default', 'update replicasets/status default/web']);
    const created = env.fake.objects<Pod>(GVR.pods).find((p) => p.metadata.generateName === 'web-');
    expect(created?.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }]);
    expect(created?.metadata.labels).toEqual({ app: 'web', tier: 'fe' });
    expect(env.recorder.events).toEqual([`Normal SuccessfulCreate Created pod: ${created?.metadata.name}`]);
    expect(env.fake.peek<ReplicaSet>(GVR.replicaSets, 'default', 'web')?.status).toMatchObject({ replicas: 2, readyReplicas: 2, observedGeneration: 2 });
    // the create is not yet observed by the informer: a second sync must not create again
    env.fake.clearActions();
    c.expectations.expectCreations('default/web', 1);
    await c.sync('default/web');
    expect(env.fake.actionLines().filter((l) => l.startsWith('create'))).toEqual([]);
    await env.stop();
  });

  it('releases an owned pod whose labels no longer match and replaces it', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.replicaSets, rs(1));
    env.fake.seed(GVR.pods, pod('relabelled', { owner: 'rs-uid', ready: true, labels: { app: 'debug' } }));
    const c = new ReplicaSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual(['patch pods default/relabelled', 'create pods default', 'update replicasets/status default/web']);
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'relabelled')?.metadata.ownerReferences).toBeUndefined();
    await env.stop();
  });

  it('deletes the least useful pods when scaled down, with events', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.replicaSets, rs(1));
    env.fake.seed(GVR.pods, pod('ready', { owner: 'rs-uid', node: 'n1', ready: true }), pod('pending', { owner: 'rs-uid', phase: 'Pending' }), pod('notready', { owner: 'rs-uid', node: 'n1' }));
    const c = new ReplicaSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(
      env.fake
        .actionLines()
        .filter((l) => l.startsWith('delete'))
        .sort(),
    ).toEqual(['delete pods default/notready', 'delete pods default/pending']);
    expect(env.recorder.events.sort()).toEqual(['Normal SuccessfulDelete Deleted pod: notready', 'Normal SuccessfulDelete Deleted pod: pending']);
    await env.stop();
  });
});
