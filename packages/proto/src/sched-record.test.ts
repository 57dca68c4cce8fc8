import { describe, expect, it } from 'vitest';
import {
  decodeSchedulingDecisionRecord,
  encodeSchedulingDecisionRecord,
  formatSchedulingDecision,
  nodeFilterVerdicts,
  schedRecordSubject,
  type FilterVerdict,
  type NodeDecision,
  type SchedulingDecisionRecord,
} from './sched-record.js';

const base: SchedulingDecisionRecord = {
  time: '2026-01-01T00:00:00.000Z',
  profile: 'default-scheduler',
  namespace: 'default',
  name: 'web',
  cycle: 3,
  attempts: 1,
  result: 'Scheduled',
  node: 'node-1',
  durationMs: 0.4,
  numAllNodes: 2,
  feasibleNodes: 1,
  filterPlugins: ['NodeName', 'NodeAffinity', 'NodePorts'],
  skippedFilters: ['NodePorts'],
  scorePlugins: [{ plugin: 'TaintToleration', weight: 3 }],
  nodes: [
    { name: 'node-1', verdict: 'feasible' },
    { name: 'node-2', verdict: 'rejected', rejectedBy: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] } },
  ],
  omittedNodes: 0,
};

describe('scheduling decision records', () => {
  it.each<[string, string, string, string]>([
    ['plain names', 'default', 'web', 'kubelab.sched.default.web'],
    ['dots in a pod name become underscores', 'kube-system', 'coredns.x', 'kubelab.sched.kube-system.coredns_x'],
  ])('subject: %s', (_n, ns, name, want) => expect(schedRecordSubject(ns, name)).toBe(want));

  it('round-trips through its encoding', () => {
    expect(decodeSchedulingDecisionRecord(encodeSchedulingDecisionRecord(base))).toEqual(base);
  });

  it.each<[string, string]>([
    ['not JSON', 'nope'],
    ['no pod name', '{"namespace":"default","result":"Scheduled"}'],
    ['an unknown result', '{"namespace":"default","name":"x","result":"Maybe"}'],
  ])('refuses %s', (_n, data) => expect(decodeSchedulingDecisionRecord(data)).toBeUndefined());

  it('reads wrong-typed fields leniently', () => {
    const rec = decodeSchedulingDecisionRecord(
      '{"namespace":"d","name":"p","result":"Unschedulable","nodes":[{"name":"n","verdict":"odd","rejectedBy":{"plugin":"X","reasons":[1,"r"]},"raw":[1,"x"]},{"verdict":"feasible"}]}',
    );
    expect(rec?.nodes).toEqual([{ name: 'n', verdict: 'rejected', rejectedBy: { plugin: 'X', code: 'Unschedulable', reasons: ['r'] }, raw: [1, 0] }]);
    expect(rec?.numAllNodes).toBe(0);
  });

  it.each<[string, NodeDecision, FilterVerdict[]]>([
    [
      'a feasible node passed all but the skipped',
      base.nodes[0]!,
      [
        { plugin: 'NodeName', code: 'Success' },
        { plugin: 'NodeAffinity', code: 'Success' },
        { plugin: 'NodePorts', code: 'Skip' },
      ],
    ],
    [
      'a rejected node: nothing ran after the rejecting plugin',
      base.nodes[1]!,
      [
        { plugin: 'NodeName', code: 'Success' },
        { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] },
      ],
    ],
    ['a PreFilter rejection: no Filter ran', { name: 'n', verdict: 'rejected', rejectedBy: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: ['x'], preFilter: true } }, []],
  ])('Filter verdicts per plugin: %s', (_n, node, want) => expect(nodeFilterVerdicts(base, node)).toEqual(want));

  it.each<[string, Partial<SchedulingDecisionRecord>, string]>([
    ['the only feasible node', {}, 'Scheduled default/web → node-1 (2 node(s), the only feasible node)'],
    ['scored', { feasibleNodes: 2 }, 'Scheduled default/web → node-1 (2 node(s), 2 feasible, scored)'],
    [
      'FailedScheduling',
      { result: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.', feasibleNodes: 0 },
      'FailedScheduling default/web: 0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    ],
  ])('one line: %s', (_n, patch, want) => expect(formatSchedulingDecision({ ...base, ...patch })).toBe(want));
});
