import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const cpu = (target: Record<string, unknown>) => ({ type: 'Resource', resource: { name: 'cpu', target } });
const hpa = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default', creationTimestamp: new Date(now.getTime() - 90_000).toISOString() },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
  ...(status ? { status } : {}),
});
const utilization = { type: 'Utilization', averageUtilization: 50 };

describe('horizontalpodautoscaler rows (kubectl get hpa)', () => {
  it.each<[string, Record<string, unknown>, unknown[]]>([
    ['just created: no metric read yet', hpa({ minReplicas: 1, metrics: [cpu(utilization)] }, { desiredReplicas: 0 }), ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', 5, 0, '90s']],
    [
      'a measured utilization',
      hpa(
        { minReplicas: 1, metrics: [cpu(utilization)] },
        { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 80, averageValue: '80m' } } }] },
      ),
      ['web', 'Deployment/web', 'cpu: 80%/50%', '1', 5, 2, '90s'],
    ],
    ['an average value target', hpa({ metrics: [cpu({ type: 'AverageValue', averageValue: '300m' })] }), ['web', 'Deployment/web', 'cpu: <unknown>/300m', '<unset>', 5, 0, '90s']],
    ['no metrics', hpa({}), ['web', 'Deployment/web', '<none>', '<unset>', 5, 0, '90s']],
    [
      'three metrics: two shown',
      hpa({ metrics: [cpu(utilization), { type: 'Resource', resource: { name: 'memory', target: utilization } }, cpu(utilization)] }),
      ['web', 'Deployment/web', 'cpu: <unknown>/50%, memory: <unknown>/50% + 1 more...', '<unset>', 5, 0, '90s'],
    ],
  ])('%s', (_n, obj, want) => {
    expect(printTable('HorizontalPodAutoscaler', [obj], { now }).rows[0]!.cells).toEqual(want);
  });
  it('an autoscaling/v1 object prints as its v2 form', () => {
    const v1 = { ...hpa({ minReplicas: 1, targetCPUUtilizationPercentage: 50 }, { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 12 }), apiVersion: 'autoscaling/v1' };
    expect(printTable('HorizontalPodAutoscaler', [v1], { now }).rows[0]!.cells).toEqual(['web', 'Deployment/web', 'cpu: 12%/50%', '1', 5, 1, '90s']);
  });
  it('columns', () => {
    expect(printTable('HorizontalPodAutoscaler', [], { now }).columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  });
});
