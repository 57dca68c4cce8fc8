import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { NodeName } from './node-name.js';

describe('NodeName.filter', () => {
  const cases = [
    { name: 'no nodeName fits anywhere', pod: makePod('p'), want: undefined },
    { name: 'matching nodeName fits', pod: makePod('p', { nodeName: 'n1' }), want: undefined },
    {
      name: 'another nodeName does not fit',
      pod: makePod('p', { nodeName: 'n2' }),
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ["node(s) didn't match the requested node name"] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = new NodeName().filter(new CycleState(), c.pod, nodeInfoOf(makeNode('n1')));
      expect(s ? { code: s.code, reasons: [...s.reasons] } : undefined).toEqual(c.want);
    });
  }
});
