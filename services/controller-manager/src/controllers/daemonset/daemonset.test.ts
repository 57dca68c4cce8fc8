import type { DaemonSet, Node, Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import {
  daemonSetStatus,
  decideNodes,
  maxSurgeCount,
  maxUnavailableCount,
  newDaemonPod,
  nodeShouldRunDaemonPod,
  planDaemonPods,
  surgingRollingUpdate,
  targetNodeName,
  templateHash,
} from './decisions.js';

const ds: DaemonSet = {
  metadata: { name: 'agent', namespace: 'default', uid: 'ds', generation: 1, annotations: { 'deprecated.daemonset.template.generation': '1' } },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a' }] } } },
};
const node = (name: string, taints: Node['spec'] extends infer S ? (S extends { taints?: infer T } ? T : never) : never = [], labels: Record<string, string> = {}): Node => ({
  metadata: { name, labels },
  spec: { taints },
});

describe('which nodes run a daemon pod', () => {
  it.each<[string, Node, boolean, boolean]>([
    ['plain node', node('n'), true, true],
    ['not-ready NoExecute is tolerated by default', node('n', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]), true, true],
    ['cordoned (unschedulable) is tolerated', node('n', [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]), true, true],
    ['a user NoSchedule taint: no new pod, the old one stays', node('n', [{ key: 'dedicated', effect: 'NoSchedule' }]), false, true],
    ['a user NoExecute taint: the pod goes', node('n', [{ key: 'dedicated', effect: 'NoExecute' }]), false, false],
  ])('%s', (_n, n, run, cont) => expect(nodeShouldRunDaemonPod(n, ds)).toEqual({ shouldRun: run, shouldContinueRunning: cont }));
  it('honours the template nodeSelector', () => {
    const sel = { ...ds, spec: { ...ds.spec!, template: { ...ds.spec!.template, spec: { ...ds.spec!.template.spec!, nodeSelector: { role: 'edge' } } } } };
    expect(nodeShouldRunDaemonPod(node('n', [], { role: 'core' }), sel).shouldRun).toBe(false);
    expect(nodeShouldRunDaemonPod(node('n', [], { role: 'edge' }), sel).shouldRun).toBe(true);
  });
  it("decides every node of a sync once, in the nodes' order, as for each node alone", () => {
    const nodes = [node('a'), node('b', [{ key: 'dedicated', effect: 'NoSchedule' }]), node('c', [{ key: 'dedicated', effect: 'NoExecute' }])];
    expect(decideNodes(ds, nodes)).toEqual(nodes.map((n) => ({ name: n.metadata.name, ...nodeShouldRunDaemonPod(n, ds) })));
  });
});

describe('daemon pods', () => {
  it('are pinned to their node by required node affinity on metadata.name', () => {
    const p = newDaemonPod(ds, 'n1');
    expect(p.spec?.nodeName).toBeUndefined();
    expect(targetNodeName(p)).toBe('n1');
    expect(p.metadata.labels).toMatchObject({ app: 'agent', 'pod-template-generation': '1' });
  });
  it('carry the template generation the apiserver annotated, not metadata.generation', () => {
    const bumped: DaemonSet = { ...ds, metadata: { ...ds.metadata, generation: 5, annotations: { 'deprecated.daemonset.template.generation': '3' } } };
    expect(newDaemonPod(bumped, 'n1').metadata.labels?.['pod-template-generation']).toBe('3');
    const unannotated: DaemonSet = { ...ds, metadata: { name: 'agent', namespace: 'default', uid: 'ds', generation: 1 } };
    expect(newDaemonPod(unannotated, 'n1').metadata.labels).not.toHaveProperty('pod-template-generation');
  });
  it('are created where missing and deleted where extra', () => {
    const p1 = { ...newDaemonPod(ds, 'n1'), metadata: { ...newDaemonPod(ds, 'n1').metadata, name: 'a', creationTimestamp: '2026-01-01T00:00:00Z' } } as Pod;
    const p2 = { ...p1, metadata: { ...p1.metadata, name: 'b', creationTimestamp: '2026-01-01T00:01:00Z' } } as Pod;
    const plan = planDaemonPods(decideNodes(ds, [node('n1'), node('n2')]), new Map([['n1', [p1, p2]]]));
    expect(plan.create).toEqual(['n2']);
    expect(plan.delete.map((p) => p.metadata.name)).toEqual(['b']);
    expect(daemonSetStatus(ds, decideNodes(ds, [node('n1'), node('n2')]), new Map([['n1', [p1]]]), 0)).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 1,
      numberMisscheduled: 0,
      updatedNumberScheduled: 1,
      numberUnavailable: 2,
    });
  });
});

