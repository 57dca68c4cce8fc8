import { applyPatch, type Lease, type Node } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { waitFor } from '@kubelab/testing';
import { describe, expect, it } from 'vitest';
import { fakeEnv, type FakeEnv } from '../../testing/fakes.js';
import { computeZoneState, nodeHealth, noScheduleTaints, planDisruption, swapNoExecuteTaint, taintsPatch, zoneEvictionRate, type ZoneState } from './decisions.js';
import { RateLimitedTimedQueue } from './rate-limited-queue.js';
import { FakeClock } from '@kubelab/client/testing';
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
    expect(env.fake.actionLines()).toEqual(['patch nodes n1']);
    expect(env.fake.peek<Node>(GVR.nodes, '', 'n1')?.spec).toEqual({ podCIDR: '10.244.1.0/24' });
    await env.stop();
  });
  it('taintsPatch sends the whole taint list under the resourceVersion it was computed from (upstream PatchNodeTaints)', () => {
    const n = node('True', { unschedulable: true, taints: [{ key: 'a', effect: 'NoSchedule' }] });
    n.metadata.resourceVersion = '12';
    expect(taintsPatch(n, [])).toEqual({ metadata: { resourceVersion: '12' }, spec: { taints: null } });
    expect(taintsPatch(n, [{ key: 'b', effect: 'NoExecute' }])).toEqual({ metadata: { resourceVersion: '12' }, spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } });
    const patched = applyPatch('application/strategic-merge-patch+json', n, taintsPatch(n, [{ key: 'b', effect: 'NoExecute' }])) as Node;
    expect(patched.spec).toEqual({ unschedulable: true, taints: [{ key: 'b', effect: 'NoExecute' }] });
    expect(n.spec?.taints).toEqual([{ key: 'a', effect: 'NoSchedule' }]);
  });
  it('swaps not-ready for unreachable NoExecute', () => {
    const n = node('Unknown', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] });
    expect(swapNoExecuteTaint(n, 'node.kubernetes.io/unreachable', ['node.kubernetes.io/not-ready'], T0)).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' },
    ]);
  });
});

describe('zone states (ComputeZoneState, threshold 0.55)', () => {
  it.each([
    ['all Ready', ['True', 'True', 'True'], 'Normal', 0],
    ['1 of 3 not Ready', ['True', 'True', 'Unknown'], 'Normal', 1],
    ['none Ready', ['Unknown', 'Unknown'], 'FullDisruption', 2],
    ['a single node, not Ready', ['False'], 'FullDisruption', 1],
    ['no Ready condition at all counts as not Ready', [undefined, undefined], 'FullDisruption', 2],
    ['3 of 4 not Ready (75%)', ['True', 'Unknown', 'Unknown', 'Unknown'], 'PartialDisruption', 3],
    ['2 of 4 not Ready: 50% is below the threshold', ['True', 'True', 'Unknown', 'Unknown'], 'Normal', 2],
    ['2 of 3 not Ready: 67%, but at most 2 never count', ['True', 'Unknown', 'False'], 'Normal', 2],
    ['3 of 5 not Ready: 60%', ['True', 'True', 'False', 'Unknown', 'Unknown'], 'PartialDisruption', 3],
    ['55 of 100 not Ready: exactly the threshold', [...Array(45).fill('True'), ...Array(55).fill('Unknown')], 'PartialDisruption', 55],
    ['54 of 100 not Ready', [...Array(46).fill('True'), ...Array(54).fill('Unknown')], 'Normal', 54],
  ] as Array<[string, Array<string | undefined>, ZoneState, number]>)('%s → %s', (_n, statuses, state, notReady) => expect(computeZoneState(statuses, 0.55)).toEqual({ state, notReady }));
});

describe("a zone's tainting rate (setLimiterInZone)", () => {
  const c = { nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, largeClusterSizeThreshold: 50 };
  it.each([
    ['Normal', 3, 0.1],
    ['Normal', 500, 0.1],
    ['PartialDisruption', 10, 0],
    ['PartialDisruption', 50, 0],
    ['PartialDisruption', 51, 0.01],
    ['FullDisruption', 10, 0.1],
    ['FullDisruption', 100, 0.1],
  ] as Array<[ZoneState, number, number]>)('%s in a zone of %i nodes → %f nodes/s', (state, size, want) => expect(zoneEvictionRate(state, size, c)).toBe(want));
});

