import type { ControllerRevision, Pod, StatefulSet } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { chooseUpdateRevision, hashRevisionData, newControllerRevision, revisionData, revisionsToDelete } from '../../util/history.js';
import { claimsFor, newStatefulSetPod, ordinalOf, planStatefulSet, statefulSetStatus } from './decisions.js';
import { PVC_GVR, StatefulSetController } from './statefulset-controller.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const REF = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'sts-uid', controller: true, blockOwnerDeletion: true };

function sts(
  o: { replicas?: number; policy?: 'OrderedReady' | 'Parallel'; partition?: number; onDelete?: boolean; image?: string; claims?: boolean; status?: StatefulSet['status'] } = {},
): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'sts-uid', generation: 1 },
    spec: {
      replicas: o.replicas ?? 3,
      serviceName: 'nginx',
      podManagementPolicy: o.policy ?? 'OrderedReady',
      updateStrategy: o.onDelete ? { type: 'OnDelete' } : { type: 'RollingUpdate', rollingUpdate: { partition: o.partition ?? 0 } },
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: o.image ?? 'nginx:1.27' }] } },
      ...(o.claims
        ? {
            volumeClaimTemplates: [{ metadata: { name: 'www', labels: { tier: 'data' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
            persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
          }
        : {}),
    },
    ...(o.status ? { status: o.status } : {}),
  };
}

function revisionOf(set: StatefulSet, n = 1): ControllerRevision {
  const data = revisionData(set.spec?.template);
  const rev = newControllerRevision(set, REF, set.spec?.template?.metadata?.labels, data, n, hashRevisionData(data, 0));
  rev.metadata.uid = `rev-${n}`;
  return rev;
}

/** A pod of the set at an ordinal, Running and Ready (or as given). */
function pod(set: StatefulSet, ord: number, o: { ready?: boolean; phase?: 'Pending' | 'Running' | 'Failed'; rev?: string; deleting?: boolean } = {}): Pod {
  const p = newStatefulSetPod(set, set.spec!.template, o.rev ?? revisionOf(set).metadata.name!, ord, REF);
  p.metadata.uid = `pod-${ord}`;
  if (o.deleting) p.metadata.deletionTimestamp = '2026-01-01T00:09:00Z';
  p.status = {
    phase: o.phase ?? 'Running',
    conditions: [{ type: 'Ready', status: (o.ready ?? true) ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  };
  return p;
}
const names = (ps: Pod[]) => ps.map((p) => p.metadata.name);

describe('stateful pod identity', () => {
  it('names the pod <set>-<ordinal>, sets hostname and subdomain, labels its name, index and revision', () => {
    const p = newStatefulSetPod(sts(), sts().spec!.template, 'web-abc', 2, REF);
    expect(p.metadata.name).toBe('web-2');
    expect(p.spec).toMatchObject({ hostname: 'web-2', subdomain: 'nginx' });
    expect(p.metadata.labels).toEqual({ app: 'nginx', 'statefulset.kubernetes.io/pod-name': 'web-2', 'apps.kubernetes.io/pod-index': '2', 'controller-revision-hash': 'web-abc' });
    expect(ordinalOf(sts(), p)).toBe(2);
    expect(ordinalOf(sts(), { metadata: { name: 'webby-2' } })).toBe(-1);
  });

  it('mounts a claim per template named <template>-<set>-<ordinal>, labelled with the selector; whenDeleted=Delete owns it by the set', () => {
    const set = sts({ claims: true });
    expect(newStatefulSetPod(set, set.spec!.template, 'r', 0, REF).spec?.volumes).toEqual([{ name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } }]);
    expect(claimsFor(set, 0, REF)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'www-web-0', namespace: 'default', labels: { tier: 'data', app: 'nginx' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'sts-uid' }] },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ]);
  });
});

