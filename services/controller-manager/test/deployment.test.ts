// Deployments against a real apiserver on a real nats-server: scale up and
// down, and a rolling update to a new image that never has fewer than
// spec.replicas - maxUnavailable ready pods, checked at every pod event.

import type { Deployment, Event, Pod, ReplicaSet } from '@kubelab/api';
import { SharedInformerFactory } from '@kubelab/client';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployment, setPodReady, startEnv, type Env } from '../src/testing/harness.js';

const hasNats = requireTool('nats-server');

describe.skipIf(!hasNats)('deployment controller with an apiserver', () => {
  let env: Env;
  let factory: SharedInformerFactory;
  /** Every pod state seen, for the availability invariant. */
  const pods = new Map<string, Pod>();
  const violations: string[] = [];
  let watchApp = '';
  let minReady = 0;
  let maxTotal = Infinity;

  const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const check = (what: string) => {
    if (!watchApp) return;
    const mine = [...pods.values()].filter((p) => p.metadata.labels?.app === watchApp && !p.metadata.deletionTimestamp);
    const ready = mine.filter(isReady).length;
    if (ready < minReady) violations.push(`${what}: ${ready} ready < ${minReady}`);
    if (mine.length > maxTotal) violations.push(`${what}: ${mine.length} pods > ${maxTotal}`);
  };

  beforeAll(async () => {
    env = await startEnv();
    await env.startCm({ config: { controllers: ['deployment-controller', 'replicaset-controller'] } });
    // A stand-in kubelet: every new pod becomes Ready shortly after it appears.
    factory = new SharedInformerFactory(env.cs);
    const inf = factory.core.pods();
    inf.addEventHandler({
      onAdd: (p) => {
        pods.set(p.metadata.name ?? '', p);
        check(`add ${p.metadata.name}`);
        if (!isReady(p)) setTimeout(() => void setPodReady(env.cs, p, true).catch(() => undefined), 30);
      },
      onUpdate: (_o, p) => {
        pods.set(p.metadata.name ?? '', p);
        check(`update ${p.metadata.name}`);
      },
      onDelete: (o) => {
        const p = 'obj' in o ? (o.obj as Pod) : o;
        pods.delete(p.metadata.name ?? '');
        check(`delete ${p.metadata.name}`);
      },
    });
    factory.start();
    await factory.waitForCacheSync();
  });

  afterAll(async () => {
    await factory?.shutdown();
    await env?.cleanup();
  });

  const getD = (name: string) => env.cs.apps.deployments('default').get(name);
  const rsList = async (app: string) => (await env.cs.apps.replicaSets('default').list()).items.filter((r) => r.metadata.labels?.app === app);
  const readyCount = (app: string) => [...pods.values()].filter((p) => p.metadata.labels?.app === app && !p.metadata.deletionTimestamp && isReady(p)).length;
  const rolledOut = async (name: string, replicas: number) =>
    waitFor(`${name} rolled out with ${replicas}`, async () => {
      const d = await getD(name);
      const s = d.status ?? {};
      return (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) && s.updatedReplicas === replicas && s.availableReplicas === replicas && s.replicas === replicas ? d : undefined;
    });

  it('creates a ReplicaSet named by the template hash, with revision annotations, and scales it', async () => {
    await env.cs.apps.deployments('default').create(deployment('web', { replicas: 3 }));
    const d = await rolledOut('web', 3);
    const [rs] = await rsList('web');
    expect(rs).toBeDefined();
    const hash = rs!.metadata.labels?.['pod-template-hash'];
    expect(hash).toMatch(/^[4-9bcdf]{1,10}$/);
    expect(rs!.metadata.name).toBe(`web-${hash}`);
    expect(rs!.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(rs!.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    const conds = Object.fromEntries((d.status?.conditions ?? []).map((c) => [c.type, `${c.status} ${c.reason}: ${c.message}`]));
    expect(conds).toEqual({
      Available: 'True MinimumReplicasAvailable: Deployment has minimum availability.',
      Progressing: `True NewReplicaSetAvailable: ReplicaSet "${rs!.metadata.name}" has successfully progressed.`,
    });
    const podList = (await env.cs.core.pods('default').list()).items.filter((p) => p.metadata.labels?.app === 'web');
    expect(podList).toHaveLength(3);
    for (const p of podList) {
      expect(p.metadata.name).toMatch(new RegExp(`^web-${hash}-[a-z0-9]{5}$`));
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: rs!.metadata.name, controller: true, blockOwnerDeletion: true });
      expect(p.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    }

    // scale up, then down
    await env.cs.apps.deployments('default').patch('web', 'merge', { spec: { replicas: 5 } });
    await rolledOut('web', 5);
    await env.cs.apps.deployments('default').patch('web', 'merge', { spec: { replicas: 2 } });
    await rolledOut('web', 2);
    await waitFor('2 pods', async () => ((await env.cs.core.pods('default').list()).items.filter((p) => p.metadata.labels?.app === 'web').length === 2 ? true : undefined));

    const events = (await env.cs.core.events('default').list()).items.filter((e: Event) => e.involvedObject.name === 'web' && e.reason === 'ScalingReplicaSet');
    const msgs = events.map((e) => e.message);
    expect(msgs).toContain(`Scaled up replica set ${rs!.metadata.name} to 3`);
    expect(msgs).toContain(`Scaled up replica set ${rs!.metadata.name} to 5 from 3`);
    expect(msgs).toContain(`Scaled down replica set ${rs!.metadata.name} to 2 from 5`);
    const rsEvents = await waitFor('SuccessfulCreate events', async () => {
      const ev = (await env.cs.core.events('default').list()).items.filter((e) => e.involvedObject.name === rs!.metadata.name && e.reason === 'SuccessfulCreate');
      return ev.length ? ev : undefined;
    });
    expect(rsEvents[0]!.message).toMatch(new RegExp(`^Created pod: ${rs!.metadata.name}-[a-z0-9]{5}$`));
    expect(rsEvents[0]!.source?.component).toBe('replicaset-controller');
  });

  it('rolls to a new image keeping at least replicas - maxUnavailable ready pods at every step', async () => {
    await env.cs.apps.deployments('default').create(deployment('roll', { replicas: 4, maxSurge: 1, maxUnavailable: 1 }));
    await rolledOut('roll', 4);
    await waitFor('4 ready pods seen', () => (readyCount('roll') === 4 ? true : undefined));
    watchApp = 'roll';
    minReady = 3;
    maxTotal = 5;
    const before = await rsList('roll');
    const d = await getD('roll');
    const next = structuredClone(d);
    next.spec!.template.spec!.containers[0]!.image = 'nginx:1.26';
    await env.cs.apps.deployments('default').update(next);
    const done: Deployment = await rolledOut('roll', 4);
    await waitFor('old pods gone', () => ([...pods.values()].filter((p) => p.metadata.labels?.app === 'roll').length === 4 ? true : undefined));
    watchApp = '';
    expect(violations).toEqual([]);
    const after = await rsList('roll');
    expect(after).toHaveLength(2);
    const newRs = after.find((r) => r.metadata.uid !== before[0]!.metadata.uid) as ReplicaSet;
    expect(newRs.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(newRs.spec?.replicas).toBe(4);
    expect(after.find((r) => r.metadata.uid === before[0]!.metadata.uid)?.spec?.replicas).toBe(0);
    expect(done.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    const live = [...pods.values()].filter((p) => p.metadata.labels?.app === 'roll');
    expect(live.map((p) => p.spec?.containers[0]?.image)).toEqual(['nginx:1.26', 'nginx:1.26', 'nginx:1.26', 'nginx:1.26']);

    // kubectl rollout undo, as kubectl sends it: a JSON patch replacing the template with the old
    // ReplicaSet's (hash label removed, Go's "creationTimestamp": null included) and the annotations.
    const oldTemplate = structuredClone(before[0]!.spec!.template) as { metadata: Record<string, unknown> & { labels?: Record<string, string> } };
    delete oldTemplate.metadata.labels!['pod-template-hash'];
    oldTemplate.metadata.creationTimestamp = null;
    await env.cs.apps.deployments('default').patch('roll', 'json', [
      { op: 'replace', path: '/spec/template', value: oldTemplate },
      { op: 'replace', path: '/metadata/annotations', value: { 'deployment.kubernetes.io/revision': '2' } },
    ]);
    await rolledOut('roll', 4);
    // the old ReplicaSet is new again, at revision 3; no third ReplicaSet appears
    const old = (await env.cs.apps.replicaSets('default').get(before[0]!.metadata.name ?? '')) as ReplicaSet;
    expect(old.spec?.replicas).toBe(4);
    expect(old.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(old.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect((await rsList('roll')).map((r) => r.metadata.name).sort()).toEqual(after.map((r) => r.metadata.name).sort());
  });

  it('Recreate scales the old ReplicaSet to zero before the new one starts', async () => {
    await env.cs.apps.deployments('default').create(deployment('rec', { replicas: 2, strategy: 'Recreate' }));
    await rolledOut('rec', 2);
    const d = structuredClone(await getD('rec'));
    d.spec!.template.spec!.containers[0]!.image = 'nginx:1.26';
    await env.cs.apps.deployments('default').update(d);
    await rolledOut('rec', 2);
    const imgs = (await env.cs.core.pods('default').list()).items.filter((p) => p.metadata.labels?.app === 'rec').map((p) => p.spec?.containers[0]?.image);
    expect(imgs).toEqual(['nginx:1.26', 'nginx:1.26']);
  });
});
