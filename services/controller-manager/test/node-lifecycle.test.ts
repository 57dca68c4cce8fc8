// Node lifecycle against a real apiserver with shortened flags: a node whose
// Lease stops being renewed gets Unknown conditions and the unreachable
// taint after the grace period (not before), its pods are marked not ready
// and evicted when their toleration runs out; renewing again clears it all.
// A node whose kubelet reports Ready=False gets the not-ready taint.

import type { Lease, Node, Pod } from '@kubelab/api';
import { formatMicroTime, type Clientset } from '@kubelab/client';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnv, type Env } from '../src/testing/harness.js';

const hasNats = requireTool('nats-server');
const GRACE_MS = 1500;
const PERIOD_MS = 200;

const nowTime = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

async function registerNode(cs: Clientset, name: string): Promise<void> {
  const created = await cs.core.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {} });
  await postStatus(cs, created, 'True');
}

/** What the kubelet's status manager posts. */
async function postStatus(cs: Clientset, node: Node, ready: 'True' | 'False'): Promise<Node> {
  const cur = await cs.core.nodes().get(node.metadata.name ?? '');
  const t = nowTime();
  const cond = (type: string, status: 'True' | 'False', reason: string) => ({ type, status, reason, message: reason, lastHeartbeatTime: t, lastTransitionTime: t });
  cur.status = {
    ...(cur.status ?? {}),
    conditions: [
      cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
      cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
      cond('PIDPressure', 'False', 'KubeletHasSufficientPID'),
      cond('Ready', ready, ready === 'True' ? 'KubeletReady' : 'KubeletNotReady'),
    ],
  };
  return cs.core.nodes().updateStatus(cur);
}

/** The kubelet's node lease controller, driven by the test. */
class LeaseRenewer {
  private timers = new Map<string, NodeJS.Timeout>();
  constructor(private readonly cs: Clientset) {}
  async start(node: string): Promise<void> {
    const leases = this.cs.coordination.leases('kube-node-lease');
    const renew = async () => {
      try {
        const l = await leases.get(node);
        l.spec = { ...(l.spec ?? {}), renewTime: formatMicroTime(Date.now()) };
        await leases.update(l);
      } catch {
        await leases
          .create({
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: node, namespace: 'kube-node-lease' },
            spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime: formatMicroTime(Date.now()) },
          } as Lease)
          .catch(() => undefined);
      }
    };
    await renew();
    this.timers.set(
      node,
      setInterval(() => void renew(), 100),
    );
  }
  stop(node: string): void {
    clearInterval(this.timers.get(node));
    this.timers.delete(node);
  }
  stopAll(): void {
    for (const n of [...this.timers.keys()]) this.stop(n);
  }
}

