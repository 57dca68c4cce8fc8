import type { Taint, Toleration } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { TaintToleration } from './taint-toleration.js';

const nodeWithTaints = (name: string, taints: Taint[]) => nodeInfoOf(makeNode(name, { taints }));
const podWithTolerations = (tolerations: Toleration[]) => makePod('p', { tolerations });

describe('TaintToleration.filter', () => {
  const cases: { name: string; taints: Taint[]; tolerations: Toleration[]; want?: { code: Code; reasons: string[] } }[] = [
    { name: 'node without taints', taints: [], tolerations: [] },
    {
      name: 'untolerated NoSchedule taint names key and value',
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      tolerations: [],
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['node(s) had untolerated taint {dedicated: gpu}'] },
    },
    {
      name: 'untolerated NoExecute taint without value shows an empty value',
      taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
      tolerations: [],
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['node(s) had untolerated taint {node.kubernetes.io/unreachable: }'] },
    },
    {
      name: 'Equal toleration with the same value tolerates',
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    },
    {
      name: 'Equal toleration with another value does not tolerate',
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'cpu', effect: 'NoSchedule' }],
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['node(s) had untolerated taint {dedicated: gpu}'] },
    },
    {
      name: 'Exists without key tolerates everything',
      taints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'b', value: 'x', effect: 'NoExecute' },
      ],
      tolerations: [{ operator: 'Exists' }],
    },
    {
      name: 'PreferNoSchedule never rejects',
      taints: [{ key: 'soft', effect: 'PreferNoSchedule' }],
      tolerations: [],
    },
    {
      name: 'first untolerated hard taint is reported',
      taints: [
        { key: 'soft', effect: 'PreferNoSchedule' },
        { key: 'tolerated', effect: 'NoSchedule' },
        { key: 'second', value: 'v', effect: 'NoExecute' },
      ],
      tolerations: [{ key: 'tolerated', operator: 'Exists' }],
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['node(s) had untolerated taint {second: v}'] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = new TaintToleration().filter(new CycleState(), podWithTolerations(c.tolerations), nodeWithTaints('n1', c.taints));
      expect(s ? { code: s.code, reasons: [...s.reasons] } : undefined).toEqual(c.want);
    });
  }
});

describe('TaintToleration.score', () => {
  it('prefers nodes with fewer untolerated PreferNoSchedule taints, normalized in reverse', () => {
    const pl = new TaintToleration();
    const pod = podWithTolerations([{ key: 'ok', operator: 'Exists', effect: 'PreferNoSchedule' }]);
    const nodes = [
      nodeWithTaints('clean', []),
      nodeWithTaints('tolerated', [{ key: 'ok', effect: 'PreferNoSchedule' }]),
      nodeWithTaints('one', [{ key: 'bad', effect: 'PreferNoSchedule' }]),
      nodeWithTaints('two', [
        { key: 'bad', effect: 'PreferNoSchedule' },
        { key: 'worse', effect: 'PreferNoSchedule' },
      ]),
    ];
    const state = new CycleState();
    pl.preScore(state, pod);
    const scores = nodes.map((n) => ({ name: n.name, score: pl.score(state, pod, n) }));
    expect(scores.map((s) => s.score)).toEqual([0, 0, 1, 2]);
    pl.normalizeScore(state, pod, scores);
    expect(scores).toEqual([
      { name: 'clean', score: 100 },
      { name: 'tolerated', score: 100 },
      { name: 'one', score: 50 },
      { name: 'two', score: 0 },
    ]);
  });
});
