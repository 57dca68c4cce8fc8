import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec } from '../index.js';
import { setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (errs: ReturnType<typeof validateObject>): string[] => errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
const cpu = (averageUtilization: number): HorizontalPodAutoscalerSpec['metrics'] => [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } }];
const hpa = (spec: Partial<HorizontalPodAutoscalerSpec>): HorizontalPodAutoscaler => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
});

describe('HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation)', () => {
  it.each<[string, Partial<HorizontalPodAutoscalerSpec>, string[]]>([
    ['kubectl autoscale --min=1 --max=5 --cpu-percent=50', { minReplicas: 1, metrics: cpu(50) }, []],
    ['minReplicas 0 (scale to zero is gated)', { minReplicas: 0 }, ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']],
    ['maxReplicas below minReplicas', { minReplicas: 7 }, ['spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`']],
    ['maxReplicas 0', { maxReplicas: 0 }, ['spec.maxReplicas: Invalid value: 0: must be greater than 0']],
    ['no target', { scaleTargetRef: { kind: '', name: '' } }, ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']],
    ['a target name with a slash', { scaleTargetRef: { kind: 'Deployment', name: 'a/b' } }, ['spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'']],
    ['a zero utilization', { metrics: cpu(0) }, ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']],
    [
      'both a utilization and an average value',
      { metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50, averageValue: '300m' } } }] },
      ['spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization'],
    ],
    ['a Resource metric without its source', { metrics: [{ type: 'Resource' }] }, ['spec.metrics[0].resource: Required value: must populate information for the given metric source']],
    ['an unknown source type', { metrics: [{ type: 'Cpu' }] }, ['spec.metrics[0].type: Unsupported value: "Cpu": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"']],
    [
      'a behavior with a bad policy',
      { behavior: { scaleDown: { stabilizationWindowSeconds: 4000, policies: [{ type: 'Percent', value: 0, periodSeconds: 15 }] } } },
      [
        'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
        'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      ],
    ],
  ])('%s', (_, spec, want) => {
    expect(messages(validateObject(hpa(spec)))).toEqual(want);
  });
});

describe('HorizontalPodAutoscaler defaults (SetDefaults_HorizontalPodAutoscaler)', () => {
  it('minReplicas 1 and 80% CPU when no metric is given; no behavior is invented', () => {
    const h = hpa({});
    setDefaults(h);
    expect(h.spec).toMatchObject({ minReplicas: 1, metrics: cpu(80) });
    expect(h.spec?.behavior).toBeUndefined();
  });
  it('a behavior given in part is completed per direction', () => {
    const h = hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 0 } } });
    setDefaults(h);
    expect(h.spec?.behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });
});
