import type { Affinity, NodeSelectorTerm } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod, type PodOpts } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { NodeAffinity } from './node-affinity.js';

const required = (...terms: NodeSelectorTerm[]): Affinity => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
});

function runFilter(podOpts: PodOpts, labels: Record<string, string>, nodeName = 'n1') {
  const pl = new NodeAffinity();
  const pod = makePod('p', podOpts);
  const state = new CycleState();
  const pre = pl.preFilter(state, pod);
  if (pre?.status?.code === Code.Skip) return { skipped: true as const };
  if (pre?.status) return { pre: { code: pre.status.code, reasons: [...pre.status.reasons] } };
  const s = pl.filter(state, pod, nodeInfoOf(makeNode(nodeName, { labels })));
  return s ? { code: s.code, reasons: [...s.reasons] } : { fits: true as const, nodeNames: pre?.result?.nodeNames && [...pre.result.nodeNames] };
}

const MISMATCH = { code: Code.UnschedulableAndUnresolvable, reasons: ["node(s) didn't match Pod's node affinity/selector"] };

describe('NodeAffinity filter', () => {
  const cases: { name: string; pod: PodOpts; labels: Record<string, string>; want: unknown }[] = [
    { name: 'no selector and no affinity: PreFilter skips', pod: {}, labels: {}, want: { skipped: true } },
    { name: 'nodeSelector matches', pod: { nodeSelector: { disk: 'ssd' } }, labels: { disk: 'ssd' }, want: { fits: true, nodeNames: undefined } },
    { name: 'nodeSelector value differs', pod: { nodeSelector: { disk: 'ssd' } }, labels: { disk: 'hdd' }, want: MISMATCH },
    { name: 'nodeSelector label missing', pod: { nodeSelector: { disk: 'ssd' } }, labels: {}, want: MISMATCH },
    {
      name: 'required In matches',
      pod: { affinity: required({ matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['a', 'b'] }] }) },
      labels: { zone: 'b' },
      want: { fits: true, nodeNames: undefined },
    },
    {
      name: 'required NotIn rejects',
      pod: { affinity: required({ matchExpressions: [{ key: 'zone', operator: 'NotIn' as const, values: ['a'] }] }) },
      labels: { zone: 'a' },
      want: MISMATCH,
    },
    {
      name: 'terms are ORed',
      pod: {
        affinity: required({ matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['x'] }] }, { matchExpressions: [{ key: 'gpu', operator: 'Exists' as const }] }),
      },
      labels: { gpu: 'true' },
      want: { fits: true, nodeNames: undefined },
    },
    {
      name: 'Gt compares integers',
      pod: { affinity: required({ matchExpressions: [{ key: 'cores', operator: 'Gt' as const, values: ['8'] }] }) },
      labels: { cores: '16' },
      want: { fits: true, nodeNames: undefined },
    },
    {
      name: 'nodeSelector and affinity must both match',
      pod: { nodeSelector: { disk: 'ssd' }, affinity: required({ matchExpressions: [{ key: 'zone', operator: 'Exists' as const }] }) },
      labels: { disk: 'ssd' },
      want: MISMATCH,
    },
    {
      name: 'matchFields metadata.name narrows the nodes at PreFilter (DaemonSet pods)',
      pod: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: ['n1'] }] }) },
      labels: {},
      want: { fits: true, nodeNames: ['n1'] },
    },
    {
      name: 'matchFields metadata.name rejects another node',
      pod: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: ['n2'] }] }) },
      labels: {},
      want: MISMATCH,
    },
    {
      name: 'conflicting matchFields within a term: PreFilter rejects every node',
      pod: {
        affinity: required({
          matchFields: [
            { key: 'metadata.name', operator: 'In' as const, values: ['n1'] },
            { key: 'metadata.name', operator: 'In' as const, values: ['n2'] },
          ],
        }),
      },
      labels: {},
      want: { pre: { code: Code.UnschedulableAndUnresolvable, reasons: ['pod affinity terms conflict'] } },
    },
  ];
  for (const c of cases) it(c.name, () => expect(runFilter(c.pod, c.labels)).toEqual(c.want));
});

describe('NodeAffinity score', () => {
  it('sums matching preferred weights and normalizes to 100', () => {
    const pl = new NodeAffinity();
    const pod = makePod('p', {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 2, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
            { weight: 6, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
          ],
        },
      },
    });
    const nodes = [nodeInfoOf(makeNode('none')), nodeInfoOf(makeNode('zone', { labels: { zone: 'a' } })), nodeInfoOf(makeNode('both', { labels: { zone: 'a', disk: 'ssd' } }))];
    const state = new CycleState();
    expect(pl.preScore(state, pod)).toBeUndefined();
    const scores = nodes.map((n) => ({ name: n.name, score: pl.score(state, pod, n) }));
    expect(scores.map((s) => s.score)).toEqual([0, 2, 8]);
    pl.normalizeScore(state, pod, scores);
    expect(scores.map((s) => s.score)).toEqual([0, 25, 100]);
  });

  it('skips scoring pods without preferred terms', () => {
    expect(new NodeAffinity().preScore(new CycleState(), makePod('p'))?.code).toBe(Code.Skip);
  });
});
