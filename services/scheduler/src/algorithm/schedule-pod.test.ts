import type { Node, Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { CycleState } from '../framework/cycle-state.js';
import type { ClusterActions } from '../framework/handle.js';
import { defaultProfile } from '../framework/profile.js';
import { Registry } from '../framework/registry.js';
import { Framework } from '../framework/runtime.js';
import { newInTreeRegistry } from '../plugins/registry.js';
import { boundPod, makeNode, makePod } from '../testing/builders.js';
import { newAlgorithmState, numFeasibleNodesToFind, schedulePod, selectHost } from './schedule-pod.js';

function setup(nodes: Node[], pods: Pod[] = [], actions: ClusterActions = {}) {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  for (const p of pods) cache.addPod(p);
  const fwk = new Framework(newInTreeRegistry(), defaultProfile(), cache, actions);
  return { cache, fwk, algo: newAlgorithmState(() => 0.5) };
}

async function failureMessage(nodes: Node[], pods: Pod[], pod: Pod): Promise<string> {
  const { cache, fwk, algo } = setup(nodes, pods);
  const state = new CycleState();
  const out = schedulePod(fwk, algo, state, pod, cache.list());
  if (out.ok || !('fitError' in out)) throw new Error(`expected a FitError, got ${JSON.stringify(out)}`);
  const post = await fwk.runPostFilterPlugins(state, pod, out.fitError.diagnosis.nodeToStatus);
  out.fitError.diagnosis.postFilterMsg = post.status.message();
  return out.fitError.error();
}

describe('numFeasibleNodesToFind', () => {
  const cases: [number, number, number][] = [
    // [percentage, nodes, want]
    [0, 10, 10],
    [0, 99, 99],
    [0, 100, 100],
    [0, 1000, 420], // 50 - 8 = 42%
    [0, 5000, 500], // 50 - 40 = 10%
    [0, 6000, 300], // 50 - 48 = 2% → floor 5%
    [0, 1500, 570], // 38%
    [10, 500, 100], // 50 → at least 100
    [100, 5000, 5000],
  ];
  for (const [pct, n, want] of cases) it(`${pct}% of ${n} nodes → ${want}`, () => expect(numFeasibleNodesToFind(pct, n)).toBe(want));
});

describe('FailedScheduling summary', () => {
  it('lists reasons by count, sorted as strings, with the preemption half', async () => {
    const nodes = [makeNode('node-1', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }), makeNode('node-2', { cpu: '1' }), makeNode('node-3', { cpu: '1' })];
    const existing = [boundPod('a', 'node-2', { cpu: '800m' }), boundPod('b', 'node-3', { cpu: '800m' })];
    expect(await failureMessage(nodes, existing, makePod('x', { cpu: '500m' }))).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });

  it('says preemption is not helpful when every rejection is unresolvable', async () => {
    const nodes = [makeNode('node-1', { unschedulable: true }), makeNode('node-2', { labels: { disk: 'hdd' } }), makeNode('node-3', { labels: { disk: 'hdd' } })];
    expect(await failureMessage(nodes, [], makePod('x', { nodeSelector: { disk: 'ssd' } }))).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. " +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it('counts every reason of a node and sorts "10 …" before "2 …" as upstream does', async () => {
    const nodes = [...Array.from({ length: 10 }, (_, i) => makeNode(`m${i}`, { cpu: '1', memory: '1Gi' })), ...Array.from({ length: 2 }, (_, i) => makeNode(`p${i}`, { pods: '0' }))];
    const msg = await failureMessage(nodes, [], makePod('x', { cpu: '2', memory: '2Gi', schedulerName: 'default-scheduler' }));
    expect(msg).toBe(
      '0/12 nodes are available: 10 Insufficient cpu, 10 Insufficient memory, 2 Too many pods. ' +
        'preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });

  it('explains a pod that refuses to preempt', async () => {
    const pod = makePod('x', { cpu: '2' });
    pod.spec!.preemptionPolicy = 'Never';
    expect(await failureMessage([makeNode('n', { cpu: '3' })], [boundPod('a', 'n', { cpu: '2' })], pod)).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('reports nodes a PreFilter left out (DaemonSet-style node pinning)', async () => {
    const pod = makePod('x', {
      cpu: '2',
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] }] } } },
    });
    expect(await failureMessage([makeNode('a'), makeNode('b', { cpu: '1' }), makeNode('c')], [], pod)).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. " + 'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });
});

describe('schedulePod', () => {
  it('picks the least allocated node', () => {
    const { cache, fwk, algo } = setup([makeNode('busy', { cpu: '4', memory: '8Gi' }), makeNode('idle', { cpu: '4', memory: '8Gi' })], [boundPod('a', 'busy', { cpu: '3', memory: '6Gi' })]);
    const out = schedulePod(fwk, algo, new CycleState(), makePod('x', { cpu: '500m', memory: '1Gi' }), cache.list());
    expect(out).toEqual({ ok: true, result: { suggestedHost: 'idle', evaluatedNodes: 2, feasibleNodes: 2 } });
  });

  it('prefers tolerating nothing over an untolerated PreferNoSchedule taint (weight 3)', () => {
    const { cache, fwk, algo } = setup([makeNode('soft', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] }), makeNode('clean')]);
    const out = schedulePod(fwk, algo, new CycleState(), makePod('p', { cpu: '100m' }), cache.list());
    expect(out.ok && out.result.suggestedHost).toBe('clean');
  });

  it('stops filtering after numFeasibleNodesToFind feasible nodes and rotates the start', () => {
    const nodes = Array.from({ length: 1000 }, (_, i) => makeNode(`n${i}`));
    const { cache, fwk, algo } = setup(nodes);
    const out = schedulePod(fwk, algo, new CycleState(), makePod('p'), cache.list());
    expect(out.ok && out.result.feasibleNodes).toBe(420);
    expect(algo.nextStartNodeIndex).toBe(420);
    schedulePod(fwk, algo, new CycleState(), makePod('q'), cache.list());
    expect(algo.nextStartNodeIndex).toBe(840);
  });

  it('reports no nodes when the cluster is empty', () => {
    const { cache, fwk, algo } = setup([]);
    const out = schedulePod(fwk, algo, new CycleState(), makePod('p'), cache.list());
    expect(!out.ok && 'error' in out && out.error.message).toBe('no nodes available to schedule pods');
  });
});

