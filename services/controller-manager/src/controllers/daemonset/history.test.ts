import type { ControllerRevision, DaemonSet, Node, Pod } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { DaemonSetController } from './daemonset-controller.js';
import { templateHash } from './decisions.js';
import { daemonSetRevision, daemonSetRevisionsToDelete } from './history.js';

const ds = (image: string, o: { annotations?: Record<string, string>; limit?: number } = {}): DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid', generation: 1, ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revisionHistoryLimit: o.limit ?? 10,
  },
});
const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} };
const rev = (d: DaemonSet, n: number): ControllerRevision => ({ ...daemonSetRevision(d), revision: n, metadata: { ...daemonSetRevision(d).metadata, uid: `rev-${n}` } });

describe('DaemonSet revisions', () => {
  it('are named <ds>-<template hash>, labelled with the hash its pods carry, annotated as the DaemonSet, and hold the template as a replace patch', () => {
    const d = ds('agent:1', { annotations: { 'kubernetes.io/change-cause': 'kubectl set image ds/agent a=agent:1' } });
    const r = daemonSetRevision(d);
    expect(r.metadata).toMatchObject({
      name: `agent-${templateHash(d)}`,
      labels: { app: 'agent', 'controller-revision-hash': templateHash(d) },
      annotations: { 'kubernetes.io/change-cause': 'kubectl set image ds/agent a=agent:1' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-uid', controller: true, blockOwnerDeletion: true }],
    });
    expect(r.data).toEqual({ spec: { template: { $patch: 'replace', metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent:1' }] } } } });
  });

  it('history keeps revisionHistoryLimit revisions no pod uses, besides the current one', () => {
    const d = ds('agent:4', { limit: 1 });
    const [r1, r2, r3, r4] = [rev(ds('agent:1'), 1), rev(ds('agent:2'), 2), rev(ds('agent:3'), 3), rev(d, 4)];
    const podOn2: Pod = { metadata: { name: 'p', labels: { 'controller-revision-hash': r2!.metadata.labels!['controller-revision-hash']! } } };
    expect(daemonSetRevisionsToDelete(d, [r1!, r2!, r3!, r4!], r4!, [podOn2]).map((r) => r.revision)).toEqual([1]);
  });
});

describe('DaemonSet sync keeps history (fake clientset)', () => {
  it('the first sync records revision 1 before creating the pods', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.daemonSets, ds('agent:1'));
    env.fake.seed(GVR.nodes, node);
    const c = new DaemonSetController(env.ctx);
    await env.sync();
    await c.sync('default/agent');
    expect(env.fake.actionLines()).toEqual(['create controllerrevisions default', 'create pods default', 'update daemonsets/status default/agent']);
    expect(env.fake.objects<ControllerRevision>(GVR.controllerRevisions).map((r) => [r.metadata.name, r.revision])).toEqual([[`agent-${templateHash(ds('agent:1'))}`, 1]]);
    await env.stop();
  });

  it('a new template is revision 2; going back to the first template renumbers it 3 (rollback)', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.daemonSets, ds('agent:2'));
    env.fake.seed(GVR.controllerRevisions, rev(ds('agent:1'), 1));
    const c = new DaemonSetController(env.ctx);
    await env.sync();
    await c.sync('default/agent');
    expect(env.fake.actionLines()[0]).toBe('create controllerrevisions default');
    await env.stop();

    const back = fakeEnv();
    back.fake.seed(GVR.daemonSets, ds('agent:1'));
    back.fake.seed(GVR.controllerRevisions, rev(ds('agent:1'), 1), rev(ds('agent:2'), 2));
    const c2 = new DaemonSetController(back.ctx);
    await back.sync();
    await c2.sync('default/agent');
    expect(back.fake.actionLines()[0]).toBe(`update controllerrevisions default/agent-${templateHash(ds('agent:1'))}`);
    expect(back.fake.peek<ControllerRevision>(GVR.controllerRevisions, 'default', `agent-${templateHash(ds('agent:1'))}`)?.revision).toBe(3);
    await back.stop();
  });
});
