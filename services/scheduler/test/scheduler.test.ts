// kube-scheduler against a real apiserver on a real nats-server: placement
// decisions, the events users read in `kubectl describe pod`, and leader
// failover between two replicas.

import type { Event, Lease, Node } from '@kubelab/api';
import { createClientset, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { startTestCluster, type TestCluster } from '@kubelab/apiserver/testing';
import { requireTool, secureGet, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler, type RunningScheduler } from '../src/server.js';
import { makeNode, makePod, type NodeOpts, type PodOpts } from '../src/testing/builders.js';
import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';

const hasNats = requireTool('nats-server');
const quiet = () => createLogger({ component: 'kube-scheduler', level: 'error' });

async function createNode(cs: Clientset, name: string, o: NodeOpts = {}): Promise<Node> {
  const n = makeNode(name, o);
  const created = await cs.core.nodes().create(n);
  // Status is the kubelet's to write: set allocatable through the status subresource too.
  return cs.core.nodes().updateStatus({ ...created, status: n.status! });
}

const createPod = (cs: Clientset, name: string, o: PodOpts = {}) => {
  const p = makePod(name, o);
  delete p.metadata.uid;
  delete p.status;
  return cs.core.pods('default').create(p);
};

const nodeOf = (cs: Clientset, name: string) => waitFor(`pod ${name} to be bound`, async () => (await cs.core.pods('default').get(name)).spec?.nodeName || undefined);

async function eventsFor(cs: Clientset, pod: string, reason: string): Promise<Event[]> {
  const list = await cs.core.events('default').list();
  return list.items.filter((e) => e.involvedObject.name === pod && e.reason === reason);
}

const eventMessage = (cs: Clientset, pod: string, reason: string) => waitFor(`${reason} event for ${pod}`, async () => (await eventsFor(cs, pod, reason))[0]?.message);

// Integration steps wait on real watches: generous timeouts for a loaded 2-core machine.
describe.skipIf(!hasNats)('kube-scheduler with an apiserver', { timeout: 30_000 }, () => {
  let cluster: TestCluster;
  let cs: Clientset;
  let sched: RunningScheduler;
  const decisions: SchedulingDecisionRecord[] = [];

  beforeAll(async () => {
    cluster = await startTestCluster();
    cs = createClientset({ ...cluster.clientConfig, component: 'scheduler-test' });
    await createNode(cs, 'node-1', { cpu: '2', memory: '4Gi' });
    await createNode(cs, 'node-2', { cpu: '2', memory: '4Gi', labels: { zone: 'a' } });
    await createNode(cs, 'node-3', { cpu: '2', memory: '4Gi', labels: { accelerator: 'gpu' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    sched = await startScheduler({
      apiserverAddress: cluster.grpcAddress,
      apiserverTls: (await cluster.clientConfigFor({ commonName: 'system:kube-scheduler' })).tls,
      securePort: 0,
      bindAddress: '127.0.0.1',
      leaderElect: false,
      logger: quiet(),
      decisions: (r) => decisions.push(r),
    });
    await waitFor('scheduler ready', async () => ((await secureGet(sched.healthPort, '/readyz')).status === 200 ? true : undefined));
  }, 30_000);

  afterAll(async () => {
    await sched?.stop();
    cs?.close();
    await cluster?.cleanup();
  });

  it('binds a pod through pods/binding and records Scheduled', async () => {
    await createPod(cs, 'web', { cpu: '100m' });
    const node = await nodeOf(cs, 'web');
    expect(['node-1', 'node-2']).toContain(node);
    expect(await eventMessage(cs, 'web', 'Scheduled')).toBe(`Successfully assigned default/web to ${node}`);
    const ev = (await eventsFor(cs, 'web', 'Scheduled'))[0]!;
    expect(ev.source?.component).toBe('default-scheduler');
    expect(ev.type).toBe('Normal');
  });

  it('places tolerating pods on the tainted node and explains the others', async () => {
    await createPod(cs, 'gpu-ok', {
      cpu: '100m',
      nodeSelector: { accelerator: 'gpu' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    });
    expect(await nodeOf(cs, 'gpu-ok')).toBe('node-3');
    await createPod(cs, 'gpu-no', { cpu: '100m', nodeSelector: { accelerator: 'gpu' } });
    expect(await eventMessage(cs, 'gpu-no', 'FailedScheduling')).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match Pod's node affinity/selector. " +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    const pod = await waitFor('PodScheduled=False', async () => {
      const p = await cs.core.pods('default').get('gpu-no');
      return p.status?.conditions?.some((c) => c.type === 'PodScheduled') ? p : undefined;
    });
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: expect.stringContaining('1 node(s) had untolerated taint {dedicated: gpu}'),
    });
  });

  it('does not overcommit a node during a burst, and says why the rest wait', async () => {
    // node-1 and node-2 have 2 cpu each, minus what earlier tests placed (100m): 700m pods fit 2 per node.
    const names = Array.from({ length: 6 }, (_, i) => `burst-${i}`);
    await Promise.all(names.map((n) => createPod(cs, n, { cpu: '700m' })));
    const placed = await waitFor('four burst pods bound and two rejected', async () => {
      const pods = (await cs.core.pods('default').list()).items.filter((p) => p.metadata.name!.startsWith('burst-'));
      const bound = pods.filter((p) => p.spec?.nodeName);
      const failed = await Promise.all(pods.filter((p) => !p.spec?.nodeName).map((p) => eventsFor(cs, p.metadata.name!, 'FailedScheduling')));
      return bound.length === 4 && failed.length === 2 && failed.every((f) => f.length > 0) ? { bound, failed } : undefined;
    });
    const perNode = new Map<string, number>();
    for (const p of placed.bound) perNode.set(p.spec!.nodeName!, (perNode.get(p.spec!.nodeName!) ?? 0) + 1);
    expect(Object.fromEntries(perNode)).toEqual({ 'node-1': 2, 'node-2': 2 });
    expect(placed.failed[0]![0]!.message).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });

  it('retries a waiting pod when an assigned pod is deleted', async () => {
    const pods = () =>
      cs.core
        .pods('default')
        .list()
        .then((l) => l.items.filter((p) => p.metadata.name!.startsWith('burst-')));
    const waiting = (await pods()).filter((p) => !p.spec?.nodeName).map((p) => p.metadata.name!);
    expect(waiting).toHaveLength(2);
    const victim = (await pods()).find((p) => p.spec?.nodeName)!;
    await cs.core.pods('default').delete(victim.metadata.name!, { gracePeriodSeconds: 0 });
    // Both waiting pods are retried; the one freed slot goes to exactly one of them.
    const boundNow = await waitFor('one waiting pod bound to the freed node', async () => {
      const now = (await pods()).filter((p) => waiting.includes(p.metadata.name!) && p.spec?.nodeName);
      return now.length > 0 ? now : undefined;
    });
    expect(boundNow.map((p) => p.spec!.nodeName)).toEqual([victim.spec!.nodeName]);
  });

  it('keeps new pods off a cordoned node and schedules them once it is uncordoned', async () => {
    for (const n of ['node-1', 'node-2']) await cs.core.nodes().patch(n, 'merge', { spec: { unschedulable: true } });
    // The scheduler reads nodes from its watch: on a loaded machine the cordon may reach it after the pod would (and the pod would be bound).
    await waitFor('the scheduler sees both nodes cordoned', async () => (['node-1', 'node-2'].every((n) => sched.scheduler.cache.get(n)?.node?.spec?.unschedulable === true) ? true : undefined));
    try {
      await createPod(cs, 'cordoned', { cpu: '100m' });
      expect(await eventMessage(cs, 'cordoned', 'FailedScheduling')).toBe(
        '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) were unschedulable. ' +
          'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      );
      await cs.core.nodes().patch('node-2', 'merge', { spec: { unschedulable: false } });
      expect(await nodeOf(cs, 'cordoned')).toBe('node-2');
    } finally {
      // Uncordoned whatever happened: the tests after this one schedule onto these nodes.
      for (const n of ['node-1', 'node-2']) await cs.core.nodes().patch(n, 'merge', { spec: { unschedulable: false } });
    }
  });

  it('prefers nodes matching preferred node affinity', async () => {
    // node-2 carries zone=a since its creation, so the scheduler's cache has it (a label patched just now might not be seen yet).
    await createPod(cs, 'prefers-a', {
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } }] } },
    });
    expect(await nodeOf(cs, 'prefers-a')).toBe('node-2');
  });

  it('leaves pods for other schedulers and pods that name their node alone', async () => {
    await createPod(cs, 'other', { schedulerName: 'my-scheduler' });
    await createPod(cs, 'pinned', { nodeName: 'node-2' });
    await createPod(cs, 'marker', {});
    await nodeOf(cs, 'marker');
    expect((await cs.core.pods('default').get('other')).spec?.nodeName).toBeUndefined();
    expect(await eventsFor(cs, 'other', 'FailedScheduling')).toEqual([]);
    expect(await eventsFor(cs, 'pinned', 'Scheduled')).toEqual([]);
  });

  it('hands on a decision record per cycle: the one feasible node, the others with their Filter reasons', async () => {
    const created = await createPod(cs, 'zoned', { cpu: '100m', nodeSelector: { zone: 'a' } });
    expect(await nodeOf(cs, 'zoned')).toBe('node-2');
    const rec = await waitFor('the decision record of zoned', async () => decisions.find((r) => r.name === 'zoned'));
    expect(rec).toMatchObject({ namespace: 'default', uid: created.metadata.uid, result: 'Scheduled', node: 'node-2', numAllNodes: 3, feasibleNodes: 1, omittedNodes: 0 });
    const reasonOf = (node: string) => rec.nodes.find((n) => n.name === node)?.rejectedBy;
    expect(rec.nodes.find((n) => n.name === 'node-2')).toEqual({ name: 'node-2', verdict: 'feasible' });
    expect(reasonOf('node-1')).toEqual({ plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] });
    expect(reasonOf('node-3')).toEqual({ plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint {dedicated: gpu}'] });
  });

  it('serves metrics with upstream names', async () => {
    // The test apiserver authorizes AlwaysAllow: the SubjectAccessReview for /metrics allows anyone.
    const { body } = await secureGet(sched.healthPort, '/metrics');
    expect(body).toMatch(/scheduler_schedule_attempts_total\{result="scheduled",profile="default-scheduler"\} \d+/);
    expect(body).toMatch(/scheduler_schedule_attempts_total\{result="unschedulable",profile="default-scheduler"\} \d+/);
    expect(body).toContain('scheduler_pending_pods{queue="unschedulable"}');
    expect(body).toContain('scheduler_scheduling_attempt_duration_seconds_bucket');
    expect(body).toMatch(/^scheduler_pod_scheduling_duration_seconds_count\{attempts="1"\} [1-9]\d*$/m);
    // --leader-elect=false: no elector, so no leader election status (as upstream).
    expect(body).not.toMatch(/^leader_election_master_status\{/m);
    expect((await secureGet(sched.healthPort, '/healthz')).status).toBe(200);
  });
});

