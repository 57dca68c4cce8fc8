// kubectl 1.32 against PodDisruptionBudgets and the eviction subresource:
// api-resources, `kubectl create pdb`, `kubectl get pdb` (MIN AVAILABLE,
// MAX UNAVAILABLE, ALLOWED DISRUPTIONS), upstream's validation text, a raw
// eviction refused with 429, and `kubectl drain` end to end: cordon,
// DaemonSet pods ignored, evictions through the budget, and the retries
// while the budget allows none. Without a disruption controller here the
// budgets' status is written as the controller would.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kubelab/api';
import { requireTool } from '@kubelab/testing';
import { node, runningPod } from './fixtures.js';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const owned = (pod: KubeObject, kind: string, name: string): KubeObject => ({
  ...pod,
  metadata: { ...pod.metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind, name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true }] },
});

function pdb(name: string, app: string, minAvailable: number, status: { allowed: number; healthy: number; expected: number }): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { minAvailable, selector: { matchLabels: { app } } },
    status: { observedGeneration: 1, disruptionsAllowed: status.allowed, currentHealthy: status.healthy, desiredHealthy: minAvailable, expectedPods: status.expected },
  } as KubeObject;
}

const agentDaemonSet: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'busybox' }] } } },
} as KubeObject;

describe.skipIf(!run)('kubectl 1.32: poddisruptionbudgets, eviction and drain', { timeout: 90_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists pdb; create pdb and get pdb show the budget', async () => {
    expect(squash((await c.kubectl(['api-resources', '--api-group=policy'])).stdout)).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'poddisruptionbudgets pdb policy/v1 true PodDisruptionBudget',
    ]);
    expect((await c.kubectl(['create', 'pdb', 'web-min', '--selector=app=web', '--min-available=1'])).stdout.trim()).toBe('poddisruptionbudget.policy/web-min created');
    expect((await c.kubectl(['create', 'pdb', 'web-max', '--selector=app=web', '--max-unavailable=50%'])).stdout.trim()).toBe('poddisruptionbudget.policy/web-max created');
    expect(squash((await c.kubectl(['get', 'pdb'])).stdout)).toEqual([
      'NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE',
      expect.stringMatching(/^web-max N\/A 50% 0 \d+s$/),
      expect.stringMatching(/^web-min 1 N\/A 0 \d+s$/),
    ]);
    const got = JSON.parse((await c.kubectl(['get', 'pdb', 'web-min', '-o', 'json'])).stdout);
    expect(got.metadata.generation).toBe(1);
    expect(got.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    await c.kubectl(['delete', 'pdb', 'web-min', 'web-max']);
  });

  it('refuses minAvailable and maxUnavailable together with upstream’s text', async () => {
    const r = await c.kubectl(['apply', '-f', '-'], {
      stdin: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: both}\nspec: {minAvailable: 1, maxUnavailable: 1, selector: {matchLabels: {app: x}}}\n',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^The PodDisruptionBudget "both" is invalid: spec: Invalid value: policy\.PodDisruptionBudgetSpec\{MinAvailable:\(\*intstr\.IntOrString\)\(0x[0-9a-f]+\), .*\}: minAvailable and maxUnavailable cannot be both set\n$/,
    );
  });

  it('an eviction the budget does not allow is 429; one it allows spends it and marks the pod DisruptionTarget', async () => {
    await c.seed(owned(runningPod('solo-1', { labels: { app: 'solo' } }), 'ReplicaSet', 'solo-rs'), pdb('solo', 'solo', 1, { allowed: 0, healthy: 1, expected: 1 }));
    const body = JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'solo-1', namespace: 'default' } });
    const refused = await c.kubectl(['create', '--raw', '/api/v1/namespaces/default/pods/solo-1/eviction', '-f', '-'], { stdin: body });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe("Error from server (TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget.");

    await c.seed(owned(runningPod('pair-1', { labels: { app: 'pair' } }), 'ReplicaSet', 'pair-rs'), pdb('pair', 'pair', 1, { allowed: 1, healthy: 2, expected: 2 }));
    const evicted = await c.kubectl(['create', '--raw', '/api/v1/namespaces/default/pods/pair-1/eviction', '-f', '-'], {
      stdin: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'pair-1' } }),
    });
    expect(evicted.code).toBe(0);
    expect(JSON.parse(evicted.stdout)).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    const pod = JSON.parse((await c.kubectl(['get', 'pod', 'pair-1', '-o', 'json'])).stdout);
    expect(pod.metadata.deletionTimestamp).toBeTruthy();
    expect(pod.status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }));
    const budget = JSON.parse((await c.kubectl(['get', 'pdb', 'pair', '-o', 'json'])).stdout);
    expect(budget.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(budget.status.disruptedPods)).toEqual(['pair-1']);
    expect(budget.status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' })]);
  });

  it('drain --ignore-daemonsets: cordons, skips the DaemonSet pod, evicts through the budget, drained', async () => {
    await c.seed(
      node('node-1'),
      agentDaemonSet,
      owned(runningPod('agent-x1', { labels: { app: 'agent' } }), 'DaemonSet', 'agent'),
      owned(runningPod('web-1', { labels: { app: 'web' } }), 'ReplicaSet', 'web-rs'),
      pdb('web', 'web', 1, { allowed: 1, healthy: 2, expected: 2 }),
    );
    const r = await c.kubectl(['drain', 'node-1', '--ignore-daemonsets', '--grace-period=0', '--timeout=30s', '--pod-selector=app notin (solo,pair)'], { timeoutMs: 40_000 });
    expect(r.stderr).toBe('Warning: ignoring DaemonSet-managed Pods: default/agent-x1\n');
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['node/node-1 cordoned', 'evicting pod default/web-1', 'pod/web-1 evicted', 'node/node-1 drained']);
    expect(r.code).toBe(0);
    expect(squash((await c.kubectl(['get', 'node', 'node-1'])).stdout)[1]).toMatch(/^node-1 Ready,SchedulingDisabled /);
    expect((await c.kubectl(['get', 'pod', 'web-1'])).stderr.trim()).toBe('Error from server (NotFound): pods "web-1" not found');
    expect((await c.kubectl(['get', 'pod', 'agent-x1', '-o', 'name'])).stdout.trim()).toBe('pod/agent-x1');
  });

  it('drain retries an eviction the budget refuses, every 5 s, until its timeout', async () => {
    await c.seed(node('node-2'), owned(runningPod('db-1', { node: 'node-2', labels: { app: 'db' } }), 'ReplicaSet', 'db-rs'), pdb('db', 'db', 1, { allowed: 0, healthy: 1, expected: 1 }));
    const r = await c.kubectl(['drain', 'node-2', '--ignore-daemonsets', '--grace-period=0', '--timeout=8s'], { timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('node/node-2 cordoned\nevicting pod default/db-1\n');
    const retries = r.stderr.split('\n').filter((l) => l.startsWith('error when evicting'));
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(retries[0]).toBe(`error when evicting pods/"db-1" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`);
    expect(r.stderr).toContain('There are pending pods in node "node-2" when an error occurred: error when evicting pods/"db-1" -n "default": global timeout reached: 8s');
    expect((await c.kubectl(['get', 'pod', 'db-1', '-o', 'name'])).stdout.trim()).toBe('pod/db-1');
  });
});

