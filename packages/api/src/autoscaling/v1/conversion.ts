// autoscaling/v1 ↔ autoscaling/v2 HorizontalPodAutoscaler (upstream
// pkg/apis/autoscaling/v1/conversion.go): v1 has one target, CPU
// utilization, which is a Resource metric of v2. What v1 cannot hold
// travels in annotations so that a v1 round trip loses nothing: the other
// metrics, the behavior, the other current metrics and the conditions.
// (Upstream writes the metrics in v1's own MetricSpec form; here they are
// v2's JSON.)

import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerCondition, MetricSpec, MetricStatus } from '../v2/types.js';
import type { HorizontalPodAutoscaler as HorizontalPodAutoscalerV1 } from './types.js';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const ANNOTATIONS = [METRIC_SPECS_ANNOTATION, BEHAVIOR_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION];

const isCpuUtilization = (m: MetricSpec) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target.type === 'Utilization';
const isCpuStatus = (m: MetricStatus) => m.type === 'Resource' && m.resource?.name === 'cpu';

function parsed<T>(annotations: Record<string, string>, key: string): T | undefined {
  const v = annotations[key];
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v) as T;
  } catch {
    return undefined;
  }
}

export function hpaFromV1(o: HorizontalPodAutoscalerV1): HorizontalPodAutoscaler {
  const annotations = { ...(o.metadata.annotations ?? {}) };
  const otherMetrics = parsed<MetricSpec[]>(annotations, METRIC_SPECS_ANNOTATION) ?? [];
  const behavior = parsed<HorizontalPodAutoscalerBehavior>(annotations, BEHAVIOR_ANNOTATION);
  const otherStatuses = parsed<MetricStatus[]>(annotations, METRIC_STATUSES_ANNOTATION) ?? [];
  const conditions = parsed<HorizontalPodAutoscalerCondition[]>(annotations, CONDITIONS_ANNOTATION);
  for (const k of ANNOTATIONS) delete annotations[k];
  const metadata = { ...o.metadata, ...(Object.keys(annotations).length ? { annotations } : { annotations: undefined }) };
  if (!metadata.annotations) delete metadata.annotations;
  const out: HorizontalPodAutoscaler = { ...o, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata } as HorizontalPodAutoscaler;
  if (o.spec) {
    const { targetCPUUtilizationPercentage: cpu, ...rest } = o.spec;
    const metrics: MetricSpec[] = [...(cpu !== undefined ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }] : []), ...otherMetrics];
    out.spec = { ...rest, ...(metrics.length ? { metrics } : {}), ...(behavior ? { behavior } : {}) };
  }
  if (o.status) {
    const { currentCPUUtilizationPercentage: cpu, ...rest } = o.status;
    const currentMetrics: MetricStatus[] = [...(cpu !== undefined ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpu } } }] : []), ...otherStatuses];
    out.status = { ...rest, ...(currentMetrics.length ? { currentMetrics } : {}), ...(conditions ? { conditions } : {}) };
  }
  return out;
}

export function hpaToV1(o: HorizontalPodAutoscaler): HorizontalPodAutoscalerV1 {
  const annotations = { ...(o.metadata.annotations ?? {}) };
  const out: HorizontalPodAutoscalerV1 = { ...o, apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' } as HorizontalPodAutoscalerV1;
  if (o.spec) {
    const { metrics = [], behavior, ...rest } = o.spec;
    const cpu = metrics.find(isCpuUtilization);
    const others = metrics.filter((m) => m !== cpu);
    if (others.length) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(others);
    if (behavior) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify(behavior);
    out.spec = { ...rest, ...(cpu?.resource?.target.averageUtilization !== undefined ? { targetCPUUtilizationPercentage: cpu.resource.target.averageUtilization } : {}) };
  }
  if (o.status) {
    const { currentMetrics = [], conditions, ...rest } = o.status;
    const cpu = currentMetrics.find(isCpuStatus);
    const others = currentMetrics.filter((m) => m !== cpu);
    if (others.length) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(others);
    if (conditions?.length) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
    out.status = {
      ...rest,
      currentReplicas: rest.currentReplicas ?? 0,
      ...(cpu?.resource?.current.averageUtilization !== undefined ? { currentCPUUtilizationPercentage: cpu.resource.current.averageUtilization } : {}),
    };
  }
  out.metadata = { ...o.metadata, ...(Object.keys(annotations).length ? { annotations } : {}) };
  return out;
}
