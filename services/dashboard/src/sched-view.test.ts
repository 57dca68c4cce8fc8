import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { describe, expect, it } from 'vitest';
import { podStory, type FlowMessage } from './flow.js';
import { DecisionStore, decisionHeadline, decisionMessage, filterTable, scoreTable, PASSED } from './sched-view.js';

const AFFINITY_REASON = "node(s) didn't match Pod's node affinity/selector";

/** One feasible node (node-2), node-1 rejected by NodeAffinity, as the scheduler writes it. */
const oneFits: SchedulingDecisionRecord = {
  time: '2026-01-01T00:00:01.000Z',
  profile: 'default-scheduler',
  namespace: 'default',
  name: 'zoned',
  cycle: 4,
  attempts: 1,
  result: 'Scheduled',
  node: 'node-2',
  durationMs: 0.3,
  numAllNodes: 2,
  feasibleNodes: 1,
  filterPlugins: ['NodeName', 'NodeAffinity', 'NodePorts'],
  skippedFilters: ['NodePorts'],
  scorePlugins: [
    { plugin: 'TaintToleration', weight: 3 },
    { plugin: 'NodeResourcesFit', weight: 1 },
  ],
  nodes: [
    { name: 'node-1', verdict: 'rejected', rejectedBy: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: [AFFINITY_REASON] } },
    { name: 'node-2', verdict: 'feasible' },
  ],
  omittedNodes: 0,
};

/** The record without a chosen node (what a failed cycle writes). */
const unscheduled: SchedulingDecisionRecord = (() => {
  const r: SchedulingDecisionRecord = { ...oneFits, result: 'Unschedulable', feasibleNodes: 0 };
  delete r.node;
  return r;
})();

const scored: SchedulingDecisionRecord = {
  ...oneFits,
  name: 'web',
  node: 'node-b',
  feasibleNodes: 2,
  skippedFilters: [],
  nodes: ['node-a', 'node-b'].map((name, i) => ({ name, verdict: 'feasible' as const, raw: [0, 40 + i * 20], normalized: [100, 40 + i * 20], total: 340 + i * 20 })),
};

describe('the Filter table', () => {
  it.each<[string, SchedulingDecisionRecord, string[], [string, string[]][]]>([
    [
      'one feasible node: chosen first, the other with upstream’s reason; plugins after a rejection did not run',
      oneFits,
      ['NodeName', 'NodeAffinity', 'NodePorts'],
      [
        ['node-2', [PASSED, PASSED, 'skipped']],
        ['node-1', [PASSED, AFFINITY_REASON, '–']],
      ],
    ],
    [
      'a PreFilter rejection gets its own column',
      {
        ...unscheduled,
        message: "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
        nodes: [
          {
            name: 'node-b',
            verdict: 'rejected',
            rejectedBy: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't satisfy plugin(s) [NodeAffinity]"], preFilter: true },
          },
          { name: 'node-a', verdict: 'rejected', rejectedBy: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: ['x'], preFilter: true } },
        ],
      },
      ['PreFilter', 'NodeName', 'NodeAffinity', 'NodePorts'],
      [
        ['node-a', ['NodeAffinity: x', '–', '–', '–']],
        ['node-b', ["NodeAffinity: node(s) didn't satisfy plugin(s) [NodeAffinity]", '–', '–', '–']],
      ],
    ],
  ])('%s', (_n, rec, columns, rows) => {
    const t = filterTable(rec);
    expect(t.columns).toEqual(columns);
    expect(t.rows.map((r) => [r.node, r.cells.map((c) => c.text)])).toEqual(rows);
  });

  it('marks the chosen node', () => expect(filterTable(oneFits).rows.map((r) => r.chosen)).toEqual([true, false]));
});

describe('the Score table', () => {
  it('lists nodes by total, highest first, each plugin raw → normalized ×weight = weighted', () => {
    const t = scoreTable(scored);
    expect(t.nodes).toEqual(['node-b', 'node-a']);
    expect(t.chosen).toBe('node-b');
    expect(t.rows.map((r) => [r.plugin, r.cells.map((c) => c.text)])).toEqual([
      ['TaintToleration', ['0 → 100 ×3 = 300', '0 → 100 ×3 = 300']],
      ['NodeResourcesFit', ['60 ×1 = 60', '40 ×1 = 40']],
    ]);
    expect(t.totals).toEqual([360, 340]);
  });

  it.each<[string, SchedulingDecisionRecord, string]>([
    ['one feasible node', oneFits, 'One feasible node (node-2): chosen without scoring, as upstream does.'],
    ['none', { ...oneFits, result: 'Unschedulable', feasibleNodes: 0, nodes: [] }, 'No feasible node: nothing to score.'],
    ['a summary record', { ...oneFits, nodes: [], detailOmitted: true }, 'No node detail in this record (a burst of decisions: the scheduler details a limited number a second).'],
  ])('says why there are no scores: %s', (_n, rec, note) => expect(scoreTable(rec).note).toBe(note));
});

describe('a decision in the flow and the story', () => {
  it.each<[string, SchedulingDecisionRecord, string]>([
    ['scheduled', oneFits, 'default/zoned → node-2: 1 of 2 node(s) feasible'],
    [
      'failed, with a nomination',
      { ...oneFits, result: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient cpu.', postFilter: { nominatedNodeName: 'node-1' } },
      'default/zoned: FailedScheduling 0/2 nodes are available: 2 Insufficient cpu. Preemption nominated node-1.',
    ],
  ])('headline: %s', (_n, rec, want) => expect(decisionHeadline(rec)).toBe(want));

  it("is a scheduler step in the pod's story", () => {
    const m: FlowMessage = { ...decisionMessage(oneFits), seq: 1 };
    expect(m).toMatchObject({ kind: 'sched', from: 'scheduler', to: 'scheduler', method: 'Filter/Score', detail: '→ node-2 (1/2 feasible)', name: 'zoned' });
    const story = podStory([m], 'default/zoned');
    expect(story.steps.map((s) => `${s.from} → ${s.to} ${s.method}`)).toEqual(['scheduler → scheduler Filter/Score']);
  });

  it('keeps the last records and finds the newest per pod', () => {
    const s = new DecisionStore(2);
    s.pushAll([oneFits, scored, { ...oneFits, cycle: 9 }]);
    expect(s.toArray().map((r) => r.cycle)).toEqual([4, 9]);
    expect(s.latest('default/zoned')?.cycle).toBe(9);
    expect(s.pods()).toEqual(['default/zoned', 'default/web']);
  });
});
