// SetDefaults_HorizontalPodAutoscaler (pkg/apis/autoscaling/v2/defaults.go):
// minReplicas 1, 80% average CPU utilization when no metric is given, and a
// behavior given in part completed with the default rules of each direction.
import type { HorizontalPodAutoscaler, HPAScalingRules } from './types.js';

/** autoscaling.DefaultCPUUtilization. */
export const DEFAULT_CPU_UTILIZATION = 80;

// GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: up by 4 pods or 100% per 15 s at once, down by 100% per 15 s after 300 s.
const scaleUpRules = (): Required<HPAScalingRules> => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});
const scaleDownRules = (): Required<HPAScalingRules> => ({ stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

function fill(r: HPAScalingRules | undefined, d: Required<HPAScalingRules>): HPAScalingRules {
  return { stabilizationWindowSeconds: r?.stabilizationWindowSeconds ?? d.stabilizationWindowSeconds, selectPolicy: r?.selectPolicy ?? d.selectPolicy, policies: r?.policies ?? d.policies };
}

export function defaultHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): void {
  if (!hpa.spec) return;
  hpa.spec.minReplicas ??= 1;
  if (!hpa.spec.metrics?.length) {
    hpa.spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (hpa.spec.behavior) hpa.spec.behavior = { scaleUp: fill(hpa.spec.behavior.scaleUp, scaleUpRules()), scaleDown: fill(hpa.spec.behavior.scaleDown, scaleDownRules()) };
}
