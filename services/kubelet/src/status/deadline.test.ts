import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { emptyPodStatus } from '../kuberuntime/podstatus.js';
import { DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON, pastActiveDeadline } from './deadline.js';
import { generateAPIPodStatus } from './generate.js';

const start = Date.UTC(2025, 0, 1);
const pod = (deadline?: number): Pod => ({
  metadata: { name: 'job', namespace: 'default', uid: 'u1' },
  spec: { containers: [{ name: 'app', image: 'busybox' }], ...(deadline !== undefined ? { activeDeadlineSeconds: deadline } : {}) },
});

describe('active deadline', () => {
  it('is past once the pod has been active for activeDeadlineSeconds since startTime', () => {
    const st = { startTime: '2025-01-01T00:00:00Z' };
    expect(pastActiveDeadline(pod(30), st, start + 29_999)).toBe(false);
    expect(pastActiveDeadline(pod(30), st, start + 30_000)).toBe(true);
    expect(pastActiveDeadline(pod(), st, start + 1e9)).toBe(false);
    expect(pastActiveDeadline(pod(30), {}, start + 1e9)).toBe(false);
    // Pod time runs faster under --time-scale.
    expect(pastActiveDeadline(pod(30), st, start + 3_000, 10)).toBe(true);
  });

  it('a pod failed by a kubelet module reports Failed with its reason, and keeps it', () => {
    const p = pod(30);
    const first = generateAPIPodStatus({
      pod: p,
      runtime: emptyPodStatus('u1', 'job', 'default'),
      oldStatus: { phase: 'Running', startTime: '2025-01-01T00:00:00Z' },
      runtimeName: 'containerd',
      nodeIPs: ['10.0.0.1'],
      now: start + 31_000,
      evict: { reason: DEADLINE_EXCEEDED_REASON, message: DEADLINE_EXCEEDED_MESSAGE },
    });
    expect(first).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
    const next = generateAPIPodStatus({ pod: p, runtime: emptyPodStatus('u1', 'job', 'default'), oldStatus: first, runtimeName: 'containerd', nodeIPs: ['10.0.0.1'], now: start + 40_000 });
    expect(next).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
  });

  it('an eviction adds its DisruptionTarget condition', () => {
    const s = generateAPIPodStatus({
      pod: pod(),
      runtime: emptyPodStatus('u1', 'job', 'default'),
      oldStatus: { phase: 'Running' },
      runtimeName: 'containerd',
      nodeIPs: [],
      now: start,
      evict: { reason: 'Evicted', message: 'm', condition: { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: 'm' } },
    });
    expect(s.conditions?.find((c) => c.type === 'DisruptionTarget')).toEqual({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'TerminationByKubelet',
      message: 'm',
      lastProbeTime: null,
      lastTransitionTime: '2025-01-01T00:00:00Z',
    });
  });
});
