import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { makePod } from '../testing/builders.js';
import { Nominator } from './nominator.js';
import { SchedulingQueue } from './scheduling-queue.js';

const withNNN = (p: Pod, node?: string): Pod => ({ ...p, status: { phase: 'Pending', ...(node ? { nominatedNodeName: node } : {}) } });
const onNode = (n: Nominator, node: string) => n.nominatedPodsForNode(node).map((p) => p.key);

describe('Nominator (the queue’s record of status.nominatedNodeName)', () => {
  it('follows the pod through the queue: add, the preemption override, a status update, delete', () => {
    const q = new SchedulingQueue({ less: () => false });
    const n = q.nominator;
    q.add(withNNN(makePod('restarted'), 'node-2'));
    expect(onNode(n, 'node-2')).toEqual(['default/restarted']);

    const p = withNNN(makePod('urgent'));
    q.add(p);
    expect(n.nominatedNodeOf(p)).toBeUndefined();
    // Preemption nominates node-1 in memory before the status patch comes back.
    n.addNominatedPod(p, 'node-1');
    q.update(p, { ...p, metadata: { ...p.metadata, resourceVersion: '2' } });
    expect(onNode(n, 'node-1')).toEqual(['default/urgent']);
    // The status patch arrives.
    const patched = withNNN(p, 'node-1');
    q.update(p, patched);
    expect(onNode(n, 'node-1')).toEqual(['default/urgent']);
    // Status cleared: the nomination goes.
    q.update(patched, withNNN(p));
    expect(onNode(n, 'node-1')).toEqual([]);

    q.update(p, patched);
    q.delete(patched);
    expect(onNode(n, 'node-1')).toEqual([]);
    expect(onNode(n, 'node-2')).toEqual(['default/restarted']);
  });

  it('moves a pod nominated again to another node, and ignores bound pods', () => {
    const n = new Nominator();
    const p = makePod('urgent');
    n.addNominatedPod(p, 'node-1');
    n.addNominatedPod(p, 'node-2');
    expect([onNode(n, 'node-1'), onNode(n, 'node-2')]).toEqual([[], ['default/urgent']]);
    n.addNominatedPod(makePod('bound', { nodeName: 'node-1' }), 'node-1');
    expect(onNode(n, 'node-1')).toEqual([]);
  });

  it('says whether any pod is nominated anywhere', () => {
    const n = new Nominator();
    expect(n.hasNominatedPods()).toBe(false);
    const p = makePod('urgent');
    n.addNominatedPod(p, 'node-1');
    expect(n.hasNominatedPods()).toBe(true);
    n.deleteNominatedPodIfExists(p);
    expect(n.hasNominatedPods()).toBe(false);
  });
});
