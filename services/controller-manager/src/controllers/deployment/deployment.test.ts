import type { Deployment, ReplicaSet } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { DeploymentController } from './deployment-controller.js';
import { computeHash, safeEncodeString } from '../../util/hash.js';
import { planScale, reconcileNewReplicaSet, reconcileOldReplicaSets } from './rollout.js';
import { calculateStatus, rolloutStatus } from './status.js';
import { equalIgnoreHash, maxSurge, maxUnavailable, newRSNewReplicas } from './util.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

function d(replicas: number, surge: number | string = '25%', unavailable: number | string = '25%', extra: Partial<Deployment['spec']> = {}): Deployment {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'd-uid', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'v2' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
      progressDeadlineSeconds: 600,
      ...extra,
    },
    status: { observedGeneration: 1 },
  };
}

function rs(name: string, replicas: number, available: number, created: string, ann: Record<string, string> = {}): ReplicaSet {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: created, annotations: ann },
    spec: { replicas, selector: {} },
    status: { replicas, readyReplicas: available, availableReplicas: available },
  };
}

describe('pod-template-hash', () => {
  it('maps the decimal FNV-1a of the template into the safe alphabet', () => {
    // digits are bytes 48-57, so hashes hold only 4-9 and b c d f, as real ones (web-5b85bc8649)
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
    const h = computeHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(h).toMatch(/^[4-9bcdf]{1,10}$/);
    expect(computeHash({ spec: { containers: [{ name: 'c', image: 'nginx' }] }, metadata: { labels: { app: 'web' } } })).toBe(h);
    expect(computeHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, 1)).not.toBe(h);
    const restarted = { metadata: { labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect(computeHash(restarted)).not.toBe(h);
  });
});

describe('which ReplicaSet is new', () => {
  it('matches a template kubectl rollout undo copied back with "creationTimestamp": null (Go reads null as absent)', () => {
    const tpl = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } };
    const rsTpl = { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec: tpl.spec };
    const undone = { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: tpl.spec } as unknown as typeof tpl;
    expect(equalIgnoreHash(rsTpl, undone)).toBe(true);
    expect(equalIgnoreHash({ metadata: { creationTimestamp: null } } as never, {})).toBe(true);
    expect(equalIgnoreHash({ spec: { containers: [{ name: 'nginx', image: 'nginx:1.26', args: [] }] } }, { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } })).toBe(true);
    expect(equalIgnoreHash(rsTpl, { ...undone, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } })).toBe(false);
    expect(computeHash(undone)).toBe(computeHash(tpl));
  });
});

describe('maxSurge / maxUnavailable', () => {
  it.each([
    [10, '25%', '25%', 3, 2],
    [4, 1, 1, 1, 1],
    [3, 0, 0, 0, 1],
    [1, '25%', '25%', 1, 0],
    [2, 0, 5, 0, 2],
  ])('%i replicas with surge %s unavailable %s → %i / %i', (replicas, surge, unav, wantSurge, wantUnav) => {
    expect(maxSurge(d(replicas, surge, unav))).toBe(wantSurge);
    expect(maxUnavailable(d(replicas, surge, unav))).toBe(wantUnav);
  });
});

describe('rolling update steps', () => {
  it('surges the new ReplicaSet by maxSurge', () => {
    const old = rs('old', 4, 4, '2026-01-01T00:00:00Z');
    const n = rs('new', 0, 0, '2026-01-01T00:05:00Z');
    expect(newRSNewReplicas(d(4, 1, 1), [old, n], n)).toBe(1);
    expect(reconcileNewReplicaSet(d(4, 1, 1), [old, n], n)).toBe(1);
  });
  it('scales old down only as far as availability allows', () => {
    const dep = d(4, 1, 1);
    const old = rs('old', 4, 4, '2026-01-01T00:00:00Z');
    const n = rs('new', 1, 0, '2026-01-01T00:05:00Z');
    // 5 pods, min available 3, 1 new unavailable → may drop 1
    expect(reconcileOldReplicaSets(dep, [old, n], [old], n).map((a) => [a.rs.metadata.name, a.to])).toEqual([['old', 3]]);
  });
  it('removes unhealthy old replicas first, at no availability cost', () => {
    const dep = d(4, 1, 1);
    const old = rs('old', 4, 2, '2026-01-01T00:00:00Z');
    const n = rs('new', 1, 1, '2026-01-01T00:05:00Z');
    // 5 pods, 3 available, min 3: the 2 unavailable old ones may go, nothing more
    expect(reconcileOldReplicaSets(dep, [old, n], [old], n).map((a) => [a.rs.metadata.name, a.to])).toEqual([['old', 2]]);
  });
  it('does nothing while the new pods are not available and the minimum is reached', () => {
    const dep = d(4, 1, 1);
    const old = rs('old', 3, 3, '2026-01-01T00:00:00Z');
    const n = rs('new', 2, 0, '2026-01-01T00:05:00Z');
    expect(reconcileOldReplicaSets(dep, [old, n], [old], n)).toEqual([]);
  });
});