describe('one sync plan', () => {
  const rev = revisionOf(sts()).metadata.name!;
  it.each<[string, StatefulSet, (set: StatefulSet) => Pod[], number[], string[]]>([
    ['OrderedReady creates only the first missing ordinal', sts(), () => [], [0], []],
    ['OrderedReady waits for web-0 to be Running and Ready', sts(), (s) => [pod(s, 0, { ready: false })], [], []],
    ['OrderedReady creates web-1 once web-0 is ready', sts(), (s) => [pod(s, 0)], [1], []],
    ['Parallel creates every missing ordinal at once', sts({ policy: 'Parallel' }), (s) => [pod(s, 1, { ready: false })], [0, 2], []],
    ['a failed pod is deleted, to be recreated', sts(), (s) => [pod(s, 0, { phase: 'Failed' })], [], ['web-0']],
    ['scale down removes the highest ordinal first, one at a time', sts({ replicas: 1 }), (s) => [0, 1, 2].map((i) => pod(s, i)), [], ['web-2']],
    ['scale down waits for a terminating pod', sts({ replicas: 1 }), (s) => [pod(s, 0), pod(s, 1), pod(s, 2, { deleting: true })], [], []],
    ['Parallel scale down removes all condemned at once', sts({ replicas: 1, policy: 'Parallel' }), (s) => [0, 1, 2].map((i) => pod(s, i)), [], ['web-2', 'web-1']],
    ['RollingUpdate replaces the highest ordinal not at the update revision', sts(), (s) => [0, 1, 2].map((i) => pod(s, i, { rev: 'web-old' })), [], ['web-2']],
    ['RollingUpdate waits for the replaced pod to be healthy', sts(), (s) => [pod(s, 0, { rev: 'web-old' }), pod(s, 1, { rev: 'web-old' }), pod(s, 2, { rev, ready: false })], [], []],
    ['RollingUpdate goes down to the partition only', sts({ partition: 2 }), (s) => [pod(s, 0, { rev: 'web-old' }), pod(s, 1, { rev: 'web-old' }), pod(s, 2)], [], []],
    ['OnDelete leaves old pods alone', sts({ onDelete: true }), (s) => [0, 1, 2].map((i) => pod(s, i, { rev: 'web-old' })), [], []],
  ])('%s', (_n, set, pods, create, del) => {
    const plan = planStatefulSet(set, pods(set), rev, NOW);
    expect([plan.create, names(plan.delete)]).toEqual([create, del]);
  });

  it('status: counts, revisions, and the update revision becomes current once every pod has it and is ready', () => {
    const set = sts();
    const mixed = [pod(set, 0, { rev: 'web-old' }), pod(set, 1, { rev: 'web-old' }), pod(set, 2, { rev: 'web-new', ready: false })];
    expect(statefulSetStatus(set, mixed, [], [], { current: 'web-old', update: 'web-new' }, NOW)).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 1,
      currentRevision: 'web-old',
      updateRevision: 'web-new',
      collisionCount: 0,
      availableReplicas: 2,
    });
    const done = [0, 1, 2].map((i) => pod(set, i, { rev: 'web-new' }));
    expect(statefulSetStatus(set, done, [], [], { current: 'web-old', update: 'web-new' }, NOW)).toMatchObject({ currentReplicas: 3, updatedReplicas: 3, currentRevision: 'web-new' });
  });
});

describe('controller history', () => {
  const a = revisionOf(sts({ image: 'a' }), 1);
  const b = revisionOf(sts({ image: 'b' }), 2);
  it('reuses the latest equal revision, renumbers an older equal one (rollback), numbers a new one next', () => {
    expect(chooseUpdateRevision([a, b], revisionOf(sts({ image: 'b' }), 0))).toMatchObject({ create: false, renumber: false, update: { revision: 2 } });
    expect(chooseUpdateRevision([a, b], revisionOf(sts({ image: 'a' }), 0))).toMatchObject({ create: false, renumber: true, update: { revision: 3, metadata: { name: a.metadata.name } } });
    expect(chooseUpdateRevision([a, b], revisionOf(sts({ image: 'c' }), 0))).toMatchObject({ create: true, update: { revision: 3 } });
  });
  it('keeps revisionHistoryLimit revisions besides the live ones, deleting the oldest', () => {
    const c = revisionOf(sts({ image: 'c' }), 3);
    expect(revisionsToDelete([c, a, b], new Set([c.metadata.name!]), 1).map((r) => r.revision)).toEqual([1]);
    expect(revisionsToDelete([c, a, b], new Set([c.metadata.name!]), 0).map((r) => r.revision)).toEqual([1, 2]);
  });
});

