// validateObject: the strategy's Validate, ValidateUpdate and status
// ValidateUpdate, dispatched by apiVersion/kind. Run after setDefaults.
import type { KubeObject } from '../meta/types.js';
import type { FieldError } from '../meta/status.js';
import * as apps from './apps.js';
import * as batch from './batch.js';
import * as certificates from './certificates.js';
import * as core from './core.js';
import { required } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import * as other from './other.js';
import * as policy from './policy.js';
import * as scheduling from './scheduling.js';
import * as flowcontrol from './flowcontrol.js';
import * as autoscaling from './autoscaling.js';
import * as networking from './networking.js';
import * as limitrange from './limitrange.js';
import * as resourcequota from './resourcequota.js';
import * as rbac from './rbac.js';
import * as statefulset from './statefulset.js';
import * as storage from './storage.js';
import { lookupKind } from '../resources.js';

type V = (obj: never) => FieldError[];
type U = (obj: never, old: never) => FieldError[];

interface Rules {
  create: V;
  update: U;
  /** Updates through a subresource with rules of their own (the status strategies, the CSR's `approval`, the pod's `ephemeralcontainers`); any other subresource runs `update`. */
  subresources?: Record<string, U>;
}

const RULES: Record<string, Rules> = {
  'v1/Pod': { create: core.validatePod, update: core.validatePodUpdate, subresources: { status: core.validatePodStatusUpdate, ephemeralcontainers: core.validatePodEphemeralContainersUpdate } },
  'v1/Service': { create: core.validateService, update: core.validateServiceUpdate, subresources: { status: core.validateServiceStatusUpdate } },
  'v1/Namespace': { create: core.validateNamespace, update: core.validateNamespaceUpdate, subresources: { status: core.validateNamespaceStatusUpdate } },
  'v1/Node': { create: core.validateNode, update: core.validateNodeUpdate, subresources: { status: core.validateNodeUpdate } },
  'v1/ConfigMap': { create: core.validateConfigMap, update: core.validateConfigMapUpdate },
  'v1/Secret': { create: core.validateSecret, update: core.validateSecretUpdate },
  'v1/ServiceAccount': { create: core.validateServiceAccount, update: metaUpdateThen(core.validateServiceAccount) },
  'v1/Event': { create: core.validateEvent, update: metaUpdateThen(core.validateEvent) },
  'v1/Endpoints': { create: core.validateEndpoints, update: metaUpdateThen(core.validateEndpoints) },
  'v1/Binding': { create: core.validateBinding, update: () => [] },
  'apps/v1/Deployment': { create: apps.validateDeployment, update: apps.validateDeploymentUpdate, subresources: { status: apps.validateDeploymentStatusUpdate } },
  'apps/v1/ReplicaSet': { create: apps.validateReplicaSet, update: apps.validateReplicaSetUpdate, subresources: { status: apps.validateReplicaSetStatusUpdate } },
  'apps/v1/DaemonSet': { create: apps.validateDaemonSet, update: apps.validateDaemonSetUpdate, subresources: { status: apps.validateDaemonSetStatusUpdate } },
  'apps/v1/StatefulSet': { create: statefulset.validateStatefulSet, update: statefulset.validateStatefulSetUpdate, subresources: { status: statefulset.validateStatefulSetStatusUpdate } },
  'apps/v1/ControllerRevision': { create: statefulset.validateControllerRevision, update: statefulset.validateControllerRevisionUpdate },
  'discovery.k8s.io/v1/EndpointSlice': { create: other.validateEndpointSlice, update: other.validateEndpointSliceUpdate },
  'coordination.k8s.io/v1/Lease': { create: other.validateLease, update: metaUpdateThen(other.validateLease) },
  'rbac.authorization.k8s.io/v1/Role': { create: rbac.validateRole, update: rbac.validateRoleUpdate },
  'rbac.authorization.k8s.io/v1/ClusterRole': { create: rbac.validateClusterRole, update: rbac.validateClusterRoleUpdate },
  'rbac.authorization.k8s.io/v1/RoleBinding': { create: rbac.validateRoleBinding, update: rbac.validateRoleBindingUpdate },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { create: rbac.validateClusterRoleBinding, update: rbac.validateClusterRoleBindingUpdate },
  'certificates.k8s.io/v1/CertificateSigningRequest': {
    create: certificates.validateCertificateSigningRequest,
    update: certificates.validateCertificateSigningRequestUpdate,
    subresources: { status: certificates.validateCertificateSigningRequestStatusUpdate, approval: certificates.validateCertificateSigningRequestApprovalUpdate },
  },
  'autoscaling/v1/Scale': { create: other.validateScale, update: (n: never) => other.validateScale(n) },
  'batch/v1/Job': { create: batch.validateJob, update: batch.validateJobUpdate, subresources: { status: batch.validateJobStatusUpdate } },
  'batch/v1/CronJob': { create: batch.validateCronJob, update: batch.validateCronJobUpdate, subresources: { status: batch.validateCronJobStatusUpdate } },
  'v1/PersistentVolume': { create: storage.validatePersistentVolume, update: storage.validatePersistentVolumeUpdate, subresources: { status: storage.validatePersistentVolumeStatusUpdate } },
  'v1/PersistentVolumeClaim': {
    create: storage.validatePersistentVolumeClaim,
    update: storage.validatePersistentVolumeClaimUpdate,
    subresources: { status: storage.validatePersistentVolumeClaimStatusUpdate },
  },
  'storage.k8s.io/v1/StorageClass': { create: storage.validateStorageClass, update: storage.validateStorageClassUpdate },
  'policy/v1/PodDisruptionBudget': {
    create: policy.validatePodDisruptionBudget,
    update: policy.validatePodDisruptionBudgetUpdate,
    subresources: { status: policy.validatePodDisruptionBudgetStatusUpdate },
  },
  'scheduling.k8s.io/v1/PriorityClass': { create: scheduling.validatePriorityClass, update: scheduling.validatePriorityClassUpdate },
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': { create: flowcontrol.validateFlowSchema, update: flowcontrol.validateFlowSchemaUpdate },
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': { create: flowcontrol.validatePriorityLevelConfiguration, update: flowcontrol.validatePriorityLevelConfigurationUpdate },
  'v1/LimitRange': { create: limitrange.validateLimitRange, update: limitrange.validateLimitRangeUpdate },
  'v1/ResourceQuota': { create: resourcequota.validateResourceQuota, update: resourcequota.validateResourceQuotaUpdate, subresources: { status: resourcequota.validateResourceQuotaStatusUpdate } },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    create: autoscaling.validateHorizontalPodAutoscaler,
    update: autoscaling.validateHorizontalPodAutoscalerUpdate,
    subresources: { status: autoscaling.validateHorizontalPodAutoscalerStatusUpdate },
  },
  'networking.k8s.io/v1/NetworkPolicy': { create: networking.validateNetworkPolicy, update: networking.validateNetworkPolicyUpdate },
  'networking.k8s.io/v1/Ingress': { create: networking.validateIngress, update: networking.validateIngressUpdate, subresources: { status: networking.validateIngressStatusUpdate } },
  'networking.k8s.io/v1/IngressClass': { create: networking.validateIngressClass, update: networking.validateIngressClassUpdate },
};

