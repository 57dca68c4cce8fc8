import type { Lease, Node } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { waitFor } from '@kubelab/testing';
import { describe, expect, it } from 'vitest';
import { fakeEnv, type FakeEnv } from '../../testing/fakes.js';
import { computeZoneState, nodeHealth, noScheduleTaints, swapNoExecuteTaint, withTaints, zoneEvictionRate } from './decisions.js';
import { NodeLifecycleController } from './node-lifecycle-controller.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function node(
  ready?: 'True' | 'False' | 'Unknown',
  o: { heartbeat?: string; unschedulable?: boolean; pressure?: boolean; taints?: Node['spec'] extends infer S ? (S extends { taints?: infer T } ? T : never) : never } = {},
): Node {
  const hb = o.heartbeat ?? '2026-01-01T00:00:00Z';
  return {
    metadata: { name: 'n1', creationTimestamp: '2025-12-31T23:00:00Z' },
    spec: { ...(o.unschedulable ? { unschedulable: true } : {}), ...(o.taints ? { taints: o.taints } : {}) },
    status: {
      conditions: ready
        ? [
            { type: 'Ready', status: ready, reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: hb, lastTransitionTime: hb },
            { type: 'MemoryPressure', status: o.pressure ? 'True' : 'False', reason: 'KubeletHasSufficientMemory', message: '', lastHeartbeatTime: hb, lastTransitionTime: hb },
          ]
        : [],
    },
  };
}

const cfg = { monitorGraceMs: 50_000, startupGraceMs: 60_000 };

describe('node health', () => {
  it('is left alone within the grace period', () => {
    const first = nodeHealth({ node: node('True'), prev: undefined, leaseRenewTime: T0, now: T0, ...cfg });
    const r = nodeHealth({ node: node('True'), prev: first.health, leaseRenewTime: T0, now: T0 + 50_000, ...cfg });
    expect(r.conditions).toBeUndefined();
    expect(r.currentReady?.status).toBe('True');
  });
  it('goes Unknown once neither heartbeat nor lease moved for the grace period', () => {
    const first = nodeHealth({ node: node('True'), prev: undefined, leaseRenewTime: T0, now: T0, ...cfg });
    const r = nodeHealth({ node: node('True'), prev: first.health, leaseRenewTime: T0, now: T0 + 50_001, ...cfg });
    expect(r.observedReady.status).toBe('True');
    expect(r.currentReady).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: '2026-01-01T00:00:50Z' });
    expect(r.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=Unknown', 'MemoryPressure=Unknown', 'DiskPressure=Unknown', 'PIDPressure=Unknown']);
    expect(r.conditions?.find((c) => c.type === 'DiskPressure')).toMatchObject({ reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
  });
  it('a renewed lease keeps the node healthy even without status updates', () => {
    const first = nodeHealth({ node: node('True'), prev: undefined, leaseRenewTime: T0, now: T0, ...cfg });
    const mid = nodeHealth({ node: node('True'), prev: first.health, leaseRenewTime: T0 + 40_000, now: T0 + 40_000, ...cfg });
    expect(nodeHealth({ node: node('True'), prev: mid.health, leaseRenewTime: T0 + 40_000, now: T0 + 80_000, ...cfg }).conditions).toBeUndefined();
  });
  it('uses the startup grace period before the kubelet ever posted Ready', () => {
    const first = nodeHealth({ node: node(), prev: undefined, leaseRenewTime: undefined, now: T0, ...cfg });
    expect(first.conditions?.[0]).toMatchObject({ type: 'Ready', status: 'Unknown', reason: 'NodeStatusNeverUpdated' });
  });
});

describe('taints from conditions', () => {
  it.each([
    ['Ready=False', node('False'), ['node.kubernetes.io/not-ready:NoSchedule']],
    ['Ready=Unknown', node('Unknown'), ['node.kubernetes.io/unreachable:NoSchedule']],
    ['memory pressure', node('True', { pressure: true }), ['node.kubernetes.io/memory-pressure:NoSchedule']],
    ['cordoned', node('True', { unschedulable: true }), ['node.kubernetes.io/unschedulable:NoSchedule']],
  ])('%s', (_n, n, want) => {
    expect((noScheduleTaints(n, T0) ?? []).map((t) => `${t.key}:${t.effect}`)).toEqual(want);
  });
  it('removes a managed NoSchedule taint once the condition clears, keeping user taints', () => {
    const n = node('True', {
      taints: [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
        { key: 'dedicated', value: 'x', effect: 'NoSchedule' },
      ],
    });
    expect(noScheduleTaints(n, T0)).toEqual([{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }]);
    expect(noScheduleTaints(node('True'), T0)).toBeUndefined();
  });
  it('writes no spec.taints (not []) once the last taint goes (fake clientset)', async () => {
    const env = fakeEnv();
    const n: Node = { apiVersion: 'v1', kind: 'Node', ...node('True', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }) };
    n.spec = { ...n.spec, podCIDR: '10.244.1.0/24' };
    env.fake.seed(GVR.nodes, n);
    const c = new NodeLifecycleController(env.ctx);
    await env.sync();
    await c.sync('n1');
    expect(env.fake.actionLines()).toEqual(['update nodes n1']);
    expect(env.fake.peek<Node>(GVR.nodes, '', 'n1')?.spec).toEqual({ podCIDR: '10.244.1.0/24' });
    await env.stop();
  });
  it('withTaints keeps the other spec fields and sets or drops taints', () => {
    const n = node('True', { unschedulable: true, taints: [{ key: 'a', effect: 'NoSchedule' }] });
    expect(withTaints(n, []).spec).toEqual({ unschedulable: true });
    expect(withTaints(n, [{ key: 'b', effect: 'NoExecute' }]).spec).toEqual({ unschedulable: true, taints: [{ key: 'b', effect: 'NoExecute' }] });
    expect(n.spec?.taints).toEqual([{ key: 'a', effect: 'NoSchedule' }]);
  });
  it('swaps not-ready for unreachable NoExecute', () => {
    const n = node('Unknown', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] });
    expect(swapNoExecuteTaint(n, 'node.kubernetes.io/unreachable', ['node.kubernetes.io/not-ready'], T0)).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' },
    ]);
  });
});