describe('StatefulSet sync (fake clientset)', () => {
  it('first sync: the revision, claim www-web-0, pod web-0 only (OrderedReady), status and events', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.statefulSets, sts({ claims: true }));
    const c = new StatefulSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual([
      'create controllerrevisions default',
      'get persistentvolumeclaims default/www-web-0',
      'create persistentvolumeclaims default',
      'create pods default',
      'update statefulsets/status default/web',
    ]);
    const [rev] = env.fake.objects<ControllerRevision>(GVR.controllerRevisions);
    expect(rev).toMatchObject({ revision: 1, metadata: { labels: { app: 'nginx', 'controller-revision-hash': expect.any(String) as string }, ownerReferences: [REF] } });
    const web0 = env.fake.peek<Pod>(GVR.pods, 'default', 'web-0');
    expect(web0?.metadata.labels?.['controller-revision-hash']).toBe(rev?.metadata.name);
    expect(env.fake.peek(PVC_GVR, 'default', 'www-web-0')).toBeDefined();
    expect(env.recorder.events).toEqual([
      'Normal SuccessfulCreate create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'Normal SuccessfulCreate create Pod web-0 in StatefulSet web successful',
    ]);
    expect(env.fake.peek<StatefulSet>(GVR.statefulSets, 'default', 'web')?.status).toEqual({
      observedGeneration: 1,
      replicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      currentRevision: rev?.metadata.name,
      updateRevision: rev?.metadata.name,
      collisionCount: 0,
      availableReplicas: 0,
    });
    await env.stop();
  });

  it('a set in its desired state: the sync writes nothing (the stored status in another key order is the same status)', async () => {
    const env = fakeEnv();
    const set = sts();
    const rev0 = revisionOf(set);
    const name = rev0.metadata.name!;
    set.status = { availableReplicas: 3, collisionCount: 0, currentReplicas: 3, currentRevision: name, observedGeneration: 1, readyReplicas: 3, replicas: 3, updateRevision: name, updatedReplicas: 3 };
    env.fake.seed(GVR.statefulSets, set);
    env.fake.seed(GVR.controllerRevisions, rev0);
    env.fake.seed(GVR.pods, pod(set, 0), pod(set, 1), pod(set, 2));
    const c = new StatefulSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });

  it('adopts an orphaned revision and an orphaned web-0 (selector and name match), leaves a matching pod of another name alone', async () => {
    const env = fakeEnv();
    const set = sts({ replicas: 1 });
    const rev0 = revisionOf(set);
    delete rev0.metadata.ownerReferences;
    const web0 = pod(set, 0, { rev: rev0.metadata.name! });
    delete web0.metadata.ownerReferences;
    const stray = pod(set, 0);
    stray.metadata.name = 'db-0';
    stray.metadata.uid = 'stray';
    delete stray.metadata.ownerReferences;
    env.fake.seed(GVR.statefulSets, set);
    env.fake.seed(GVR.controllerRevisions, rev0);
    env.fake.seed(GVR.pods, web0, stray);
    const c = new StatefulSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    // One live re-read of the set per claim, the two adoptions; web-0 exists, so nothing is created.
    expect(env.fake.actionLines()).toEqual([
      'get statefulsets default/web',
      'patch controllerrevisions default/' + rev0.metadata.name,
      'get statefulsets default/web',
      'patch pods default/web-0',
      'update statefulsets/status default/web',
    ]);
    expect(env.fake.peek<ControllerRevision>(GVR.controllerRevisions, 'default', rev0.metadata.name!)?.metadata.ownerReferences).toEqual([REF]);
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'web-0')?.metadata.ownerReferences).toEqual([REF]);
    expect(env.fake.peek<Pod>(GVR.pods, 'default', 'db-0')?.metadata.ownerReferences).toBeUndefined();
    expect(env.fake.peek<StatefulSet>(GVR.statefulSets, 'default', 'web')?.status).toMatchObject({ replicas: 1, readyReplicas: 1 });
    await env.stop();
  });

  it('scale down with whenScaled=Delete: the condemned pod owns its claim before it is deleted', async () => {
    const env = fakeEnv();
    const set = sts({ replicas: 1, claims: true });
    set.spec!.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Retain', whenScaled: 'Delete' };
    const rev0 = revisionOf(set);
    set.status = { replicas: 2, currentRevision: rev0.metadata.name, updateRevision: rev0.metadata.name };
    env.fake.seed(GVR.statefulSets, set);
    env.fake.seed(GVR.controllerRevisions, rev0);
    env.fake.seed(GVR.pods, pod(set, 0), pod(set, 1));
    env.fake.seed(PVC_GVR, ...claimsFor(set, 0, REF), ...claimsFor(set, 1, REF));
    const c = new StatefulSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual([
      'get persistentvolumeclaims default/www-web-1',
      'update persistentvolumeclaims default/www-web-1',
      'delete pods default/web-1',
      'update statefulsets/status default/web',
    ]);
    expect(env.fake.peek(PVC_GVR, 'default', 'www-web-1')?.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'pod-1' }]);
    expect(env.fake.peek(PVC_GVR, 'default', 'www-web-0')?.metadata.ownerReferences).toBeUndefined();
    await env.stop();
  });

  it('a changed template: a second revision, and the highest ordinal is deleted first', async () => {
    const env = fakeEnv();
    const old = sts();
    const oldRev = revisionOf(old);
    const set = sts({
      image: 'nginx:1.28',
      status: { replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: oldRev.metadata.name, updateRevision: oldRev.metadata.name },
    });
    env.fake.seed(GVR.statefulSets, set);
    env.fake.seed(GVR.controllerRevisions, oldRev);
    env.fake.seed(GVR.pods, ...[0, 1, 2].map((i) => pod(old, i)));
    const c = new StatefulSetController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual(['create controllerrevisions default', 'delete pods default/web-2', 'update statefulsets/status default/web']);
    expect(
      env.fake
        .objects<ControllerRevision>(GVR.controllerRevisions)
        .map((r) => r.revision)
        .sort(),
    ).toEqual([1, 2]);
    expect(env.recorder.events).toEqual(['Normal SuccessfulDelete delete Pod web-2 in StatefulSet web successful']);
    const status = env.fake.peek<StatefulSet>(GVR.statefulSets, 'default', 'web')?.status;
    expect(status).toMatchObject({ replicas: 3, readyReplicas: 3, currentRevision: oldRev.metadata.name, currentReplicas: 2 });
    expect(status?.updateRevision).not.toBe(oldRev.metadata.name);
    expect(status).not.toHaveProperty('updatedReplicas');
    await env.stop();
  });
});