describe.skipIf(!hasNats)('node lifecycle with an apiserver', () => {
  let env: Env;
  let leases: LeaseRenewer;

  beforeAll(async () => {
    env = await startEnv();
    leases = new LeaseRenewer(env.cs);
    for (const n of ['node-1', 'node-2', 'node-3']) {
      await registerNode(env.cs, n);
      await leases.start(n);
    }
    await env.startCm({
      config: {
        controllers: ['node-lifecycle-controller', 'taint-eviction-controller'],
        nodeMonitorPeriodMs: PERIOD_MS,
        nodeMonitorGracePeriodMs: GRACE_MS,
        nodeStartupGracePeriodMs: GRACE_MS,
        nodeEvictionRate: 100,
      },
    });
  });

  afterAll(async () => {
    leases?.stopAll();
    await env?.cleanup();
  });

  const node = (n: string) => env.cs.core.nodes().get(n);
  const cond = (n: Node, t: string) => n.status?.conditions?.find((c) => c.type === t);
  const taintKeys = (n: Node) => (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

  async function runningPod(name: string, nodeName: string, tolerationSeconds: number): Promise<Pod> {
    const p = await env.cs.core.pods('default').create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: {
        nodeName,
        containers: [{ name: 'c', image: 'nginx' }],
        tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds },
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds },
        ],
      },
    });
    p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: nowTime() }] };
    return env.cs.core.pods('default').updateStatus(p);
  }

  it('marks a silent node Unknown and unreachable after the grace period, evicts its pods, and recovers', async () => {
    await waitFor('RegisteredNode event', async () => (await env.cs.core.events('default').list()).items.find((e) => e.reason === 'RegisteredNode' && e.involvedObject.name === 'node-1')).then((e) =>
      expect(e.message).toBe('Node node-1 event: Registered Node node-1 in Controller'),
    );
    const shortLived = await runningPod('short', 'node-1', 1);
    await runningPod('long', 'node-1', 3600);

    const stoppedAt = Date.now();
    leases.stop('node-1');
    const unknownAt = await waitFor('node-1 Ready=Unknown', async () => (cond(await node('node-1'), 'Ready')?.status === 'Unknown' ? Date.now() : undefined), { timeoutMs: 10_000 });
    expect(unknownAt - stoppedAt).toBeGreaterThanOrEqual(GRACE_MS);
    const n1 = await node('node-1');
    for (const t of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      expect(cond(n1, t)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    }
    // the other nodes are untouched
    expect(cond(await node('node-2'), 'Ready')?.status).toBe('True');

    const tainted = await waitFor('unreachable NoExecute taint', async () => {
      const n = await node('node-1');
      return taintKeys(n).includes('node.kubernetes.io/unreachable:NoExecute') ? n : undefined;
    });
    expect(taintKeys(tainted)).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);

    // pods on it are no longer ready (MarkPodsNotReady)
    await waitFor('long not ready', async () => ((await env.cs.core.pods('default').get('long')).status?.conditions?.find((c) => c.type === 'Ready')?.status === 'False' ? true : undefined));
    // the 1 s toleration runs out: DisruptionTarget + deletion; the long one stays
    const evicted = await waitFor('short evicted', async () => {
      const p = await env.cs.core.pods('default').get('short');
      return p.metadata.deletionTimestamp ? p : undefined;
    });
    expect(evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    expect((await env.cs.core.pods('default').get('long')).metadata.deletionTimestamp).toBeUndefined();
    const events = (await env.cs.core.events('default').list()).items;
    expect(events.find((e) => e.reason === 'TaintManagerEviction' && e.involvedObject.name === 'short')?.message).toBe('Marking for deletion Pod default/short');
    expect(events.find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node')?.message).toBe('Node node-1 status is now: NodeNotReady');
    expect(events.find((e) => e.reason === 'NodeNotReady' && e.involvedObject.name === 'long')?.message).toBe('Node is not ready');
    void shortLived;

    // the kubelet comes back: lease renewed, Ready posted
    await leases.start('node-1');
    await postStatus(env.cs, await node('node-1'), 'True');
    const back = await waitFor('taints gone', async () => {
      const n = await node('node-1');
      return taintKeys(n).length === 0 ? n : undefined;
    });
    expect(cond(back, 'Ready')?.status).toBe('True');
    await waitFor('eviction cancelled event', async () =>
      (await env.cs.core.events('default').list()).items.find(
        (e) => e.reason === 'TaintManagerEviction' && e.involvedObject.name === 'long' && e.message === 'Cancelling deletion of Pod default/long',
      ),
    );
  });

  it('taints a node whose kubelet reports Ready=False not-ready', async () => {
    await postStatus(env.cs, await node('node-2'), 'False');
    const n = await waitFor('not-ready NoExecute', async () => {
      const x = await node('node-2');
      return taintKeys(x).includes('node.kubernetes.io/not-ready:NoExecute') ? x : undefined;
    });
    expect(taintKeys(n)).toEqual(['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/not-ready:NoSchedule']);
    expect(cond(n, 'Ready')?.status).toBe('False');
    await postStatus(env.cs, n, 'True');
    await waitFor('not-ready taints gone', async () => (taintKeys(await node('node-2')).length === 0 ? true : undefined));
  });
});
