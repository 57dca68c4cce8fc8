import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { boundPod, makeNode, makePod } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { BalancedAllocation } from './balanced-allocation.js';

describe('NodeResourcesBalancedAllocation.score', () => {
  const cases = [
    { name: 'equal fractions score 100', node: { cpu: '4', memory: '4Gi' }, existing: { cpu: '1', memory: '1Gi' }, want: 100 },
    // cpu (1+1)/4 = 0.5, memory (0+1)/4 = 0.25 → std 0.125 → 87
    { name: 'uneven use lowers the score', node: { cpu: '4', memory: '4Gi' }, existing: { cpu: '1' }, want: 87 },
    // cpu capped at 1, memory 0.25 → std 0.375 → 62
    { name: 'fractions are capped at 1', node: { cpu: '1', memory: '4Gi' }, existing: { cpu: '2' }, want: 62 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new BalancedAllocation();
      const pod = makePod('p', { cpu: '1', memory: '1Gi' });
      const state = new CycleState();
      expect(pl.preScore(state, pod)).toBeUndefined();
      expect(pl.score(state, pod, nodeInfoOf(makeNode('n', c.node), boundPod('e', 'n', c.existing)))).toBe(c.want);
    });
  }

  it('skips BestEffort pods', () => {
    expect(new BalancedAllocation().preScore(new CycleState(), makePod('p'))?.code).toBe(Code.Skip);
  });
});