describe('handleDisruption (planDisruption)', () => {
  const c = { nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, largeClusterSizeThreshold: 4, unhealthyZoneThreshold: 0.55 };
  const R = 'True';
  const U = 'Unknown';
  const zones = (o: Record<string, string[]>) => new Map(Object.entries(o));
  const states = (o: Record<string, ZoneState>) => new Map(Object.entries(o));
  it.each([
    {
      name: 'first pass: new zones start Initial, then go Normal at the rate they already have',
      prev: {},
      zones: { a: [R, R], b: [R] },
      want: {
        mode: undefined,
        newZones: ['a', 'b'],
        changed: [
          { zone: 'a', state: 'Normal' },
          { zone: 'b', state: 'Normal' },
        ],
        limiters: { a: 0.1, b: 0.1 },
        states: { a: 'Normal', b: 'Normal' },
      },
    },
    {
      name: 'nothing changed: no rate is set',
      prev: { a: 'Normal', b: 'Normal' },
      zones: { a: [R, U], b: [R] },
      want: { mode: undefined, newZones: [], changed: [], limiters: {}, states: { a: 'Normal', b: 'Normal' } },
    },
    {
      name: 'a zone fully down while another is up: the normal rate',
      prev: { a: 'Normal', b: 'Normal' },
      zones: { a: [U, U], b: [R] },
      want: { mode: undefined, newZones: [], changed: [{ zone: 'a', state: 'FullDisruption' }], limiters: { a: 0.1 }, states: { a: 'FullDisruption', b: 'Normal' } },
    },
    {
      name: 'partial disruption (3 of 5) in a zone larger than --large-cluster-size-threshold (4): the secondary rate',
      prev: { a: 'Normal', b: 'Normal' },
      zones: { a: [R, R, U, U, U], b: [R] },
      want: { mode: undefined, newZones: [], changed: [{ zone: 'a', state: 'PartialDisruption' }], limiters: { a: 0.01 }, states: { a: 'PartialDisruption', b: 'Normal' } },
    },
    {
      name: 'partial disruption (3 of 4) in a zone of exactly the threshold: rate 0, no tainting',
      prev: { a: 'Normal', b: 'Normal' },
      zones: { a: [R, U, U, U], b: [R] },
      want: { mode: undefined, newZones: [], changed: [{ zone: 'a', state: 'PartialDisruption' }], limiters: { a: 0 }, states: { a: 'PartialDisruption', b: 'Normal' } },
    },
    {
      name: 'back to Normal: the normal rate again',
      prev: { a: 'PartialDisruption', b: 'Normal' },
      zones: { a: [R, R, R, U], b: [R] },
      want: { mode: undefined, newZones: [], changed: [{ zone: 'a', state: 'Normal' }], limiters: { a: 0.1 }, states: { a: 'Normal', b: 'Normal' } },
    },
    {
      name: 'every zone fully down: master disruption mode, rate 0 everywhere',
      prev: { a: 'PartialDisruption', b: 'Normal' },
      zones: { a: [U, U, U, U], b: [U] },
      want: { mode: 'enter', newZones: [], changed: [], limiters: { a: 0, b: 0 }, states: { a: 'FullDisruption', b: 'FullDisruption' } },
    },
    {
      name: 'still every zone down: nothing more',
      prev: { a: 'FullDisruption', b: 'FullDisruption' },
      zones: { a: [U, U], b: [U] },
      want: { mode: undefined, newZones: [], changed: [], limiters: {}, states: { a: 'FullDisruption', b: 'FullDisruption' } },
    },
    {
      name: 'one node back: leaving the mode sets every zone for its state',
      prev: { a: 'FullDisruption', b: 'FullDisruption' },
      zones: { a: [U, U, U, U], b: [R] },
      want: { mode: 'exit', newZones: [], changed: [], limiters: { a: 0.1, b: 0.1 }, states: { a: 'FullDisruption', b: 'Normal' } },
    },
    {
      name: 'leaving the mode into partial disruption of a large zone',
      prev: { a: 'FullDisruption', b: 'FullDisruption' },
      zones: { a: [R, R, U, U, U], b: [U] },
      want: { mode: 'exit', newZones: [], changed: [], limiters: { a: 0.01, b: 0.1 }, states: { a: 'PartialDisruption', b: 'FullDisruption' } },
    },
    {
      name: 'a single zone, all down, is master disruption mode too',
      prev: { a: 'Normal' },
      zones: { a: [U, U] },
      want: { mode: 'enter', newZones: [], changed: [], limiters: { a: 0 }, states: { a: 'FullDisruption' } },
    },
    {
      name: 'a zone whose nodes are gone is forgotten',
      prev: { a: 'Normal', gone: 'FullDisruption' },
      zones: { a: [R] },
      want: { mode: undefined, newZones: [], changed: [], limiters: {}, states: { a: 'Normal' } },
    },
  ] as Array<{
    name: string;
    prev: Record<string, ZoneState>;
    zones: Record<string, string[]>;
    want: { mode: string | undefined; newZones: string[]; changed: unknown[]; limiters: Record<string, number>; states: Record<string, ZoneState> };
  }>)('$name', ({ prev, zones: z, want }) => {
    const p = planDisruption(states(prev), zones(z), c);
    expect({ mode: p.mode, newZones: p.newZones, changed: p.changed, limiters: Object.fromEntries(p.limiters), states: Object.fromEntries(p.states) }).toEqual(want);
  });
});