describe('daemon set status as stored (Go omitempty)', () => {
  const readyPod = (nodeName: string): Pod => {
    const p = newDaemonPod(ds, nodeName);
    return { ...p, metadata: { ...p.metadata, name: `agent-${nodeName}` }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
  };
  it('all daemons available: numberUnavailable is left out, the four scheduling counts stay even when 0', () => {
    expect(daemonSetStatus(ds, decideNodes(ds, [node('n1')]), new Map([['n1', [readyPod('n1')]]]), Date.parse('2026-01-01T00:01:00Z'))).toEqual({
      currentNumberScheduled: 1,
      numberMisscheduled: 0,
      desiredNumberScheduled: 1,
      numberReady: 1,
      observedGeneration: 1,
      updatedNumberScheduled: 1,
      numberAvailable: 1,
    });
  });
  it('no node to run on: only the four required counts, all 0', () => {
    expect(daemonSetStatus(ds, [], new Map(), 0)).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, observedGeneration: 1 });
  });
});

describe('rolling update budget', () => {
  const withMax = (maxUnavailable: number | string, nodeSelector?: Record<string, string>): DaemonSet => ({
    ...ds,
    spec: {
      ...ds.spec!,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } },
      template: { ...ds.spec!.template, spec: { ...ds.spec!.template.spec!, ...(nodeSelector ? { nodeSelector } : {}) } },
    },
  });
  const nodes = [...Array.from({ length: 8 }, (_, i) => node(`core-${i}`, [], { role: 'core' })), node('edge-0', [], { role: 'edge' }), node('edge-1', [], { role: 'edge' })];
  const maxUnavailable = (d: DaemonSet) => maxUnavailableCount(d, decideNodes(d, nodes));
  it('scales maxUnavailable against the nodes that should run the daemon, not every node', () => {
    // 25% of the 2 eligible nodes rounds up to 1 (of all 10 nodes it would be 3).
    expect(maxUnavailable(withMax('25%', { role: 'edge' }))).toBe(1);
    expect(maxUnavailable(withMax('25%'))).toBe(3);
    expect(maxUnavailable(withMax(2, { role: 'edge' }))).toBe(2);
  });
  it('is at least 1 while some node should run the daemon', () => {
    expect(maxUnavailable(withMax(0))).toBe(1);
    expect(maxUnavailable(withMax('25%', { role: 'none' }))).toBe(0);
  });
});

describe('rolling update with maxSurge', () => {
  const surging = (maxSurge: number | string): DaemonSet => ({
    ...ds,
    spec: { ...ds.spec!, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge } } },
  });
  const NOW = Date.parse('2026-01-01T00:10:00Z');
  const daemon = (d: DaemonSet, nodeName: string, o: { hash?: string; ready?: boolean; created?: string } = {}): Pod => {
    const p = newDaemonPod(d, nodeName);
    return {
      ...p,
      metadata: {
        ...p.metadata,
        name: `agent-${nodeName}-${o.hash ?? 'new'}`,
        creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
        labels: { ...p.metadata.labels, ...(o.hash ? { 'controller-revision-hash': o.hash } : {}) },
      },
      spec: { ...p.spec!, nodeName },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: (o.ready ?? true) ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    };
  };
  const nodes = [node('n1'), node('n2'), node('n3')];

  it('surges onto maxSurge nodes whose old pod is available, at once onto a node whose old pod is not', () => {
    const d = surging(1);
    const byNode = new Map([
      ['n1', [daemon(d, 'n1', { hash: 'old' })]],
      ['n2', [daemon(d, 'n2', { hash: 'old' })]],
      ['n3', [daemon(d, 'n3', { hash: 'old', ready: false })]],
    ]);
    const plan = surgingRollingUpdate(d, decideNodes(d, nodes), byNode, maxSurgeCount(d, decideNodes(d, nodes)), NOW);
    expect(plan).toEqual({ create: ['n3', 'n1'], delete: [] });
  });

  it('deletes the old pod once the new one on its node is available; a new pod not yet available uses up the budget', () => {
    const d = surging(1);
    const byNode = new Map([
      ['n1', [daemon(d, 'n1', { hash: 'old' }), daemon(d, 'n1')]],
      ['n2', [daemon(d, 'n2', { hash: 'old' }), daemon(d, 'n2', { ready: false })]],
      ['n3', [daemon(d, 'n3', { hash: 'old' })]],
    ]);
    const plan = surgingRollingUpdate(d, decideNodes(d, nodes), byNode, 1, NOW);
    expect([plan.create, names(plan.delete)]).toEqual([[], ['agent-n1-old']]);
  });

  it('the manage loop keeps an old ready pod beside a new unready one while surging, and not without surge', () => {
    const d = surging(1);
    const pods = [daemon(d, 'n1', { hash: 'old' }), daemon(d, 'n1', { ready: false, created: '2026-01-01T00:05:00Z' })];
    expect(planDaemonPods(decideNodes(d, [node('n1')]), new Map([['n1', pods]]), templateHash(d)).delete).toEqual([]);
    expect(names(planDaemonPods(decideNodes(d, [node('n1')]), new Map([['n1', pods]])).delete)).toEqual(['agent-n1-new']);
  });

  it('maxSurge is scaled against the eligible nodes, rounded up; maxUnavailable 0 stays 0 while surging', () => {
    expect(maxSurgeCount(surging('50%'), decideNodes(ds, nodes))).toBe(2);
    expect(maxUnavailableCount(surging(1), decideNodes(ds, nodes))).toBe(0);
  });
});

const names = (ps: Pod[]) => ps.map((p) => p.metadata.name);
