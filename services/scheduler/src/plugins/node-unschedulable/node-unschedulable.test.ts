import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { NodeUnschedulable } from './node-unschedulable.js';

describe('NodeUnschedulable.filter', () => {
  const cases = [
    { name: 'schedulable node admits any pod', node: makeNode('n1'), pod: makePod('p'), want: undefined },
    {
      name: 'cordoned node rejects a pod without the toleration',
      node: makeNode('n1', { unschedulable: true }),
      pod: makePod('p'),
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['node(s) were unschedulable'] },
    },
    {
      name: 'cordoned node admits a pod tolerating node.kubernetes.io/unschedulable:NoSchedule',
      node: makeNode('n1', { unschedulable: true }),
      pod: makePod('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }),
      want: undefined,
    },
    {
      name: 'a toleration for another effect does not help',
      node: makeNode('n1', { unschedulable: true }),
      pod: makePod('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }] }),
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['node(s) were unschedulable'] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = new NodeUnschedulable().filter(new CycleState(), c.pod, nodeInfoOf(c.node));
      expect(s ? { code: s.code, reasons: [...s.reasons] } : undefined).toEqual(c.want);
    });
  }
});
