import { describe, expect, it } from 'vitest';
import { applyPatch, type Node } from '@kubelab/api';
import { nodeStatusPatch } from './patch.js';

const base = (): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', resourceVersion: '41', labels: { a: '1' } },
  spec: { podCIDR: '10.244.1.0/24', taints: [{ key: 'k', effect: 'NoSchedule' }] },
  status: {
    conditions: [
      { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: '2026-12-07T10:00:00Z', lastTransitionTime: '2026-12-07T09:00:00Z', reason: 'KubeletHasSufficientMemory', message: 'ok' },
      { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-12-07T10:00:00Z', lastTransitionTime: '2026-12-07T09:00:00Z', reason: 'KubeletReady', message: 'ok' },
      { type: 'KernelDeadlock', status: 'False', lastHeartbeatTime: '2026-12-07T10:00:00Z', lastTransitionTime: '2026-12-07T09:00:00Z', reason: 'KernelHasNoDeadlock', message: 'npd' },
    ],
    addresses: [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'Hostname', address: 'node-1' },
    ],
  },
});

describe('nodeStatusPatch (upstream PatchNodeStatus)', () => {
  it('sends the heartbeats only, without a resourceVersion, and never the spec', () => {
    const original = base();
    const modified = base();
    modified.metadata.resourceVersion = '41';
    modified.spec = { podCIDR: 'changed-by-nobody' };
    modified.status!.conditions = modified.status!.conditions!.map((c) => (c.type === 'KernelDeadlock' ? c : { ...c, lastHeartbeatTime: '2026-12-07T10:05:00Z' }));
    expect(nodeStatusPatch(original, modified)).toEqual({
      status: {
        conditions: [
          { type: 'MemoryPressure', lastHeartbeatTime: '2026-12-07T10:05:00Z' },
          { type: 'Ready', lastHeartbeatTime: '2026-12-07T10:05:00Z' },
        ],
        '$setElementOrder/conditions': [{ type: 'MemoryPressure' }, { type: 'Ready' }, { type: 'KernelDeadlock' }],
      },
    });
  });

  it('sends changed addresses whole with $patch: replace, which the server applies as the new list', () => {
    const original = base();
    const modified = base();
    modified.status!.addresses = [
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'InternalIP', address: '10.0.0.3' },
    ];
    const patch = nodeStatusPatch(original, modified);
    expect(patch).toEqual({ status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, { type: 'InternalIP', address: '10.0.0.3' }, { $patch: 'replace' }] } });
    expect((applyPatch('application/strategic-merge-patch+json', original, patch) as Node).status?.addresses).toEqual(modified.status!.addresses);
  });

  it('is empty when nothing changed', () => {
    expect(nodeStatusPatch(base(), base())).toEqual({});
  });
});
