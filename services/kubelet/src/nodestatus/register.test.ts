import type { Node } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { newTestKubelet } from '../testing/test-kubelet.js';

describe('registering a Node that exists (upstream tryRegisterWithAPIServer)', () => {
  it("reconciles the kubelet's labels into it with a PATCH of nodes/status, keeping what others set", async () => {
    const t = newTestKubelet();
    const existing: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { team: 'a' }, annotations: { note: 'kept' } }, spec: { unschedulable: true } };
    t.api.seed(GVR.nodes, existing);
    t.api.clearActions();
    await t.kubelet.nodeStatus.registerNode();
    const writes = t.api.actionLines().filter((l) => !l.startsWith('get ') && !l.startsWith('list ') && !l.startsWith('watch '));
    expect(writes[0]).toBe('create nodes');
    expect(writes[1]).toBe('patch nodes/status node-1');
    const node = t.api.peek<Node>(GVR.nodes, '', 'node-1')!;
    expect(node.metadata.labels).toMatchObject({ team: 'a', 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux' });
    expect(node.metadata.annotations).toMatchObject({ note: 'kept' });
    expect(node.spec).toEqual({ unschedulable: true });
    t.kubelet.nodeStatus.stop();
  });

  it.each([
    { name: 'a new Node', seed: false },
    { name: 'a Node that exists (a restarted kubelet)', seed: true },
  ])("records upstream's registration events for $name: the pressure conditions' first values, no Ready event", async ({ seed }) => {
    const t = newTestKubelet();
    // What the kubelet posted before its restart: every condition heartbeaten (Ready False, as this test kubelet's runtime never reports ready).
    const beat = '2026-01-01T00:00:00Z';
    const cond = (type: string, status: 'True' | 'False') => ({ type, status, lastHeartbeatTime: beat, lastTransitionTime: beat });
    const conditions = [cond('MemoryPressure', 'False'), cond('DiskPressure', 'False'), cond('PIDPressure', 'False'), cond('Ready', 'False')];
    const before: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, status: { conditions } };
    if (seed) t.api.seed(GVR.nodes, before);
    await t.kubelet.nodeStatus.registerWithRetry();
    t.kubelet.nodeStatus.stop();
    expect(t.recorder.events.map((e) => e.split(' ')[1])).toEqual(['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeAllocatableEnforced']);
  });
});
