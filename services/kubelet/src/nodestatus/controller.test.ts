import type { NodeCondition, NodeStatus } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { conditionEventReasons, ownConditionsDiffer } from './controller.js';

const status = (...conds: [string, 'True' | 'False', string?][]): NodeStatus => ({
  conditions: conds.map(([type, s, beat]) => ({ type, status: s, ...(beat ? { lastHeartbeatTime: beat } : {}) }) as NodeCondition),
});

describe('conditionEventReasons', () => {
  it.each<{ name: string; prev?: NodeStatus; next: NodeStatus; reasons: string[] }>([
    { name: 'the first status reports every pressure condition', next: status(['MemoryPressure', 'False'], ['DiskPressure', 'False']), reasons: ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure'] },
    { name: 'a first Ready condition is appended without an event, as upstream', next: status(['MemoryPressure', 'False'], ['Ready', 'False']), reasons: ['NodeHasSufficientMemory'] },
    { name: 'Ready False → True is reported', prev: status(['Ready', 'False', '2026-01-01T00:00:00Z']), next: status(['Ready', 'True']), reasons: ['NodeReady'] },
    { name: 'an unchanged condition already reported is quiet', prev: status(['Ready', 'True', '2026-01-01T00:00:00Z']), next: status(['Ready', 'True']), reasons: [] },
    { name: 'a flip is reported', prev: status(['Ready', 'True', '2026-01-01T00:00:00Z']), next: status(['Ready', 'False']), reasons: ['NodeNotReady'] },
    { name: 'a condition never heartbeaten counts as not reported yet', prev: status(['DiskPressure', 'True']), next: status(['DiskPressure', 'True']), reasons: ['NodeHasDiskPressure'] },
    { name: 'Ready compares status only (upstream ReadyCondition): unchanged is quiet, heartbeat or not', prev: status(['Ready', 'False']), next: status(['Ready', 'False']), reasons: [] },
    { name: 'PID pressure has its own reasons', next: status(['PIDPressure', 'True']), reasons: ['NodeHasInsufficientPID'] },
    { name: 'conditions without event reasons are skipped', next: status(['NetworkUnavailable', 'True']), reasons: [] },
  ])('$name', ({ prev, next, reasons }) => {
    expect(conditionEventReasons(prev, next)).toEqual(reasons);
  });
});

describe("ownConditionsDiffer (the apiserver's copy against the kubelet's own conditions)", () => {
  const cond = (type: string, s: string, reason: string, message = ''): NodeCondition => ({ type, status: s, reason, message }) as NodeCondition;
  const ready = cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status');
  it.each<{ name: string; server?: NodeStatus; want: boolean }>([
    { name: 'no Node read yet', want: false },
    { name: 'the same conditions', server: { conditions: [ready] }, want: false },
    { name: "other writers' conditions beside them (NPD) do not count", server: { conditions: [ready, cond('KernelDeadlock', 'False', 'KernelHasNoDeadlock')] }, want: false },
    {
      name: 'the node lifecycle controller set Unknown while the kubelet was cut off',
      server: { conditions: [cond('Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.')] },
      want: true,
    },
    { name: 'the condition missing there', server: { conditions: [] }, want: true },
  ])('$name', ({ server, want }) => expect(ownConditionsDiffer(server, { conditions: [ready] })).toBe(want));
});