describe.skipIf(!hasNats)('kube-scheduler in a cluster without nodes', { timeout: 30_000 }, () => {
  let cluster: TestCluster;
  let cs: Clientset;
  let sched: RunningScheduler;

  beforeAll(async () => {
    cluster = await startTestCluster();
    cs = createClientset({ ...cluster.clientConfig, component: 'scheduler-test' });
    sched = await startScheduler({
      apiserverAddress: cluster.grpcAddress,
      apiserverTls: (await cluster.clientConfigFor({ commonName: 'system:kube-scheduler' })).tls,
      securePort: 0,
      bindAddress: '127.0.0.1',
      leaderElect: false,
      logger: quiet(),
    });
  }, 30_000);

  afterAll(async () => {
    await sched?.stop();
    cs?.close();
    await cluster?.cleanup();
  });

  it('says no nodes are available (reason Unschedulable, as upstream) and places the pod once a node registers', async () => {
    await createPod(cs, 'early', {});
    expect(await eventMessage(cs, 'early', 'FailedScheduling')).toBe('no nodes available to schedule pods');
    const cond = await waitFor('PodScheduled=False', async () => (await cs.core.pods('default').get('early')).status?.conditions?.find((c) => c.type === 'PodScheduled'));
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable', message: 'no nodes available to schedule pods' });
    await createNode(cs, 'late');
    expect(await nodeOf(cs, 'early')).toBe('late');
  });
});

