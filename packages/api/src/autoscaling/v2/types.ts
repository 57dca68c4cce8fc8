// autoscaling/v2 HorizontalPodAutoscaler (k8s.io/api/autoscaling/v2): keeps a
// scalable target's replicas between minReplicas and maxReplicas by its
// pods' metrics. kubelab serves the Resource and ContainerResource metric
// sources, the ones metrics.k8s.io answers.
import type { QuantityString } from '../../core/v1/types.js';
import type { KubeObject, ObjectMeta, Time } from '../../meta/types.js';

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export interface MetricTarget {
  /** Utilization, Value or AverageValue. */
  type: string;
  value?: QuantityString;
  averageValue?: QuantityString;
  averageUtilization?: number;
}

export interface ResourceMetricSource {
  name: string;
  target: MetricTarget;
}

export interface ContainerResourceMetricSource {
  name: string;
  target: MetricTarget;
  container: string;
}

export interface MetricSpec {
  /** Resource or ContainerResource (Object, Pods and External are not served). */
  type: string;
  resource?: ResourceMetricSource;
  containerResource?: ContainerResourceMetricSource;
}

export interface HPAScalingPolicy {
  /** Pods or Percent. */
  type: string;
  value: number;
  periodSeconds: number;
}

export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  /** Max, Min or Disabled. */
  selectPolicy?: string;
  policies?: HPAScalingPolicy[];
}

export interface HorizontalPodAutoscalerBehavior {
  scaleUp?: HPAScalingRules;
  scaleDown?: HPAScalingRules;
}

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: HorizontalPodAutoscalerBehavior;
}

export interface MetricValueStatus {
  value?: QuantityString;
  averageValue?: QuantityString;
  averageUtilization?: number;
}

export interface ResourceMetricStatus {
  name: string;
  current: MetricValueStatus;
}

export interface ContainerResourceMetricStatus {
  name: string;
  current: MetricValueStatus;
  container: string;
}

export interface MetricStatus {
  type: string;
  resource?: ResourceMetricStatus;
  containerResource?: ContainerResourceMetricStatus;
}

export interface HorizontalPodAutoscalerCondition {
  /** AbleToScale, ScalingActive or ScalingLimited. */
  type: string;
  status: string;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: Time;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HorizontalPodAutoscalerCondition[];
}

export interface HorizontalPodAutoscaler extends KubeObject {
  apiVersion?: 'autoscaling/v2';
  kind?: 'HorizontalPodAutoscaler';
  metadata: ObjectMeta;
  spec?: HorizontalPodAutoscalerSpec;
  status?: HorizontalPodAutoscalerStatus;
}
