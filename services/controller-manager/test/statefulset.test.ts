// StatefulSets against a real apiserver on a real nats-server, with a
// stand-in kubelet that makes every new pod Ready shortly after it appears:
// OrderedReady creates web-0, web-1, web-2 each only once the one before is
// Ready; scale down removes the highest ordinal first; a new template is a
// second ControllerRevision and every pod ends up at it.

import type { ControllerRevision, Pod, StatefulSet } from '@kubelab/api';
import { SharedInformerFactory } from '@kubelab/client';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPodReady, startEnv, type Env } from '../src/testing/harness.js';

const hasNats = requireTool('nats-server');

describe.skipIf(!hasNats)('statefulset controller with an apiserver', () => {
  let env: Env;
  let factory: SharedInformerFactory;
  const pods = new Map<string, Pod>();
  const added: string[] = [];
  const deleted: string[] = [];
  const violations: string[] = [];
  const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

  beforeAll(async () => {
    env = await startEnv();
    await env.startCm({ config: { controllers: ['statefulset-controller'] } });
    factory = new SharedInformerFactory(env.cs);
    const inf = factory.core.pods();
    inf.addEventHandler({
      onAdd: (p) => {
        const ord = Number(p.metadata.labels?.['apps.kubernetes.io/pod-index']);
        // OrderedReady: every lower ordinal is Ready when a pod is created.
        for (let i = 0; i < ord; i++) {
          const lower = pods.get(`web-${i}`);
          if (!lower || !isReady(lower)) violations.push(`${p.metadata.name} created before web-${i} was ready`);
        }
        pods.set(p.metadata.name ?? '', p);
        added.push(p.metadata.name ?? '');
        setTimeout(() => void setPodReady(env.cs, p, true).catch(() => undefined), 30);
      },
      onUpdate: (_o, p) => void pods.set(p.metadata.name ?? '', p),
      onDelete: (o) => {
        const p = 'obj' in o ? (o.obj as Pod) : o;
        pods.delete(p.metadata.name ?? '');
        deleted.push(p.metadata.name ?? '');
      },
    });
    factory.start();
    await factory.waitForCacheSync();
  });

  afterAll(async () => {
    await factory?.shutdown();
    await env?.cleanup();
  });

  const sets = () => env.cs.apps.statefulSets('default');
  const settled = (pred: (s: StatefulSet) => boolean, what: string) =>
    waitFor(
      what,
      async () => {
        const s = await sets().get('web');
        return (s.status?.observedGeneration ?? 0) >= (s.metadata.generation ?? 0) && pred(s) ? s : undefined;
      },
      { timeoutMs: 20_000 },
    );

  it('creates web-0..2 in order, each after the previous is Ready, with one revision', async () => {
    await sets().create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 3,
        serviceName: 'nginx',
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
      },
    });
    const s = await settled((x) => x.status?.readyReplicas === 3, '3 ready');
    expect(added).toEqual(['web-0', 'web-1', 'web-2']);
    expect(violations).toEqual([]);
    const revs = (await env.cs.apps.controllerRevisions('default').list()).items;
    expect(revs.map((r) => [r.metadata.name, r.revision])).toEqual([[s.status?.updateRevision, 1]]);
    expect(pods.get('web-1')?.spec).toMatchObject({ hostname: 'web-1', subdomain: 'nginx' });
  });

  it('scales down from the highest ordinal', async () => {
    const s = await sets().get('web');
    await sets().update({ ...s, spec: { ...s.spec!, replicas: 1 } });
    await settled((x) => x.status?.replicas === 1, '1 replica');
    expect(deleted).toEqual(['web-2', 'web-1']);
  });

  it('a new template: revision 2, and every pod rolled to it', async () => {
    const s = await sets().get('web');
    await sets().update({ ...s, spec: { ...s.spec!, replicas: 2, template: { ...s.spec!.template, spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } });
    const done = await settled((x) => x.status?.updatedReplicas === 2 && x.status.readyReplicas === 2 && x.status.currentRevision === x.status.updateRevision, 'rolled out');
    const revs: ControllerRevision[] = (await env.cs.apps.controllerRevisions('default').list()).items;
    expect(revs.map((r) => r.revision).sort()).toEqual([1, 2]);
    expect([...pods.values()].map((p) => [p.metadata.name, p.metadata.labels?.['controller-revision-hash'], p.spec?.containers[0]?.image]).sort()).toEqual([
      ['web-0', done.status?.updateRevision, 'nginx:1.28'],
      ['web-1', done.status?.updateRevision, 'nginx:1.28'],
    ]);
    expect(violations).toEqual([]);
  });
});
