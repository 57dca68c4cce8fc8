import type { NodeCondition } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { aggregate, buildNodeStatus, mergeConditions, nodeStatusChanged, readyCondition, runtimeErrors, stampConditions, type NodeStatusInput } from './setters.js';
import { MACHINE } from '../testing/machine.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('node Ready condition', () => {
  it.each([
    ['healthy runtime', { lastBaseRuntimeSync: NOW - 1000 }, []],
    ['no Status call yet', { lastBaseRuntimeSync: 0 }, ['container runtime status check may not have completed yet']],
    ['runtime silent past the threshold', { lastBaseRuntimeSync: NOW - 31_000 }, ['container runtime is down']],
    [
      'runtime down and PLEG unhealthy',
      { lastBaseRuntimeSync: NOW - 200_000, plegError: 'pleg was last seen active 3m20s ago; threshold is 3m0s' },
      ['container runtime is down', 'PLEG is not healthy: pleg was last seen active 3m20s ago; threshold is 3m0s'],
    ],
    [
      'runtime reports not ready',
      { lastBaseRuntimeSync: NOW - 1000, networkNotReady: { reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' } },
      ['container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'],
    ],
  ])('%s', (_n, h, want) => {
    expect(runtimeErrors({ baseRuntimeSyncThresholdMs: 30_000, now: NOW, ...h })).toEqual(want);
  });

  it('reads as upstream for ready and not ready', () => {
    expect(readyCondition([])).toEqual({ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    expect(readyCondition(['container runtime is down'])).toEqual({ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' });
    expect(aggregate(['a', 'b'])).toBe('[a, b]');
  });

  it('keeps lastTransitionTime while the status holds and moves it on a change', () => {
    const first = stampConditions([readyCondition([])], undefined, NOW);
    const second = stampConditions([readyCondition([])], first, NOW + 10_000);
    expect(second[0]).toMatchObject({ lastTransitionTime: '2025-01-01T12:00:00Z', lastHeartbeatTime: '2025-01-01T12:00:10Z' });
    const third = stampConditions([readyCondition(['container runtime is down'])], second, NOW + 20_000);
    expect(third[0]).toMatchObject({ status: 'False', lastTransitionTime: '2025-01-01T12:00:20Z' });
  });
});

describe('node status', () => {
  const input = (over: Partial<NodeStatusInput> = {}): NodeStatusInput => ({
    machine: MACHINE,
    health: { lastBaseRuntimeSync: NOW, baseRuntimeSyncThresholdMs: 30_000, now: NOW },
    nodeIP: '127.0.0.1',
    hostname: 'node-1',
    kubeletPort: 10250,
    containerRuntimeVersion: 'containerd://1.7.24',
    images: [],
    now: NOW,
    ...over,
  });

  it('has capacity, allocatable, conditions in upstream order, addresses, nodeInfo and the kubelet port', () => {
    const s = buildNodeStatus(input());
    expect(s.capacity).toEqual({ cpu: '2', 'ephemeral-storage': '104857600Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '4194304Ki', pods: '110' });
    expect(s.allocatable).toMatchObject({ memory: '4091904Ki', pods: '110', 'ephemeral-storage': '96636764160' });
    expect(s.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ]);
    expect(s.addresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    expect(s.nodeInfo?.containerRuntimeVersion).toBe('containerd://1.7.24');
    expect(s.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
  });

  it('counts as changed only when more than heartbeat times differ', () => {
    const a = buildNodeStatus(input());
    const b = buildNodeStatus(input({ now: NOW + 10_000, old: a, health: { lastBaseRuntimeSync: NOW + 10_000, baseRuntimeSyncThresholdMs: 30_000, now: NOW + 10_000 } }));
    expect(nodeStatusChanged(a, b)).toBe(false);
    const c = buildNodeStatus(input({ now: NOW + 60_000, old: b, health: { lastBaseRuntimeSync: NOW, baseRuntimeSyncThresholdMs: 30_000, now: NOW + 60_000 } }));
    expect(nodeStatusChanged(b, c)).toBe(true);
  });
});

describe('mergeConditions', () => {
  const c = (type: string, status: 'True' | 'False'): NodeCondition => ({ type, status, reason: `${type}${status}`, message: '' });
  it.each([
    ["first post: the kubelet's", undefined, [c('Ready', 'True')], [c('Ready', 'True')]],
    [
      "the Node Problem Detector's stay, the kubelet's replace theirs in place",
      [c('Ready', 'True'), c('KernelDeadlock', 'False')],
      [c('Ready', 'False')],
      [c('Ready', 'False'), c('KernelDeadlock', 'False')],
    ],
    ["a new one of the kubelet's is appended", [c('KernelDeadlock', 'False')], [c('MemoryPressure', 'False')], [c('KernelDeadlock', 'False'), c('MemoryPressure', 'False')]],
  ])('%s', (_what, current, own, want) => expect(mergeConditions(current, own)).toEqual(want));
});
