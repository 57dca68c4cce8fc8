import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import { boundPod, makeNode, makePod, type NodeOpts, type PodOpts } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { NodeResourcesFit } from './node-resources-fit.js';

function filter(pod: PodOpts, node: NodeOpts, existing: PodOpts[] = []) {
  const pl = new NodeResourcesFit();
  const p = makePod('p', pod);
  const state = new CycleState();
  pl.preFilter(state, p);
  const ni = nodeInfoOf(makeNode('n1', node), ...existing.map((e, i) => boundPod(`e${i}`, 'n1', e)));
  const s = pl.filter(state, p, ni);
  return s ? { code: s.code, reasons: [...s.reasons] } : undefined;
}

describe('NodeResourcesFit.filter', () => {
  const cases = [
    { name: 'fits in an empty node', pod: { cpu: '1', memory: '1Gi' }, node: { cpu: '2', memory: '2Gi' }, existing: [], want: undefined },
    {
      name: 'assigned pods use the allocatable up: Insufficient cpu',
      pod: { cpu: '1' },
      node: { cpu: '2' },
      existing: [{ cpu: '1500m' }],
      want: { code: Code.Unschedulable, reasons: ['Insufficient cpu'] },
    },
    {
      name: 'exactly the remaining amount fits',
      pod: { cpu: '500m', memory: '1Gi' },
      node: { cpu: '2', memory: '2Gi' },
      existing: [{ cpu: '1500m', memory: '1Gi' }],
      want: undefined,
    },
    {
      name: 'cpu and memory both short: both reasons, in upstream order',
      pod: { cpu: '1', memory: '2Gi' },
      node: { cpu: '2', memory: '2Gi' },
      existing: [{ cpu: '1500m', memory: '1Gi' }],
      want: { code: Code.Unschedulable, reasons: ['Insufficient cpu', 'Insufficient memory'] },
    },
    {
      name: 'more than the whole node: unresolvable',
      pod: { cpu: '3' },
      node: { cpu: '2' },
      existing: [],
      want: { code: Code.UnschedulableAndUnresolvable, reasons: ['Insufficient cpu'] },
    },
    {
      name: 'pod count is checked even for pods requesting nothing',
      pod: {},
      node: { pods: '1' },
      existing: [{}],
      want: { code: Code.Unschedulable, reasons: ['Too many pods'] },
    },
    {
      name: 'extended resources',
      pod: { extra: { 'example.com/gpu': '2' } },
      node: { extra: { 'example.com/gpu': '4' } },
      existing: [{ extra: { 'example.com/gpu': '3' } }],
      want: { code: Code.Unschedulable, reasons: ['Insufficient example.com/gpu'] },
    },
  ];
  for (const c of cases) it(c.name, () => expect(filter(c.pod, c.node, c.existing)).toEqual(c.want));

  it('counts init containers by their largest step and limits as requests', () => {
    const pod = makePod('p', {
      containers: [{ name: 'a', resources: { limits: { cpu: '500m' } } }],
    });
    pod.spec!.initContainers = [{ name: 'init', resources: { requests: { cpu: '1500m' } } }];
    const pl = new NodeResourcesFit();
    const state = new CycleState();
    pl.preFilter(state, pod);
    const s = pl.filter(state, pod, nodeInfoOf(makeNode('n1', { cpu: '2' }), boundPod('e', 'n1', { cpu: '1' })));
    expect(s && [...s.reasons]).toEqual(['Insufficient cpu']);
  });
});

describe('NodeResourcesFit.score (LeastAllocated)', () => {
  it('scores free fraction per resource, pod included, averaged', () => {
    const pl = new NodeResourcesFit();
    const pod = makePod('p', { cpu: '1', memory: '1Gi' });
    const state = new CycleState();
    pl.preScore(state, pod);
    const empty = nodeInfoOf(makeNode('empty', { cpu: '4', memory: '4Gi' }));
    const half = nodeInfoOf(makeNode('half', { cpu: '4', memory: '4Gi' }), boundPod('e', 'half', { cpu: '1', memory: '1Gi' }));
    // empty: cpu (4-1)/4 = 75, mem 75 → 75; half: cpu (4-2)/4 = 50, mem 50 → 50
    expect(pl.score(state, pod, empty)).toBe(75);
    expect(pl.score(state, pod, half)).toBe(50);
  });

  it('counts containers without requests as 100m / 200Mi', () => {
    const pl = new NodeResourcesFit();
    const pod = makePod('p');
    const state = new CycleState();
    pl.preScore(state, pod);
    // cpu (1000-100)*100/1000 = 90; memory (1000Mi-200Mi)/1000Mi = 80 → 85
    expect(pl.score(state, pod, nodeInfoOf(makeNode('n', { cpu: '1', memory: '1000Mi' })))).toBe(85);
  });
});