describe('the per-zone tainting queue (RateLimitedTimedQueue)', () => {
  const drain = async (q: RateLimitedTimedQueue) => {
    const done: string[] = [];
    await q.work(async (v) => {
      done.push(v);
      return { done: true };
    });
    return done;
  };
  it('takes one node per token: burst 1, then one per 1/qps seconds', async () => {
    const clock = new FakeClock();
    const q = new RateLimitedTimedQueue(0.5, clock);
    for (const n of ['n1', 'n2', 'n3']) q.add(n);
    expect(await drain(q)).toEqual(['n1']);
    await clock.advance(1_999);
    expect(await drain(q)).toEqual([]);
    await clock.advance(1);
    expect(await drain(q)).toEqual(['n2']);
    await clock.advance(2_000);
    expect(await drain(q)).toEqual(['n3']);
  });
  it('keeps a processed node in the set: it is not queued again until removed', async () => {
    const clock = new FakeClock();
    const q = new RateLimitedTimedQueue(1, clock);
    q.add('n1');
    await drain(q);
    expect(q.add('n1')).toBe(false);
    expect(q.remove('n1')).toBe(true);
    expect(q.add('n1')).toBe(true);
  });
  it('qps 0 takes nothing; a new rate after it starts with an empty bucket (SwapLimiter drains)', async () => {
    const clock = new FakeClock();
    const q = new RateLimitedTimedQueue(1, clock);
    q.swapLimiter(0);
    q.add('n1');
    await clock.advance(60_000);
    expect(await drain(q)).toEqual([]);
    q.swapLimiter(0.1);
    expect(await drain(q)).toEqual([]);
    await clock.advance(10_000);
    expect(await drain(q)).toEqual(['n1']);
  });
  it('a swap while a token is there keeps it (the new bucket starts full)', async () => {
    const clock = new FakeClock();
    const q = new RateLimitedTimedQueue(1, clock);
    q.swapLimiter(0.01);
    q.add('n1');
    expect(await drain(q)).toEqual(['n1']);
  });
  it('an action that fails puts the node back after its wait', async () => {
    const clock = new FakeClock();
    const q = new RateLimitedTimedQueue(100, clock);
    q.add('n1');
    let calls = 0;
    const flaky = () => q.work(async () => (++calls === 1 ? { done: false, retryMs: 50 } : { done: true }));
    await flaky();
    expect(calls).toBe(1);
    expect(q.queued()).toEqual(['n1']);
    await clock.advance(60);
    await flaky();
    expect(calls).toBe(2);
    expect(q.queued()).toEqual([]);
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
    await c.doNoExecuteTaintingPass();
    await waitFor('first taint', async () => (unreachableNoExecute(env).length === 1 ? true : undefined));
    await env.clock.advance(9_000);
    await c.doNoExecuteTaintingPass();
    expect(unreachableNoExecute(env)).toHaveLength(1);
    await env.clock.advance(1_000);
    await c.doNoExecuteTaintingPass();
    await waitFor('second taint 10 s later', async () => (unreachableNoExecute(env).length === 2 ? true : undefined));
    expect(unreachableNoExecute(env)).toEqual(['n1', 'n2']);
    expect(env.recorder.events.filter((e) => e.includes('NodeNotReady'))).toEqual([
      'Normal NodeNotReady Node n1 status is now: NodeNotReady',
      'Normal NodeNotReady Node n2 status is now: NodeNotReady',
    ]);
    await env.stop();
  });

  it('lifts the taints and taints no more once every zone is down (master disruption mode), and counts no excluded node', async () => {
    const env = fakeEnv({ nodeMonitorGracePeriodMs: 40_000, nodeEvictionRate: 1 });
    const inZone = (name: string, zone: string): Node => {
      const n = readyNode(name);
      n.metadata.labels = { 'topology.kubernetes.io/zone': zone };
      return n;
    };
    // The control-plane node keeps renewing, but node.kubernetes.io/exclude-disruption keeps it out of every zone's state.
    const cp = readyNode('cp');
    cp.metadata.labels = { 'node.kubernetes.io/exclude-disruption': '' };
    env.fake.seed(GVR.nodes, inZone('a1', 'zone-a'), inZone('a2', 'zone-a'), inZone('b1', 'zone-b'), cp);
    env.fake.seed(GVR.leases, lease('a1', T), lease('a2', T), lease('b1', T), lease('cp', T));
    const c = new NodeLifecycleController(env.ctx);
    await env.sync();
    const nodes = env.ctx.informers.core.nodes().lister();
    const leaseLister = env.ctx.informers.coordination.leases({ namespace: 'kube-node-lease' }).lister().namespace('kube-node-lease');
    const leases = env.fake.clientset.coordination.leases('kube-node-lease');
    const renew = async (names: string[]) => {
      for (const name of names) {
        const l = await leases.get(name);
        const at = new Date(env.clock.now()).toISOString().replace('Z', '000Z');
        await leases.update({ ...l, spec: { ...l.spec, renewTime: at } });
        await waitFor(`${name} renewal seen`, async () => (leaseLister.get(name)?.spec?.renewTime === at ? true : undefined));
      }
    };
    const unknown = (names: string[]) => waitFor(`${names} Unknown`, async () => (names.every((n) => nodes.get(n)?.status?.conditions?.[0]?.status === 'Unknown') ? true : undefined));
    await c.monitorNodeHealth();
    expect(Object.fromEntries(c.states())).toEqual({ ':\x00:zone-a': 'Normal', ':\x00:zone-b': 'Normal' });

    // zone-a goes down, zone-b stays: zone-a is fully disrupted and tainted at the normal rate.
    await env.clock.advance(41_000);
    await renew(['b1', 'cp']);
    await c.monitorNodeHealth();
    await unknown(['a1', 'a2']);
    expect(Object.fromEntries(c.states())).toEqual({ ':\x00:zone-a': 'FullDisruption', ':\x00:zone-b': 'Normal' });
    await c.monitorNodeHealth();
    await c.doNoExecuteTaintingPass();
    await waitFor('a1 tainted', async () => (unreachableNoExecute(env).length === 1 ? true : undefined));

    // Then zone-b too: every zone is down, the taint is lifted and none is added.
    await env.clock.advance(41_000);
    await renew(['cp']);
    await c.monitorNodeHealth();
    await unknown(['b1']);
    await waitFor('taints lifted', async () => (unreachableNoExecute(env).length === 0 ? true : undefined));
    for (let i = 0; i < 5; i++) {
      await env.clock.advance(1_000);
      await renew(['cp']);
      await c.monitorNodeHealth();
      await c.doNoExecuteTaintingPass();
    }
    expect(unreachableNoExecute(env)).toEqual([]);
    expect(Object.fromEntries(c.states())).toEqual({ ':\x00:zone-a': 'FullDisruption', ':\x00:zone-b': 'FullDisruption' });
    await env.stop();
  });
});