describe('selectHost', () => {
  const nodes = (...names: string[]) => names.map((name) => ({ name }));
  it('returns the highest total', () => expect(selectHost(nodes('a', 'b', 'c'), [10, 30, 20], () => 0.99)).toBe('b'));
  it('breaks ties at random among the best', () => {
    const seen = new Set<string>();
    let r = 0;
    const seq = [0.9, 0.1, 0.9, 0.9];
    for (let i = 0; i < 2; i++) seen.add(selectHost(nodes('a', 'b', 'c'), [5, 5, 1], () => seq[r++ % seq.length]!));
    expect([...seen].sort()).toEqual(['a', 'b']);
  });
});

describe('Registry', () => {
  it('refuses duplicate names', () => {
    const r = new Registry();
    r.register('X', () => ({ name: 'X' }));
    expect(() => r.register('X', () => ({ name: 'X' }))).toThrow('a plugin named X already exists');
  });
  it('builds the default profile from the in-tree registry', () => {
    const fwk = new Framework(newInTreeRegistry(), defaultProfile(), new SchedulerCache());
    expect(fwk.filter.map((p) => p.name)).toEqual(['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeBinding']);
    expect(fwk.preBind.map((p) => p.name)).toEqual(['VolumeBinding']);
    expect(fwk.score.map((s) => [s.plugin.name, s.weight])).toEqual([
      ['TaintToleration', 3],
      ['NodeAffinity', 2],
      ['NodeResourcesFit', 1],
      ['NodeResourcesBalancedAllocation', 1],
    ]);
  });
});

describe('PreFilter rejection summary', () => {
  it('shows the PreFilter message instead of per-node reasons', async () => {
    const pod = makePod('x', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchFields: [
                  { key: 'metadata.name', operator: 'In', values: ['a'] },
                  { key: 'metadata.name', operator: 'In', values: ['b'] },
                ],
              },
            ],
          },
        },
      },
    });
    expect(await failureMessage([makeNode('a'), makeNode('b'), makeNode('c')], [], pod)).toBe(
      '0/3 nodes are available: pod affinity terms conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });
});

describe('DefaultPreemption', () => {
  it('deletes the lower-priority pods that make room and nominates the node', async () => {
    const deleted: string[] = [];
    const nominated: string[] = [];
    const events: string[] = [];
    const { cache, fwk, algo } = setup(
      [makeNode('n1', { cpu: '2' }), makeNode('n2', { cpu: '2' })],
      [boundPod('low-1', 'n1', { cpu: '1', priority: 0 }), boundPod('low-2', 'n1', { cpu: '1', priority: 0 }), boundPod('high', 'n2', { cpu: '2', priority: 1000 })],
      {
        deletePod: async (p) => void deleted.push(p.metadata.name!),
        setNominatedNodeName: async (_p, n) => void nominated.push(n),
        event: (p, type, reason, _a, msg) => void events.push(`${type} ${reason} ${p.metadata.name}: ${msg}`),
      },
    );
    const pod = makePod('urgent', { cpu: '1', priority: 100, uid: 'u-urgent' });
    const state = new CycleState();
    const out = schedulePod(fwk, algo, state, pod, cache.list());
    expect(!out.ok && 'fitError' in out && out.fitError.error()).toBe('0/2 nodes are available: 2 Insufficient cpu.');
    if (out.ok || !('fitError' in out)) throw new Error('expected a FitError');
    const post = await fwk.runPostFilterPlugins(state, pod, out.fitError.diagnosis.nodeToStatus);
    expect(post.status.isSuccess()).toBe(true);
    expect(post.result).toEqual({ nominatedNodeName: 'n1' });
    expect(deleted).toHaveLength(1);
    expect(nominated).toEqual(['n1']);
    expect(events).toEqual([`Normal Preempted ${deleted[0]}: Preempted by pod u-urgent on node n1`]);
  });
});
