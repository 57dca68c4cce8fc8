// The schema of autoscaling/v2 HorizontalPodAutoscaler (k8s.io/api/autoscaling/v2
// types.go): the Resource and ContainerResource metric sources. kubectl sends
// it as JSON (apply, create -f), so it carries no generated.proto numbers.

import { cond, top, type TypeDef } from './definition.js';

const G = 'autoscalingv2' as const;

export const AUTOSCALING_TYPES: Record<string, TypeDef> = {
  HorizontalPodAutoscaler: {
    group: G,
    description: "A HorizontalPodAutoscaler keeps a scalable resource's replica count between minReplicas and maxReplicas by the metrics of its pods.",
    fields: top({
      spec: ['HorizontalPodAutoscalerSpec', 'The behaviour of the autoscaler.'],
      status: ['HorizontalPodAutoscalerStatus', 'The current information about the autoscaler.'],
    }),
  },
  HorizontalPodAutoscalerSpec: {
    group: G,
    description: 'The desired functionality of a HorizontalPodAutoscaler.',
    fields: {
      scaleTargetRef: ['CrossVersionObjectReference', 'The resource whose scale subresource is read and set.', { required: true }],
      minReplicas: ['int32', 'The lower limit of replicas. Defaults to 1.'],
      maxReplicas: ['int32', 'The upper limit of replicas; not less than minReplicas.', { required: true }],
      metrics: ['[]MetricSpec', 'The metrics whose highest recommendation is used; default: 80% average CPU utilization.', { listType: 'atomic' }],
      behavior: ['HorizontalPodAutoscalerBehavior', 'The scaling behaviour up and down; the controller defaults each direction it omits.'],
    },
  },
  CrossVersionObjectReference: {
    group: G,
    description: 'Enough information to identify the referred resource.',
    fields: {
      kind: ['string', 'Kind of the referent.', { required: true }],
      name: ['string', 'Name of the referent.', { required: true }],
      apiVersion: ['string', 'API version of the referent.'],
    },
  },
  MetricSpec: {
    group: G,
    description: 'One metric to scale on: a source type and its source.',
    fields: {
      type: ['string', 'The metric source type: Resource or ContainerResource here (upstream also Object, Pods, External).', { required: true }],
      resource: ['ResourceMetricSource', 'A resource metric of the pods (requests and limits), as metrics.k8s.io reports it.'],
      containerResource: ['ContainerResourceMetricSource', 'A resource metric of one container of each pod.'],
    },
  },
  ResourceMetricSource: {
    group: G,
    description: 'A resource metric averaged over the target pods.',
    fields: { name: ['string', 'The resource (cpu, memory).', { required: true }], target: ['MetricTarget', 'The target value.', { required: true }] },
  },
  ContainerResourceMetricSource: {
    group: G,
    description: 'A resource metric of one container, averaged over the target pods.',
    fields: {
      name: ['string', 'The resource (cpu, memory).', { required: true }],
      target: ['MetricTarget', 'The target value.', { required: true }],
      container: ['string', 'The container in the pods.', { required: true }],
    },
  },
  MetricTarget: {
    group: G,
    description: 'The target value, average value or average utilization of a metric.',
    fields: {
      type: ['string', 'Utilization, Value or AverageValue.', { required: true }],
      value: ['Quantity', 'The target value of the metric.'],
      averageValue: ['Quantity', 'The target average value of the metric over the pods.'],
      averageUtilization: ['int32', 'The target average of the resource metric over the pods, in percent of their requests.'],
    },
  },
  HorizontalPodAutoscalerBehavior: {
    group: G,
    description: 'The scaling behaviour in the up and down directions.',
    fields: {
      scaleUp: ['HPAScalingRules', 'Rules for scaling up; default: at most 4 pods or 100% per 15 s, whichever is more, without stabilization.'],
      scaleDown: ['HPAScalingRules', 'Rules for scaling down; default: 100% per 15 s after a 300 s stabilization window.'],
    },
  },
  HPAScalingRules: {
    group: G,
    description: 'How fast one direction may scale.',
    fields: {
      stabilizationWindowSeconds: ['int32', 'Seconds of past recommendations considered (0 to 3600).'],
      selectPolicy: ['string', 'Which policy is used: Max (default), Min or Disabled.'],
      policies: ['[]HPAScalingPolicy', 'The allowed changes; Max picks the one allowing the most change.', { listType: 'atomic' }],
    },
  },
  HPAScalingPolicy: {
    group: G,
    description: 'A single allowed change over a period.',
    fields: {
      type: ['string', 'Pods or Percent.', { required: true }],
      value: ['int32', 'The amount of change allowed; greater than zero.', { required: true }],
      periodSeconds: ['int32', 'The window the change is counted over (1 to 1800 s).', { required: true }],
    },
  },
  HorizontalPodAutoscalerStatus: {
    group: G,
    description: 'The current status of a HorizontalPodAutoscaler.',
    fields: {
      observedGeneration: ['int64', 'The most recent generation observed by the autoscaler.'],
      lastScaleTime: ['Time', 'When the autoscaler last changed the number of pods.'],
      currentReplicas: ['int32', 'The number of replicas of the target, as the autoscaler last saw it.'],
      desiredReplicas: ['int32', 'The number of replicas the autoscaler last calculated.', { required: true }],
      currentMetrics: ['[]MetricStatus', 'The last values read of the metrics.', { listType: 'atomic' }],
      conditions: ['[]HorizontalPodAutoscalerCondition', 'AbleToScale, ScalingActive and ScalingLimited.', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }],
    },
  },
  MetricStatus: {
    group: G,
    description: 'The last value read of one metric.',
    fields: {
      type: ['string', 'The metric source type.', { required: true }],
      resource: ['ResourceMetricStatus', 'A resource metric of the pods.'],
      containerResource: ['ContainerResourceMetricStatus', 'A resource metric of one container.'],
    },
  },
  ResourceMetricStatus: {
    group: G,
    description: 'The current value of a resource metric.',
    fields: { name: ['string', 'The resource.', { required: true }], current: ['MetricValueStatus', 'The current value.', { required: true }] },
  },
  ContainerResourceMetricStatus: {
    group: G,
    description: 'The current value of a resource metric of one container.',
    fields: {
      name: ['string', 'The resource.', { required: true }],
      current: ['MetricValueStatus', 'The current value.', { required: true }],
      container: ['string', 'The container.', { required: true }],
    },
  },
  MetricValueStatus: {
    group: G,
    description: 'The current value of a metric.',
    fields: {
      value: ['Quantity', 'The current value.'],
      averageValue: ['Quantity', 'The current average value over the pods.'],
      averageUtilization: ['int32', 'The current average utilization, in percent of the requests.'],
    },
  },
  HorizontalPodAutoscalerCondition: { group: G, description: 'The state of a HorizontalPodAutoscaler at a point.', fields: cond('autoscaler') },

  // autoscaling/v1: the CPU-only form, numbered as its generated.proto (kubectl autoscale sends it as protobuf).
  HorizontalPodAutoscalerV1: {
    group: 'autoscaling',
    name: 'HorizontalPodAutoscaler',
    protobuf: true,
    description: 'Configuration of a horizontal pod autoscaler: a CPU utilization target.',
    fields: top({
      spec: ['HorizontalPodAutoscalerSpecV1', 'The behaviour of the autoscaler.', { protobuf: 2 }],
      status: ['HorizontalPodAutoscalerStatusV1', 'The current information about the autoscaler.', { protobuf: 3 }],
    }),
  },
  HorizontalPodAutoscalerSpecV1: {
    group: 'autoscaling',
    name: 'HorizontalPodAutoscalerSpec',
    description: 'The specification of a horizontal pod autoscaler.',
    fields: {
      scaleTargetRef: ['CrossVersionObjectReferenceV1', 'The resource whose scale subresource is read and set.', { required: true, protobuf: 1 }],
      minReplicas: ['int32', 'The lower limit of replicas. Defaults to 1.', { protobuf: 2, keepZero: true }],
      maxReplicas: ['int32', 'The upper limit of replicas; not less than minReplicas.', { required: true, protobuf: 3 }],
      targetCPUUtilizationPercentage: ['int32', 'The target average CPU utilization over the pods, in percent of their requests; default: 80.', { protobuf: 4, keepZero: true }],
    },
  },
  CrossVersionObjectReferenceV1: {
    group: 'autoscaling',
    name: 'CrossVersionObjectReference',
    description: 'Enough information to identify the referred resource.',
    fields: {
      kind: ['string', 'Kind of the referent.', { required: true, protobuf: 1 }],
      name: ['string', 'Name of the referent.', { required: true, protobuf: 2 }],
      apiVersion: ['string', 'API version of the referent.', { protobuf: 3 }],
    },
  },
  HorizontalPodAutoscalerStatusV1: {
    group: 'autoscaling',
    name: 'HorizontalPodAutoscalerStatus',
    description: 'The current status of a horizontal pod autoscaler.',
    fields: {
      observedGeneration: ['int64', 'The most recent generation observed by the autoscaler.', { protobuf: 1, keepZero: true }],
      lastScaleTime: ['Time', 'When the autoscaler last changed the number of pods.', { protobuf: 2 }],
      currentReplicas: ['int32', 'The current number of replicas of pods managed by the autoscaler.', { required: true, protobuf: 3, keepZero: true }],
      desiredReplicas: ['int32', 'The desired number of replicas of pods managed by the autoscaler.', { required: true, protobuf: 4, keepZero: true }],
      currentCPUUtilizationPercentage: ['int32', 'The current average CPU utilization over the pods, in percent of their requests.', { protobuf: 5, keepZero: true }],
    },
  },
};