describe('zone states', () => {
  it.each([
    [['True', 'True', 'Unknown'], 'Normal'],
    [['Unknown', 'Unknown'], 'FullDisruption'],
    [['True', 'Unknown', 'Unknown', 'Unknown'], 'PartialDisruption'],
    [['True', 'True', 'Unknown', 'Unknown'], 'Normal'],
  ])('%j → %s', (statuses, want) => expect(computeZoneState(statuses, 0.55).state).toBe(want));
  it('stops tainting in a partially disrupted small zone, slows in a large one', () => {
    const c = { nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, largeClusterSizeThreshold: 50 };
    expect(zoneEvictionRate('Normal', 3, c)).toBe(0.1);
    expect(zoneEvictionRate('PartialDisruption', 10, c)).toBe(0);
    expect(zoneEvictionRate('PartialDisruption', 100, c)).toBe(0.01);
  });
});

describe('NoExecute tainting rate (fake clientset)', () => {
  const T = Date.parse('2026-01-01T00:00:00Z');
  const ts = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
  const readyNode = (name: string): Node => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, creationTimestamp: ts(T - 3_600_000) },
    spec: {},
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: ts(T), lastTransitionTime: ts(T) }] },
  });
  const lease = (name: string, at: number): Lease => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date(at).toISOString().replace('Z', '000Z') },
  });
  const unreachableNoExecute = (env: FakeEnv) =>
    env.fake
      .objects<Node>(GVR.nodes)
      .filter((n) => (n.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'))
      .map((n) => n.metadata.name)
      .sort();

  it('taints the second silent node of a zone --node-eviction-rate later (0.1 nodes/s: 10 s), not at once', async () => {
    const env = fakeEnv({ nodeMonitorGracePeriodMs: 40_000, nodeEvictionRate: 0.1 });
    env.fake.seed(GVR.nodes, readyNode('n1'), readyNode('n2'), readyNode('n3'));
    env.fake.seed(GVR.leases, lease('n1', T), lease('n2', T), lease('n3', T));
    const c = new NodeLifecycleController(env.ctx);
    await env.sync();
    const nodes = env.ctx.informers.core.nodes().lister();
    await c.monitorNodeHealth();

    // n1 and n2 go silent; n3 keeps renewing its lease (the zone stays Normal: 2 of 3 down is not "partial").
    await env.clock.advance(41_000);
    const leases = env.fake.clientset.coordination.leases('kube-node-lease');
    const l3 = await leases.get('n3');
    await leases.update({ ...l3, spec: { ...l3.spec, renewTime: new Date(env.clock.now()).toISOString().replace('Z', '000Z') } });
    await waitFor('n3 renewal seen', async () =>
      env.ctx.informers.coordination.leases({ namespace: 'kube-node-lease' }).lister().namespace('kube-node-lease').get('n3')?.spec?.renewTime === (await leases.get('n3')).spec?.renewTime
        ? true
        : undefined,
    );
    await c.monitorNodeHealth();
    await waitFor('Unknown seen', async () => (['n1', 'n2'].every((n) => nodes.get(n)?.status?.conditions?.[0]?.status === 'Unknown') ? true : undefined));
    expect(nodes.get('n3')?.status?.conditions?.[0]?.status).toBe('True');

    // The next pass queues both for the unreachable taint; the zone's limiter lets one through now.
    await c.monitorNodeHealth();
    await env.clock.advance(0);
    await waitFor('first taint', async () => (unreachableNoExecute(env).length === 1 ? true : undefined));
    await env.clock.advance(9_000);
    expect(unreachableNoExecute(env)).toHaveLength(1);
    await env.clock.advance(1_000);
    await waitFor('second taint 10 s later', async () => (unreachableNoExecute(env).length === 2 ? true : undefined));
    expect(unreachableNoExecute(env)).toEqual(['n1', 'n2']);
    await env.stop();
  });
});
