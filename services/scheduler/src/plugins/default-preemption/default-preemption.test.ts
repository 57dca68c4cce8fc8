import type { Node, Pod, PodDisruptionBudget } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { schedulePod, newAlgorithmState } from '../../algorithm/schedule-pod.js';
import { SchedulerCache } from '../../cache/cache.js';
import { CycleState } from '../../framework/cycle-state.js';
import type { ClusterActions } from '../../framework/handle.js';
import type { PodInfo } from '../../framework/node-info.js';
import { defaultProfile } from '../../framework/profile.js';
import { Framework } from '../../framework/runtime.js';
import { newInTreeRegistry } from '../registry.js';
import { boundPod, makeNode, makePod } from '../../testing/builders.js';
import { filterPodsWithPDBViolation, pickOneNode, type Candidate } from './default-preemption.js';

const labelled = (p: Pod, app: string): Pod => ({ ...p, metadata: { ...p.metadata, labels: { app } } });
const info = (p: Pod): PodInfo => ({ pod: p, key: `${p.metadata.namespace}/${p.metadata.name}` }) as PodInfo;
const pdb = (app: string, allowed: number, disrupted: string[] = []): PodDisruptionBudget => ({
  metadata: { name: `${app}-pdb`, namespace: 'default' },
  spec: { minAvailable: 1, selector: { matchLabels: { app } } },
  status: {
    disruptionsAllowed: allowed,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
    ...(disrupted.length ? { disruptedPods: Object.fromEntries(disrupted.map((d) => [d, '2026-01-01T00:00:00Z'])) } : {}),
  },
});
const names = (ps: PodInfo[]) => ps.map((p) => p.pod.metadata.name);

describe('filterPodsWithPDBViolation (upstream preemption)', () => {
  const pods = ['a', 'b', 'c'].map((n) => info(labelled(makePod(n), 'web')));
  it.each<[string, PodDisruptionBudget[], string[], string[]]>([
    ['no budget: none violates', [], [], ['a', 'b', 'c']],
    ['one allowed: the first takes it, the rest violate', [pdb('web', 1)], ['b', 'c'], ['a']],
    ['a pod already disrupted takes nothing', [pdb('web', 1, ['a'])], ['c'], ['a', 'b']],
    ['another app’s budget does not count', [pdb('db', 0)], [], ['a', 'b', 'c']],
  ])('%s', (_n, pdbs, violating, nonViolating) => {
    const r = filterPodsWithPDBViolation(pods, pdbs);
    expect([names(r.violating), names(r.nonViolating)]).toEqual([violating, nonViolating]);
  });

  it('an empty selector matches nothing, as upstream’s preemption reads it', () => {
    const all: PodDisruptionBudget = { ...pdb('web', 0), spec: { minAvailable: 1, selector: {} } };
    expect(names(filterPodsWithPDBViolation(pods, [all]).violating)).toEqual([]);
  });
});

describe('pickOneNode', () => {
  it('prefers the node with fewer PDB violations over lower victim priority', () => {
    const c = (node: string, prio: number, numPDBViolations: number): Candidate => ({ node, victims: [info(makePod(`v-${node}`, { priority: prio }))], numPDBViolations });
    expect(pickOneNode([c('n1', 0, 1), c('n2', 50, 0)])?.node).toBe('n2');
    expect(pickOneNode([c('n1', 0, 0), c('n2', 50, 0)])?.node).toBe('n1');
  });
});

describe('DefaultPreemption with budgets', () => {
  function setup(nodes: Node[], pods: Pod[], actions: ClusterActions) {
    const cache = new SchedulerCache();
    for (const n of nodes) cache.addNode(n);
    for (const p of pods) cache.addPod(p);
    return { cache, fwk: new Framework(newInTreeRegistry(), defaultProfile(), cache, actions), algo: newAlgorithmState(() => 0.5) };
  }

  it('preempts on the node whose victims no budget protects, and tells the victim’s deletion who preempted', async () => {
    const deleted: string[] = [];
    const { cache, fwk, algo } = setup(
      [makeNode('n1', { cpu: '1' }), makeNode('n2', { cpu: '1' })],
      [labelled(boundPod('db-1', 'n1', { cpu: '1', priority: 0 }), 'db'), labelled(boundPod('batch-1', 'n2', { cpu: '1', priority: 10 }), 'batch')],
      {
        podDisruptionBudgets: () => [pdb('db', 0)],
        deletePod: async (p, preemptor) => void deleted.push(`${p.metadata.name} by ${preemptor?.metadata.name}`),
        setNominatedNodeName: async () => undefined,
      },
    );
    const pod = makePod('urgent', { cpu: '1', priority: 100 });
    const state = new CycleState();
    const out = schedulePod(fwk, algo, state, pod, cache.list());
    if (out.ok || !('fitError' in out)) throw new Error('expected a FitError');
    const post = await fwk.runPostFilterPlugins(state, pod, out.fitError.diagnosis.nodeToStatus);
    expect(post.result).toEqual({ nominatedNodeName: 'n2' });
    expect(deleted).toEqual(['batch-1 by urgent']);
  });
});
