// Filters count the pods nominated to a node (upstream RunFilterPluginsWithNominatedPods):
// the space preemption freed for a pod is not given to pods of no higher priority.
import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { newAlgorithmState, schedulePod } from '../algorithm/schedule-pod.js';
import { SchedulerCache } from '../cache/cache.js';
import { newInTreeRegistry } from '../plugins/registry.js';
import { Nominator } from '../queue/nominator.js';
import { boundPod, makeNode, makePod } from '../testing/builders.js';
import { CycleState } from './cycle-state.js';
import { defaultProfile } from './profile.js';
import { Framework } from './runtime.js';

const nominatedTo = (p: Pod, node: string): Pod => ({ ...p, status: { ...p.status, nominatedNodeName: node } });

/** Two 2-CPU workers, as in the trial: node-2 full of `low`, node-1 with one CPU freed by preemption for `urgent`. */
function setup(nominated: Pod[]) {
  const cache = new SchedulerCache();
  cache.addNode(makeNode('node-1', { cpu: '2' }));
  cache.addNode(makeNode('node-2', { cpu: '2' }));
  cache.addPod(boundPod('low-a', 'node-1', { cpu: '1', priority: 100 }));
  cache.addPod(boundPod('low-b', 'node-2', { cpu: '1', priority: 100 }));
  cache.addPod(boundPod('low-c', 'node-2', { cpu: '1', priority: 100 }));
  const nominator = new Nominator();
  for (const p of nominated) nominator.addNominatedPod(p);
  const fwk = new Framework(newInTreeRegistry(), defaultProfile(), cache, {}, undefined, nominator);
  return { cache, fwk, nominator };
}

function outcome(nominated: Pod[], pod: Pod): string {
  const { cache, fwk } = setup(nominated);
  const out = schedulePod(
    fwk,
    newAlgorithmState(() => 0.5),
    new CycleState(),
    pod,
    cache.list(),
  );
  if (out.ok) return `scheduled on ${out.result.suggestedHost}`;
  return 'fitError' in out ? out.fitError.error() : `error ${out.error.message}`;
}

const urgent = nominatedTo(makePod('urgent', { cpu: '1000m', priority: 1000 }), 'node-1');

describe('filters with nominated pods', () => {
  it.each<[string, Pod[], Pod, string]>([
    ['no nomination: a priority-0 pod takes the free CPU', [], makePod('npd', { namespace: 'kube-system', cpu: '1', priority: 0 }), 'scheduled on node-1'],
    [
      'a priority-0 pod does not fit where a priority-1000 pod is nominated and the space is its',
      [urgent],
      makePod('npd', { namespace: 'kube-system', cpu: '1', priority: 0 }),
      '0/2 nodes are available: 2 Insufficient cpu.',
    ],
    ['an equal-priority pod does not take it either', [urgent], makePod('peer', { cpu: '1', priority: 1000 }), '0/2 nodes are available: 2 Insufficient cpu.'],
    ['a higher-priority pod ignores the lower-priority nomination', [urgent], makePod('critical', { cpu: '1', priority: 2000001000 }), 'scheduled on node-1'],
    ['the nominated pod itself fits on its node', [urgent], urgent, 'scheduled on node-1'],
    ['a pod small enough for both fits beside the nomination', [nominatedTo(makePod('half', { cpu: '500m', priority: 1000 }), 'node-1')], makePod('npd', { cpu: '500m' }), 'scheduled on node-1'],
  ])('%s', (_name, nominated, pod, want) => {
    expect(outcome(nominated, pod)).toBe(want);
  });

  it('runs the filters both with and without the nominated pods, and fits only if both pass', () => {
    const { cache, fwk } = setup([urgent]);
    const node1 = cache.list().find((n) => n.name === 'node-1')!;
    const lowPod = makePod('npd', { cpu: '1' });
    expect(fwk.runFilterPluginsWithNominatedPods(new CycleState(), lowPod, node1)?.reasons).toEqual(['Insufficient cpu']);
    // The node itself is not changed by the what-if.
    expect(node1.pods.map((p) => p.key)).toEqual(['default/low-a']);
    expect(fwk.runFilterPluginsWithNominatedPods(new CycleState(), makePod('tiny', { cpu: '2', priority: 2000 }), node1)?.reasons).toEqual(['Insufficient cpu']);
  });
});
