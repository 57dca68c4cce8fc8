import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { boundPod, makeNode, makePod, type PodOpts } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { NodePorts } from './node-ports.js';

const CONFLICT = { code: Code.Unschedulable, reasons: ["node(s) didn't have free ports for the requested pod ports"] };

describe('NodePorts', () => {
  const cases: { name: string; existing: PodOpts['hostPorts']; want: PodOpts['hostPorts']; result: unknown }[] = [
    { name: 'free port fits', existing: [{ port: 80 }], want: [{ port: 8080 }], result: undefined },
    { name: 'same port and protocol conflicts', existing: [{ port: 80 }], want: [{ port: 80 }], result: CONFLICT },
    { name: 'same port, other protocol fits', existing: [{ port: 53, protocol: 'UDP' }], want: [{ port: 53, protocol: 'TCP' }], result: undefined },
    { name: 'different specific IPs fit', existing: [{ port: 80, ip: '10.0.0.1' }], want: [{ port: 80, ip: '10.0.0.2' }], result: undefined },
    { name: '0.0.0.0 conflicts with a specific IP', existing: [{ port: 80, ip: '10.0.0.1' }], want: [{ port: 80 }], result: CONFLICT },
    { name: 'a specific IP conflicts with 0.0.0.0', existing: [{ port: 80 }], want: [{ port: 80, ip: '10.0.0.1' }], result: CONFLICT },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodePorts();
      const pod = makePod('p', { hostPorts: c.want });
      const state = new CycleState();
      pl.preFilter(state, pod);
      const s = pl.filter(state, pod, nodeInfoOf(makeNode('n1'), boundPod('old', 'n1', { hostPorts: c.existing })));
      expect(s ? { code: s.code, reasons: [...s.reasons] } : undefined).toEqual(c.result);
    });
  }

  it('skips pods without host ports', () => {
    expect(new NodePorts().preFilter(new CycleState(), makePod('p'))?.status?.code).toBe(Code.Skip);
  });
});
