// policy/v1 Eviction: the body of the pods/eviction subresource.
import type { Condition, DeleteOptions, IntOrString, KubeObject, LabelSelector, ObjectMeta, Time } from '../../meta/types.js';

export interface Eviction extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'Eviction';
  metadata: ObjectMeta;
  deleteOptions?: DeleteOptions;
}

// policy/v1 PodDisruptionBudget (k8s.io/api/policy/v1): how many of a set of pods may be down at once by voluntary disruption.

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  maxUnavailable?: IntOrString;
  /** IfHealthyBudget (the default behaviour) or AlwaysAllow. */
  unhealthyPodEvictionPolicy?: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name → when the eviction subresource admitted its eviction (the controller drops it once seen deleted or after 2 min). */
  disruptedPods?: Record<string, Time>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

export interface PodDisruptionBudget extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'PodDisruptionBudget';
  metadata: ObjectMeta;
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}