describe.skipIf(!hasNats)('kube-scheduler leader election', () => {
  let cluster: TestCluster;
  let cs: Clientset;
  const running: RunningScheduler[] = [];

  beforeAll(async () => {
    cluster = await startTestCluster();
    cs = createClientset({ ...cluster.clientConfig, component: 'scheduler-test' });
    await createNode(cs, 'node-1');
  }, 30_000);

  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()));
    cs?.close();
    await cluster?.cleanup();
  });

  it('one replica schedules; the other takes over after the leader dies', async () => {
    const lease = { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 250 };
    const start = async (identity: string) =>
      startScheduler({
        apiserverAddress: cluster.grpcAddress,
        apiserverTls: (await cluster.clientConfigFor({ commonName: 'system:kube-scheduler' })).tls,
        securePort: 0,
        bindAddress: '127.0.0.1',
        logger: quiet(),
        identity,
        releaseOnCancel: false,
        ...lease,
      });
    const a = await start('scheduler-a');
    running.push(a);
    await waitFor('a to lead', async () => (a.isLeader() ? true : undefined));
    const b = await start('scheduler-b');
    running.push(b);
    await createPod(cs, 'first', {});
    await nodeOf(cs, 'first');
    expect(b.isLeader()).toBe(false);
    const held = await cs.coordination.leases('kube-system').get('kube-scheduler');
    expect(held.spec?.holderIdentity).toBe('scheduler-a');
    const masterStatus = async (r: RunningScheduler) => /^leader_election_master_status\{name="kube-scheduler"\} (\d)$/m.exec((await secureGet(r.healthPort, '/metrics')).body)?.[1];
    expect(await masterStatus(a)).toBe('1');
    expect(await masterStatus(b)).toBe('0');

    // The leader dies without releasing its lease.
    const died = Date.now();
    await a.stop();
    await createPod(cs, 'second', {});
    await waitFor('b to lead', async () => (b.isLeader() ? true : undefined), { timeoutMs: 10_000 });
    const tookOver = Date.now() - died;
    expect(tookOver).toBeGreaterThanOrEqual(1000);
    expect(await nodeOf(cs, 'second')).toBe('node-1');
    const now: Lease = await cs.coordination.leases('kube-system').get('kube-scheduler');
    expect(now.spec?.holderIdentity).toBe('scheduler-b');
    expect(now.spec?.leaseTransitions).toBe(1);
    expect(await masterStatus(b)).toBe('1');
  }, 30_000);
});
