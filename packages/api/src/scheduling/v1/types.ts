// scheduling.k8s.io/v1 PriorityClass (k8s.io/api/scheduling/v1): a name for a pod priority value.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';
import type { PreemptionPolicy } from '../../core/v1/types.js';

export interface PriorityClass extends KubeObject {
  apiVersion?: 'scheduling.k8s.io/v1';
  kind?: 'PriorityClass';
  metadata: ObjectMeta;
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: PreemptionPolicy;
}

/** Names starting with this are reserved for the system classes (scheduling.SystemPriorityClassPrefix). */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** The highest value a user-defined class may have (scheduling.HighestUserDefinablePriority). */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/** The two classes every cluster has (scheduling.SystemPriorityClasses), created by the apiserver at start. */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: SYSTEM_CRITICAL_PRIORITY,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];
