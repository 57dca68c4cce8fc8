import type { Deployment, Pod, PodDisruptionBudget, ReplicaSet } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { buildDisruptedPodMap, countHealthyPods, expectedPodCount, nextStatus, SyncError, type ScaleFinder } from './decisions.js';
import { DisruptionController } from './disruption-controller.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString().replace(/\.\d+Z$/, 'Z');

function pod(name: string, o: { ready?: boolean; owner?: { kind: string; name: string; uid: string }; deleting?: boolean } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { app: 'web' },
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', ...o.owner, controller: true }] } : {}),
      ...(o.deleting ? { deletionTimestamp: at(0) } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'x' }], nodeName: 'node-1' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}
const RS = { kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-uid' };

function pdb(spec: PodDisruptionBudget['spec'], status?: Partial<NonNullable<PodDisruptionBudget['status']>>): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web-pdb', namespace: 'default', uid: 'pdb-uid', generation: 1 },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...status },
  };
}
const scaleOf =
  (n: number): ScaleFinder =>
  (ref) =>
    ref.kind === 'ReplicaSet' ? { uid: 'deploy-uid', scale: n } : undefined;

describe('expected and desired pods (getExpectedPodCount)', () => {
  const three = [pod('a', { owner: RS }), pod('b', { owner: RS }), pod('c', { owner: RS })];
  it.each<[string, PodDisruptionBudget['spec'], number, { expectedCount: number; desiredHealthy: number }]>([
    ['minAvailable 2 counts the selected pods', { minAvailable: 2 }, 5, { expectedCount: 3, desiredHealthy: 2 }],
    ['minAvailable 50% of the scale, rounded up', { minAvailable: '50%' }, 5, { expectedCount: 5, desiredHealthy: 3 }],
    ['maxUnavailable 1 of the scale', { maxUnavailable: 1 }, 5, { expectedCount: 5, desiredHealthy: 4 }],
    ['maxUnavailable 30% rounds the unavailable up', { maxUnavailable: '30%' }, 5, { expectedCount: 5, desiredHealthy: 3 }],
    ['maxUnavailable above the scale needs nothing', { maxUnavailable: 9 }, 5, { expectedCount: 5, desiredHealthy: 0 }],
  ])('%s', (_n, spec, scale, want) => {
    expect(expectedPodCount(pdb(spec), three, scaleOf(scale))).toEqual({ ...want, unmanagedPods: [] });
  });

  it('unmanaged pods are left out of the scale and named', () => {
    expect(expectedPodCount(pdb({ maxUnavailable: 1 }), [pod('a', { owner: RS }), pod('lone')], scaleOf(2))).toEqual({ expectedCount: 2, desiredHealthy: 1, unmanagedPods: ['lone'] });
  });

  it('a controller without a scale fails the sync', () => {
    const ds = pod('d', { owner: { kind: 'DaemonSet', name: 'agent', uid: 'ds-uid' } });
    expect(() => expectedPodCount(pdb({ minAvailable: '50%' }), [ds], scaleOf(1))).toThrow(new SyncError('NoControllers', 'found no controllers for pod "d"'));
  });
});

describe('evictions awaited and healthy pods', () => {
  it('keeps the recent evictions of live pods, reports the stale ones, and does not count either as healthy', () => {
    const pods = [pod('a'), pod('b'), pod('c'), pod('gone', { deleting: true })];
    const b = pdb({ minAvailable: 1 }, { disruptedPods: { a: at(0), b: at(-150_000), gone: at(0) } });
    const m = buildDisruptedPodMap(pods, b, T0 + 30_000);
    expect(m.disruptedPods).toEqual({ a: at(0) });
    expect(m.recheckAt).toBe(T0 + 120_000);
    expect(m.notDeleted.map((p) => p.metadata.name)).toEqual(['b']);
    expect(countHealthyPods(pods, m.disruptedPods, T0 + 30_000)).toBe(2);
    expect(countHealthyPods([pod('x', { ready: false }), pod('y')], {}, T0)).toBe(1);
  });
});

describe('the status written (updatePdbStatus)', () => {
  it('allows healthy minus desired, with DisruptionAllowed True/SufficientPods', () => {
    expect(nextStatus(pdb({ minAvailable: 1 }), 3, 1, 3, {}, T0)).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 2,
      currentHealthy: 3,
      desiredHealthy: 1,
      expectedPods: 3,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', lastTransitionTime: at(0), observedGeneration: 1 }],
    });
  });
  it('allows nothing without expected pods or below the need, with InsufficientPods', () => {
    expect(nextStatus(pdb({ minAvailable: 0 }), 0, 0, 0, {}, T0)).toMatchObject({ disruptionsAllowed: 0, conditions: [{ status: 'False', reason: 'InsufficientPods' }] });
    expect(nextStatus(pdb({ minAvailable: 3 }), 2, 3, 3, {}, T0)?.disruptionsAllowed).toBe(0);
  });
  it('writes nothing when the stored status already says it', () => {
    const first = nextStatus(pdb({ minAvailable: 1 }), 3, 1, 3, {}, T0)!;
    expect(nextStatus({ ...pdb({ minAvailable: 1 }), status: first }, 3, 1, 3, {}, T0 + 5000)).toBeUndefined();
  });
});

describe('disruption controller sync (fake clientset)', () => {
  const deployment: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'deploy-uid' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
  };
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-abc', namespace: 'default', uid: 'rs-uid', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'deploy-uid', controller: true }] },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
  };

  it('counts the Deployment’s scale through its ReplicaSet and writes the budget’s status', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.deployments, deployment);
    env.fake.seed(GVR.replicaSets, rs);
    env.fake.seed(GVR.pods, pod('a', { owner: RS }), pod('b', { owner: RS }), pod('c', { owner: RS, ready: false }));
    env.fake.seed(GVR.podDisruptionBudgets, pdb({ maxUnavailable: 1 }));
    const c = new DisruptionController(env.ctx);
    await env.sync();
    await c.sync('default/web-pdb');
    expect(env.fake.actionLines()).toEqual(['update poddisruptionbudgets/status default/web-pdb']);
    const got = await env.fake.clientset.policy.podDisruptionBudgets('default').get('web-pdb');
    expect(got.status).toMatchObject({
      expectedPods: 3,
      desiredHealthy: 2,
      currentHealthy: 2,
      disruptionsAllowed: 0,
      observedGeneration: 1,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
    });
    await env.stop();
  });

  it('fails safe with SyncFailed and events when a pod’s controller has no scale', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.pods, pod('d', { owner: { kind: 'DaemonSet', name: 'agent', uid: 'ds-uid' } }));
    env.fake.seed(GVR.podDisruptionBudgets, pdb({ maxUnavailable: 1 }, { disruptionsAllowed: 1 }));
    const c = new DisruptionController(env.ctx);
    await env.sync();
    await c.sync('default/web-pdb');
    const got = await env.fake.clientset.policy.podDisruptionBudgets('default').get('web-pdb');
    expect(got.status?.disruptionsAllowed).toBe(0);
    expect(got.status?.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "d"', lastTransitionTime: at(0) }]);
    expect(env.recorder.events).toEqual([
      'Warning NoControllers found no controllers for pod "d"',
      'Warning CalculateExpectedPodCountFailed Failed to calculate the number of expected pods: found no controllers for pod "d"',
    ]);
    await env.stop();
  });
});
