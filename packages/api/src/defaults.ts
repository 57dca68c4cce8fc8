// setDefaults: upstream's scheme.Default(obj), dispatched by apiVersion/kind.
// Mutates in place; unknown kinds are left alone.
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet } from './apps/v1/defaults.js';
import { defaultStatefulSet } from './apps/v1/statefulset-defaults.js';
import { defaultCronJob, defaultJob } from './batch/v1/defaults.js';
import { defaultEndpoints, defaultNamespace, defaultNode, defaultPod, defaultSecret, defaultService } from './core/v1/defaults.js';
import { defaultEndpointSlice } from './discovery/v1/defaults.js';
import { defaultPersistentVolume, defaultPersistentVolumeClaim, defaultStorageClass } from './core/v1/persistentvolume-defaults.js';
import type { KubeObject } from './meta/types.js';
import { defaultBinding } from './rbac/v1/defaults.js';
import { defaultPriorityClass } from './scheduling/v1/defaults.js';
import { defaultFlowSchema, defaultPriorityLevelConfiguration } from './flowcontrol/v1/defaults.js';
import { defaultNetworkPolicy } from './networking/v1/defaults.js';
import { defaultLimitRange } from './core/v1/limitrange.js';
import { defaultHorizontalPodAutoscaler } from './autoscaling/v2/defaults.js';

type Defaulter = (obj: never) => void;

const DEFAULTERS: Record<string, Defaulter> = {
  'v1/Pod': defaultPod,
  'v1/Service': defaultService,
  'v1/Namespace': defaultNamespace,
  'v1/Secret': defaultSecret,
  'v1/Node': defaultNode,
  'v1/Endpoints': defaultEndpoints,
  'apps/v1/Deployment': defaultDeployment,
  'apps/v1/ReplicaSet': defaultReplicaSet,
  'apps/v1/DaemonSet': defaultDaemonSet,
  'apps/v1/StatefulSet': defaultStatefulSet,
  'discovery.k8s.io/v1/EndpointSlice': defaultEndpointSlice,
  'rbac.authorization.k8s.io/v1/RoleBinding': defaultBinding,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': defaultBinding,
  'batch/v1/Job': defaultJob,
  'batch/v1/CronJob': defaultCronJob,
  'v1/PersistentVolume': defaultPersistentVolume,
  'v1/PersistentVolumeClaim': defaultPersistentVolumeClaim,
  'storage.k8s.io/v1/StorageClass': defaultStorageClass,
  'scheduling.k8s.io/v1/PriorityClass': defaultPriorityClass,
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': defaultFlowSchema,
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': defaultPriorityLevelConfiguration,
  'v1/LimitRange': defaultLimitRange,
  'autoscaling/v2/HorizontalPodAutoscaler': defaultHorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': defaultNetworkPolicy,
};

/** Applies upstream defaults for the object's apiVersion/kind, in place. */
export function setDefaults(obj: KubeObject): void {
  if (!obj || typeof obj !== 'object' || !obj.metadata) return;
  const d = DEFAULTERS[`${obj.apiVersion}/${obj.kind}`];
  if (d) (d as (o: KubeObject) => void)(obj);
}
