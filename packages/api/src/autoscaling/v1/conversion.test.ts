import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler } from '../v2/types.js';
import { hpaFromV1, hpaToV1 } from './conversion.js';
import type { HorizontalPodAutoscaler as HorizontalPodAutoscalerV1 } from './types.js';

describe('autoscaling/v1 ↔ v2 HorizontalPodAutoscaler conversion', () => {
  it('kubectl autoscale --cpu-percent=50: the CPU target is a Resource metric', () => {
    const v1: HorizontalPodAutoscalerV1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
    };
    expect(hpaFromV1(v1)).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      },
    });
  });

  it('what v1 cannot hold rides in annotations and comes back whole', () => {
    const v2: HorizontalPodAutoscaler = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', annotations: { team: 'a' } },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 0 } },
      },
      status: {
        currentReplicas: 2,
        desiredReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 80, averageValue: '80m' } } }],
        conditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: 'm' }],
      },
    };
    const v1 = hpaToV1(v2);
    expect(v1.spec).toEqual({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 50 });
    expect(v1.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 80 });
    expect(Object.keys(v1.metadata.annotations ?? {})).toEqual([
      'team',
      'autoscaling.alpha.kubernetes.io/metrics',
      'autoscaling.alpha.kubernetes.io/behavior',
      'autoscaling.alpha.kubernetes.io/conditions',
    ]);
    const back = hpaFromV1(v1);
    expect(back.spec).toEqual(v2.spec);
    expect(back.metadata.annotations).toEqual({ team: 'a' });
    // The CPU average value is v2's alone; the utilization comes back.
    expect(back.status?.currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 80 } } }]);
    expect(back.status?.conditions).toEqual(v2.status?.conditions);
  });
});