/** ValidateObjectMetaUpdate plus the create rules for everything but metadata. */
function metaUpdateThen<T extends KubeObject>(create: (o: T) => FieldError[]): (o: T, old: T) => FieldError[] {
  return (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata), ...create(o).filter((e) => !e.field.startsWith('metadata.'))];
}

const rulesFor = (obj: KubeObject): Rules | undefined => RULES[`${obj.apiVersion}/${obj.kind}`];

/**
 * Field errors for a create (no `old`) or an update (`old` given; `subresource`
 * when written through one: a `status` write runs the kind's status strategy,
 * e.g. ValidatePodStatusUpdate, not its spec rules). Unknown kinds get
 * ObjectMeta checks only.
 */
export function validateObject(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
  if (!obj || typeof obj !== 'object') return [required('metadata')];
  if (!obj.metadata || typeof obj.metadata !== 'object') return [required('metadata')];
  const r = rulesFor(obj);
  const sub = old && subresource ? r?.subresources?.[subresource] : undefined;
  if (sub) return (sub as (o: KubeObject, p: KubeObject) => FieldError[])(obj, old!);
  if (r) return old ? (r.update as (o: KubeObject, p: KubeObject) => FieldError[])(obj, old) : (r.create as (o: KubeObject) => FieldError[])(obj);
  const info = obj.apiVersion && obj.kind ? lookupKind(obj.apiVersion, obj.kind) : undefined;
  const namespaced = info?.namespaced ?? obj.metadata.namespace !== undefined;
  return old ? validateObjectMetaUpdate(obj.metadata, old.metadata) : validateObjectMeta(obj.metadata, namespaced, nameIsDNSSubdomain);
}