describe('proportional scaling during a rollout', () => {
  it('splits added replicas by the max-replicas annotation, leftovers to the largest', () => {
    const dep = d(20, 3, 2);
    const old = rs('old', 8, 8, '2026-01-01T00:00:00Z', { 'deployment.kubernetes.io/max-replicas': '13' });
    const n = rs('new', 5, 5, '2026-01-01T00:05:00Z', { 'deployment.kubernetes.io/max-replicas': '13' });
    const plan = planScale(dep, n, [old]).map((a) => [a.rs.metadata.name, a.to]);
    // allowed 23 = 20 + 3; 10 to add; old 8*23/13≈14 (+6), new 5*23/13≈9 (+4)
    expect(plan).toEqual([
      ['old', 14],
      ['new', 9],
    ]);
  });
  it('resizes the only active ReplicaSet directly', () => {
    const n = rs('new', 3, 3, '2026-01-01T00:05:00Z');
    expect(planScale(d(5), n, [rs('old', 0, 0, '2026-01-01T00:00:00Z')]).map((a) => [a.rs.metadata.name, a.to])).toEqual([['new', 5]]);
  });
});

describe('deployment status', () => {
  it('counts replicas and sets Available from maxUnavailable', () => {
    const dep = d(4, 1, 1);
    const old = rs('old', 2, 2, '2026-01-01T00:00:00Z');
    const n = rs('new', 3, 1, '2026-01-01T00:05:00Z');
    const s = calculateStatus(dep, [old, n], n, NOW);
    expect(s).toMatchObject({ observedGeneration: 2, replicas: 5, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, unavailableReplicas: 2 });
    expect(s.conditions).toEqual([
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: '2026-01-01T00:10:00Z',
        lastTransitionTime: '2026-01-01T00:10:00Z',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
    ]);
    const low = calculateStatus(dep, [rs('new', 4, 2, '2026-01-01T00:05:00Z')], undefined, NOW);
    expect(low.conditions?.[0]).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
  });
  it('reports progress, completion and a missed deadline on Progressing', () => {
    const n = rs('web-abc', 2, 1, '2026-01-01T00:05:00Z');
    const progressing = rolloutStatus(d(2), [n], n, NOW);
    expect(progressing.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "web-abc" is progressing.' });
    const done = rs('web-abc', 2, 2, '2026-01-01T00:05:00Z');
    expect(rolloutStatus(d(2), [done], done, NOW).conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: 'ReplicaSet "web-abc" has successfully progressed.',
    });
    const stuck = d(2);
    stuck.status = {
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'x', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    };
    expect(rolloutStatus(stuck, [n], n, NOW + 600_000).conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "web-abc" has timed out progressing.',
    });
  });
});

describe('deployment status as stored (Go omitempty)', () => {
  const avail = (at: string) => ({
    type: 'Available',
    status: 'True',
    lastUpdateTime: at,
    lastTransitionTime: at,
    reason: 'MinimumReplicasAvailable',
    message: 'Deployment has minimum availability.',
  });
  it('fully available: no unavailableReplicas key', () => {
    const done = rs('web-abc', 2, 2, '2026-01-01T00:05:00Z');
    const s = calculateStatus(d(2), [done], done, NOW);
    expect(s).toEqual({ observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, conditions: [avail('2026-01-01T00:10:00Z')] });
  });
  it('scaled to 0: no replica counts at all', () => {
    const zero = rs('web-abc', 0, 0, '2026-01-01T00:05:00Z');
    expect(calculateStatus(d(0), [zero], zero, NOW)).toEqual({ observedGeneration: 2, conditions: [avail('2026-01-01T00:10:00Z')] });
  });
  it('a new Deployment of 0 replicas: the ReplicaSet spec has no minReadySeconds, the status no counts', async () => {
    const env = fakeEnv();
    const dep: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', uid: 'd-uid', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {},
    };
    env.fake.seed(GVR.deployments, dep);
    const c = new DeploymentController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    const [created] = env.fake.objects<ReplicaSet>(GVR.replicaSets);
    const hash = created?.metadata.labels?.['pod-template-hash'];
    expect(created?.spec).toEqual({
      replicas: 0,
      selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
      template: { metadata: { labels: { app: 'web', 'pod-template-hash': hash } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    });
    const status = env.fake.peek<Deployment>(GVR.deployments, 'default', 'web')?.status;
    expect(Object.keys(status ?? {}).sort()).toEqual(['conditions', 'observedGeneration']);
    expect(status?.observedGeneration).toBe(1);
    await env.stop();
  });
  it('keeps minReadySeconds on the ReplicaSet when the Deployment sets it', async () => {
    const env = fakeEnv();
    const dep: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', uid: 'd-uid', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        replicas: 1,
        minReadySeconds: 5,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        progressDeadlineSeconds: 600,
      },
      status: {},
    };
    env.fake.seed(GVR.deployments, dep);
    const c = new DeploymentController(env.ctx);
    await env.sync();
    await c.sync('default/web');
    expect(env.fake.objects<ReplicaSet>(GVR.replicaSets)[0]?.spec?.minReadySeconds).toBe(5);
    await env.stop();
  });
});
