// kubectl against StatefulSets and ControllerRevisions (no controller-manager
// here: the revisions a controller would write are created by hand, status
// is patched as the controller would): api-resources, apply and its errors,
// `get sts` and `get controllerrevision` rows, scale, rollout history,
// rollout undo and rollout status.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const sts = (o: { name?: string; serviceName?: string; labels?: string; image?: string } = {}) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ${o.name ?? 'web'}
spec:
  serviceName: ${o.serviceName ?? 'nginx'}
  replicas: 3
  selector:
    matchLabels: {app: nginx}
  template:
    metadata:
      labels: {app: ${o.labels ?? 'nginx'}}
    spec:
      containers:
      - {name: nginx, image: ${o.image ?? 'nginx:1.27'}}
`;

const ds = (image: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - {name: agent, image: ${image}}
`;

/** A revision as the controller writes it: owned by its workload, the template as a replace patch. */
const revision = (owner: { kind: string; name: string; uid: string }, n: number, image: string, labels: string, changeCause?: string) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${owner.name}-rev${n}`,
      labels: { app: labels, 'controller-revision-hash': `rev${n}` },
      ...(changeCause ? { annotations: { 'kubernetes.io/change-cause': changeCause } } : {}),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }],
    },
    data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: labels } }, spec: { containers: [{ name: labels === 'agent' ? 'agent' : 'nginx', image }] } } } },
    revision: n,
  });

describe.skipIf(!run)('kubectl: statefulsets and controllerrevisions', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  const uidOf = async (resource: string) => (await c.kubectl(['get', resource, '-o', 'jsonpath={.metadata.uid}'])).stdout;

  it('api-resources lists statefulsets (sts) and controllerrevisions in apps', async () => {
    const lines = squash((await c.kubectl(['api-resources', '--api-group=apps'])).stdout);
    expect(lines).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'controllerrevisions apps/v1 true ControllerRevision',
      'daemonsets ds apps/v1 true DaemonSet',
      'deployments deploy apps/v1 true Deployment',
      'replicasets rs apps/v1 true ReplicaSet',
      'statefulsets sts apps/v1 true StatefulSet',
    ]);
  });

  it('apply creates it with upstream defaults; get sts shows READY and AGE, -o wide the containers and images', async () => {
    expect(await c.kubectl(['apply', '-f', '-'], { stdin: sts() })).toMatchObject({ stdout: 'statefulset.apps/web created\n', code: 0 });
    expect(squash((await c.kubectl(['get', 'sts'])).stdout)).toEqual(['NAME READY AGE', expect.stringMatching(/^web 0\/3 \d+s$/)]);
    expect(squash((await c.kubectl(['get', 'statefulsets', '-o', 'wide'])).stdout)).toEqual(['NAME READY AGE CONTAINERS IMAGES', expect.stringMatching(/^web 0\/3 \d+s nginx nginx:1\.27$/)]);
    const spec = JSON.parse((await c.kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.spec}'])).stdout) as Record<string, unknown>;
    expect(spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      revisionHistoryLimit: 10,
      minReadySeconds: 0,
    });
    expect((await c.kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.metadata.generation} {.status}'])).stdout).toBe('1 {"availableReplicas":0,"replicas":0}');
  });

  it('scale sts/web goes through the scale subresource and bumps the generation', async () => {
    expect((await c.kubectl(['scale', 'sts/web', '--replicas=5'])).stdout).toBe('statefulset.apps/web scaled\n');
    expect((await c.kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}'])).stdout).toBe('5 2');
    expect((await c.kubectl(['get', '--raw', '/apis/apps/v1/namespaces/default/statefulsets/web/scale'])).stdout).toContain('"spec":{"replicas":5}');
  });

  it('bad input gets upstream errors: an immutable field, a selector not matching the labels, a bad policy', async () => {
    const immutable = await c.kubectl(['apply', '-f', '-'], { stdin: sts({ serviceName: 'other' }) });
    expect(immutable.code).toBe(1);
    expect(immutable.stderr).toContain(
      `The StatefulSet "web" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
    );
    const mismatch = await c.kubectl(['create', '-f', '-'], { stdin: sts({ name: 'bad', labels: 'other' }) });
    expect(mismatch.stderr).toBe('The StatefulSet "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`\n');
    const policy = await c.kubectl(['create', '-f', '-'], { stdin: sts({ name: 'bad' }).replace('replicas: 3', 'replicas: 3\n  podManagementPolicy: Fast') });
    expect(policy.stderr).toBe(`The StatefulSet "bad" is invalid: spec.podManagementPolicy: Invalid value: "Fast": must be 'OrderedReady' or 'Parallel'\n`);
  });

  it('rollout status sts: waits for ready pods, then reports the partitioned roll out complete', async () => {
    const waiting = await c.kubectl(['rollout', 'status', 'sts/web', '--watch=false']);
    expect(waiting.stdout).toBe('Waiting for statefulset spec update to be observed...\n');
    const status = (ready: number) => JSON.stringify({ status: { observedGeneration: 2, replicas: 5, readyReplicas: ready, currentReplicas: 5, updatedReplicas: 5, availableReplicas: ready } });
    await c.kubectl(['patch', 'sts', 'web', '--subresource=status', '--type=merge', '-p', status(3)]);
    expect((await c.kubectl(['rollout', 'status', 'sts/web', '--watch=false'])).stdout).toBe('Waiting for 2 pods to be ready...\n');
    await c.kubectl(['patch', 'sts', 'web', '--subresource=status', '--type=merge', '-p', status(5)]);
    expect((await c.kubectl(['rollout', 'status', 'sts/web', '--watch=false'])).stdout).toBe('partitioned roll out complete: 5 new pods have been updated...\n');
    expect(squash((await c.kubectl(['get', 'sts'])).stdout)[1]).toMatch(/^web 5\/5 \d+s$/);
    // A status write runs the status strategy's rules (ValidateStatefulSetStatusUpdate), and nothing of it is stored.
    const bad = await c.kubectl(['patch', 'sts', 'web', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { replicas: 5, readyReplicas: 6 } })]);
    expect(bad.stderr).toBe('The StatefulSet "web" is invalid: status.readyReplicas: Invalid value: 6: cannot be greater than status.replicas\n');
    expect((await c.kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.status.readyReplicas}'])).stdout).toBe('5');
  });

  it('rollout history daemonset lists its ControllerRevisions with CHANGE-CAUSE; --revision shows the template; get controllerrevision', async () => {
    await c.kubectl(['apply', '-f', '-'], { stdin: ds('agent:2') });
    const owner = { kind: 'DaemonSet', name: 'agent', uid: await uidOf('ds/agent') };
    for (const r of [revision(owner, 1, 'agent:1', 'agent'), revision(owner, 2, 'agent:2', 'agent', 'kubectl set image ds/agent agent=agent:2')]) {
      expect((await c.kubectl(['create', '-f', '-'], { stdin: r })).code).toBe(0);
    }
    expect(squash((await c.kubectl(['rollout', 'history', 'daemonset/agent'])).stdout)).toEqual([
      'daemonset.apps/agent',
      'REVISION CHANGE-CAUSE',
      '1 <none>',
      '2 kubectl set image ds/agent agent=agent:2',
    ]);
    const rev1 = squash((await c.kubectl(['rollout', 'history', 'ds/agent', '--revision=1'])).stdout);
    expect(rev1[0]).toBe('daemonset.apps/agent with revision #1');
    expect(rev1).toContain('Image: agent:1');
    const missing = await c.kubectl(['rollout', 'history', 'ds/agent', '--revision=7']);
    expect(missing.stderr).toBe('error: unable to find the specified revision\n');
    expect(squash((await c.kubectl(['get', 'controllerrevisions'])).stdout)).toEqual([
      'NAME CONTROLLER REVISION AGE',
      expect.stringMatching(/^agent-rev1 daemonset\.apps\/agent 1 \d+s$/),
      expect.stringMatching(/^agent-rev2 daemonset\.apps\/agent 2 \d+s$/),
    ]);
  });

  it('rollout undo daemonset applies the revision back (a strategic merge patch replacing the template)', async () => {
    expect((await c.kubectl(['rollout', 'undo', 'ds/agent', '--to-revision=1'])).stdout).toBe('daemonset.apps/agent rolled back\n');
    expect((await c.kubectl(['get', 'ds', 'agent', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])).stdout).toBe('agent:1');
    expect((await c.kubectl(['rollout', 'undo', 'ds/agent', '--to-revision=9'])).stderr).toBe('error: unable to find specified revision 9 in history\n');
  });

  it('rollout history and undo statefulset', async () => {
    const owner = { kind: 'StatefulSet', name: 'web', uid: await uidOf('sts/web') };
    for (const r of [revision(owner, 1, 'nginx:1.26', 'nginx'), revision(owner, 2, 'nginx:1.27', 'nginx')]) {
      expect((await c.kubectl(['create', '-f', '-'], { stdin: r })).code).toBe(0);
    }
    expect(squash((await c.kubectl(['rollout', 'history', 'sts/web'])).stdout)).toEqual(['statefulset.apps/web', 'REVISION CHANGE-CAUSE', '1 <none>', '2 <none>']);
    expect((await c.kubectl(['rollout', 'undo', 'statefulset/web'])).stdout).toBe('statefulset.apps/web rolled back\n');
    expect((await c.kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image} {.metadata.generation}'])).stdout).toBe('nginx:1.26 3');
  });
});
