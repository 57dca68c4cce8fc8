// autoscaling/v1 Scale: the body of the deployments/scale and replicasets/scale subresources.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';

export interface ScaleSpec {
  replicas?: number;
}

export interface ScaleStatus {
  replicas: number;
  /** Label query in string form (`app=web`), as upstream's Scale carries it. */
  selector?: string;
}

export interface Scale extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'Scale';
  metadata: ObjectMeta;
  spec?: ScaleSpec;
  status?: ScaleStatus;
}

// autoscaling/v1 HorizontalPodAutoscaler: the CPU-only form kubectl autoscale
// sends, served over autoscaling/v2's storage (conversion.ts). Named as upstream
// here; the package index exports them with a V1 suffix (v2 has the same names).

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  targetCPUUtilizationPercentage?: number;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas: number;
  desiredReplicas: number;
  currentCPUUtilizationPercentage?: number;
}

export interface HorizontalPodAutoscaler extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'HorizontalPodAutoscaler';
  metadata: ObjectMeta;
  spec?: HorizontalPodAutoscalerSpec;
  status?: HorizontalPodAutoscalerStatus;
}
