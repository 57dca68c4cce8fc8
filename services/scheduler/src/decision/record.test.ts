import type { Node, Pod } from '@kubelab/api';
import { nodeFilterVerdicts, type FilterVerdict, type NodeDecision, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { describe, expect, it } from 'vitest';
import { newAlgorithmState, schedulePod, type CycleDetail } from '../algorithm/schedule-pod.js';
import { SchedulerCache } from '../cache/cache.js';
import { CycleState } from '../framework/cycle-state.js';
import { defaultProfile } from '../framework/profile.js';
import { Framework } from '../framework/runtime.js';
import { newInTreeRegistry } from '../plugins/registry.js';
import { boundPod, makeNode, makePod } from '../testing/builders.js';
import { TokenBucket } from '../scheduler.js';
import { buildDecisionRecord, podTraceId } from './record.js';

const FILTERS = ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeBinding'];
/**
 * The Filter plugins a node went through: those whose PreFilter said Skip are
 * `Skip`, the others passed up to the one that rejected it (if any); none after it ran.
 */
function verdicts(skipped: string[], rejected?: [plugin: string, code: string, reason: string]): FilterVerdict[] {
  const out: FilterVerdict[] = [];
  for (const plugin of FILTERS) {
    if (skipped.includes(plugin)) out.push({ plugin, code: 'Skip' });
    else if (rejected?.[0] === plugin) return [...out, { plugin, code: rejected[1], reasons: [rejected[2]] }];
    else out.push({ plugin, code: 'Success' });
  }
  return out;
}

/** What a pod without affinity, host ports or volumes skips at PreFilter. */
const NOT_ASKED = ['NodeAffinity', 'NodePorts', 'VolumeBinding'];

/** One cycle as the scheduler runs it, and its record. */
function cycle(nodes: Node[], pod: Pod, existing: Pod[] = [], maxNodes?: number): SchedulingDecisionRecord {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  for (const p of existing) cache.addPod(p);
  const fwk = new Framework(newInTreeRegistry(), defaultProfile(), cache);
  const state = new CycleState();
  const detail: CycleDetail = {};
  const allNodes = cache.list();
  const out = schedulePod(
    fwk,
    newAlgorithmState(() => 0.5),
    state,
    pod,
    allNodes,
    detail,
  );
  const outcome = out.ok
    ? { result: 'Scheduled' as const, node: out.result.suggestedHost }
    : 'fitError' in out
      ? { result: 'Unschedulable' as const, message: out.fitError.error() }
      : { result: 'SchedulerError' as const, message: out.error.message };
  return buildDecisionRecord({ fwk, state, pod, allNodes, detail, cycle: 1, attempts: 1, startMs: 0, durationMs: 0.25, ...outcome, ...(maxNodes ? { maxNodes } : {}) });
}

const byName = (rec: SchedulingDecisionRecord) => new Map(rec.nodes.map((n) => [n.name, n]));

describe('the decision record of a cycle', () => {
  it('one feasible node: its Filters all passed, the other node says why not, no scoring', () => {
    const rec = cycle([makeNode('node-1'), makeNode('node-2', { labels: { zone: 'a' } })], makePod('web', { nodeSelector: { zone: 'a' } }));
    expect(rec).toMatchObject({ namespace: 'default', name: 'web', uid: 'uid-web', result: 'Scheduled', node: 'node-2', numAllNodes: 2, feasibleNodes: 1, omittedNodes: 0, filterPlugins: FILTERS });
    expect(rec.scorePlugins).toEqual([
      { plugin: 'TaintToleration', weight: 3 },
      { plugin: 'NodeAffinity', weight: 2 },
      { plugin: 'NodeResourcesFit', weight: 1 },
      { plugin: 'NodeResourcesBalancedAllocation', weight: 1 },
    ]);
    expect(rec.skippedFilters).toEqual(['NodePorts', 'VolumeBinding']);
    const reason = "node(s) didn't match Pod's node affinity/selector";
    expect(byName(rec).get('node-2')).toEqual<NodeDecision>({ name: 'node-2', verdict: 'feasible' });
    expect(byName(rec).get('node-1')).toEqual<NodeDecision>({ name: 'node-1', verdict: 'rejected', rejectedBy: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: [reason] } });
    // As a reader spells it out per plugin.
    expect(nodeFilterVerdicts(rec, byName(rec).get('node-2')!)).toEqual(verdicts(['NodePorts', 'VolumeBinding']));
    expect(nodeFilterVerdicts(rec, byName(rec).get('node-1')!)).toEqual(verdicts(['NodePorts', 'VolumeBinding'], ['NodeAffinity', 'UnschedulableAndUnresolvable', reason]));
  });

  it.each<[string, Node[], Pod, Pod[], Record<string, FilterVerdict[]>, string]>([
    [
      'a taint and a full node',
      [makeNode('node-1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }), makeNode('node-2', { cpu: '1' })],
      makePod('big', { cpu: '500m' }),
      [boundPod('a', 'node-2', { cpu: '800m' })],
      {
        'node-1': verdicts(NOT_ASKED, ['TaintToleration', 'UnschedulableAndUnresolvable', 'node(s) had untolerated taint {dedicated: gpu}']),
        'node-2': verdicts(NOT_ASKED, ['NodeResourcesFit', 'Unschedulable', 'Insufficient cpu']),
      },
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}.',
    ],
    [
      'a cordoned node',
      [makeNode('node-1', { unschedulable: true })],
      makePod('p'),
      [],
      { 'node-1': verdicts(NOT_ASKED, ['NodeUnschedulable', 'UnschedulableAndUnresolvable', 'node(s) were unschedulable']) },
      '0/1 nodes are available: 1 node(s) were unschedulable.',
    ],
  ])('FailedScheduling — %s: the reason per node and the message upstream prints', (_n, nodes, pod, existing, want, message) => {
    const rec = cycle(nodes, pod, existing);
    expect(rec).toMatchObject({ result: 'Unschedulable', message, feasibleNodes: 0 });
    expect(rec.node).toBeUndefined();
    for (const [node, filters] of Object.entries(want)) {
      expect(byName(rec).get(node)?.verdict).toBe('rejected');
      expect(nodeFilterVerdicts(rec, byName(rec).get(node)!)).toEqual(filters);
    }
  });

  it('several feasible nodes: every Score plugin raw, normalized and weighted, totals summing the weighted, the chosen one highest', () => {
    const preferA = {
      nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['a'] }] } }] },
    };
    const rec = cycle([makeNode('node-1'), makeNode('node-2', { labels: { zone: 'a' } })], makePod('p', { cpu: '100m', affinity: preferA }));
    expect(rec).toMatchObject({ result: 'Scheduled', node: 'node-2', feasibleNodes: 2 });
    const weights = rec.scorePlugins.map((p) => p.weight);
    expect(rec.scorePlugins.map((p) => p.plugin)).toEqual(['TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'NodeResourcesBalancedAllocation']);
    for (const n of rec.nodes) {
      expect(n.raw).toHaveLength(4);
      expect(n.total).toBe(n.normalized!.reduce((a, v, i) => a + v * weights[i]!, 0));
    }
    // NodeAffinity (index 1): the preferred zone scores 100 raw and normalized, the other 0.
    expect([byName(rec).get('node-2')!.raw![1], byName(rec).get('node-2')!.normalized![1]]).toEqual([100, 100]);
    expect([byName(rec).get('node-1')!.raw![1], byName(rec).get('node-1')!.normalized![1]]).toEqual([0, 0]);
    expect(byName(rec).get('node-2')!.total).toBeGreaterThan(byName(rec).get('node-1')!.total!);
  });

  it('caps the nodes listed and counts the rest, keeping the chosen node', () => {
    const nodes = Array.from({ length: 5 }, (_, i) => makeNode(`node-${i + 1}`));
    const rec = cycle(nodes, makePod('p'), [], 2);
    expect(rec.nodes.map((n) => n.name)).toContain(rec.node);
    expect(rec.nodes.length + rec.omittedNodes).toBe(5);
    expect(rec.omittedNodes).toBe(3);
  });

  it('a summary record (over the detail rate): the outcome, no nodes', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('node-1'));
    const fwk = new Framework(newInTreeRegistry(), defaultProfile(), cache);
    const rec = buildDecisionRecord({
      fwk,
      state: new CycleState(),
      pod: makePod('p'),
      allNodes: cache.list(),
      detail: undefined,
      cycle: 1,
      attempts: 1,
      startMs: 0,
      durationMs: 0.1,
      result: 'Scheduled',
      node: 'node-1',
      feasibleNodes: 1,
    });
    expect(rec).toMatchObject({ result: 'Scheduled', node: 'node-1', feasibleNodes: 1, numAllNodes: 1, nodes: [], omittedNodes: 1, detailOmitted: true });
  });

  it.each<[string, number, number[], boolean[]]>([
    ['a burst of 3 at 2 a second: two detailed, then none until time passes', 2, [0, 0, 0, 499, 500, 1000], [true, true, false, false, true, true]],
    ['one a second', 1, [0, 1000, 2000, 2500, 3000], [true, true, true, false, true]],
  ])('detail budget: %s', (_n, rate, times, want) => {
    const bucket = new TokenBucket(rate, rate, 0);
    expect(times.map((t) => bucket.take(t))).toEqual(want);
  });

  it.each<[string, string | undefined, string | undefined]>([
    ['a sampled traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['no annotation', undefined, undefined],
    ['garbage', 'nope', undefined],
    ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', undefined],
  ])('trace id from %s', (_n, tp, want) => {
    const pod = makePod('p');
    if (tp) pod.metadata.annotations = { 'kubelab.io/traceparent': tp };
    expect(podTraceId(pod)).toBe(want);
  });
});