describe.skipIf(!run)('kubectl 1.32: priorityclasses and the Priority admission plugin', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('the two system classes exist from the start', async () => {
    expect(squash((await c.kubectl(['get', 'pc'])).stdout)).toEqual([
      'NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY',
      expect.stringMatching(/^system-cluster-critical 2000000000 false \d+s PreemptLowerPriority$/),
      expect.stringMatching(/^system-node-critical 2000001000 false \d+s PreemptLowerPriority$/),
    ]);
  });

  it('a pod gets its class’s priority, or the global default’s; an unknown class and a second default are forbidden', async () => {
    expect((await c.kubectl(['create', 'priorityclass', 'high', '--value=1000', '--preemption-policy=Never'])).stdout.trim()).toBe('priorityclass.scheduling.k8s.io/high created');
    expect((await c.kubectl(['create', 'priorityclass', 'normal', '--value=10', '--global-default'])).stdout.trim()).toBe('priorityclass.scheduling.k8s.io/normal created');
    const second = await c.kubectl(['create', 'priorityclass', 'other', '--value=20', '--global-default']);
    expect(second.stderr.trim()).toBe(
      'error: failed to create priorityclass: priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass normal is already marked as default. Only one default can exist',
    );

    const podYaml = (name: string, cls?: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n${cls ? `  priorityClassName: ${cls}\n` : ''}  containers: [{name: c, image: nginx}]\n`;
    await c.kubectl(['create', '-f', '-'], { stdin: podYaml('vip', 'high') });
    await c.kubectl(['create', '-f', '-'], { stdin: podYaml('plain') });
    const spec = async (name: string) => JSON.parse((await c.kubectl(['get', 'pod', name, '-o', 'json'])).stdout).spec;
    expect(await spec('vip')).toMatchObject({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
    expect(await spec('plain')).toMatchObject({ priorityClassName: 'normal', priority: 10, preemptionPolicy: 'PreemptLowerPriority' });

    const unknown = await c.kubectl(['create', '-f', '-'], { stdin: podYaml('lost', 'missing') });
    expect(unknown.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "lost" is forbidden: no PriorityClass with name missing was found');

    const sys = await c.kubectl(['create', 'priorityclass', 'system-mine', '--value=5']);
    expect(sys.stderr.trim()).toBe(
      `error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class`,
    );
  });
});

describe.skipIf(!run)('kubectl 1.32: limitranges and the LimitRanger admission plugin', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('get limits; a pod gets the defaults with the annotation; one over the max is forbidden', async () => {
    const created = await c.kubectl(['apply', '-f', '-'], {
      stdin:
        'apiVersion: v1\nkind: LimitRange\nmetadata: {name: cpu-mem}\nspec:\n  limits:\n  - type: Container\n    max: {cpu: "1"}\n    default: {cpu: 500m, memory: 128Mi}\n    defaultRequest: {cpu: 100m}\n',
    });
    expect(created.stdout.trim()).toBe('limitrange/cpu-mem created');
    expect(squash((await c.kubectl(['get', 'limits'])).stdout)).toEqual(['NAME CREATED AT', expect.stringMatching(/^cpu-mem \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)]);
    const stored = JSON.parse((await c.kubectl(['get', 'limits', 'cpu-mem', '-o', 'json'])).stdout);
    expect(stored.spec.limits[0].defaultRequest).toEqual({ cpu: '100m', memory: '128Mi' });

    await c.kubectl(['run', 'plain', '--image=nginx']);
    const pod = JSON.parse((await c.kubectl(['get', 'pod', 'plain', '-o', 'json'])).stdout);
    expect(pod.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(pod.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container plain; cpu, memory limit for container plain');

    const big = await c.kubectl(['run', 'big', '--image=nginx', '--overrides={"spec":{"containers":[{"name":"big","image":"nginx","resources":{"limits":{"cpu":"2"}}}]}}']);
    expect(big.stderr.trim()).toBe('Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
  });
});
