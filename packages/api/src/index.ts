// @kubelab/api: the object model (k8s.io/api and k8s.io/apimachinery) as the
// other packages and services use it. Named exports only: what they import,
// plus the hooks the apiserver's registry looks up by name (setDefaults,
// validateObject, parseLabelSelector, parseFieldSelector, objectFields,
// applyPatch). Anything else is internal to this package.

// meta/v1, status errors, time
export type { DeleteOptions, DeletionPropagation, IntOrString, KubeList, KubeObject, ManagedFieldsEntry, OwnerReference, WatchEvent, WatchEventType } from './meta/types.js';
export {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  fieldErrorMessage,
  forbidden,
  goQuotedList,
  unauthorized,
  internalError,
  invalid,
  isAlreadyExists,
  isConflict,
  isExpired,
  isNotFound,
  methodNotAllowed,
  notFound,
  resourceNotServed,
  OPTIMISTIC_LOCK_MESSAGE,
  requestEntityTooLarge,
  serviceUnavailable,
  tooManyRequests,
  StatusError,
  timeout,
  toStatus,
  unsupportedMediaType,
  type FieldError,
  type Status,
  type StatusReason,
} from './meta/status.js';
export { formatMicroTime, formatTime, parseTime } from './meta/time.js';

// the resources served
export {
  apiVersionOf,
  deprecationWarning,
  escapeKeyName,
  isStored,
  lookupKind,
  schemaTypeOf,
  lookupResource,
  RESOURCES,
  storageKey,
  storagePrefix,
  unescapeKeyName,
  type ResourceInfo,
} from './resources.js';

// the kinds' TypeScript shapes
export type {
  Affinity,
  Binding,
  ConfigMap,
  Container,
  ContainerImage,
  ContainerState,
  ContainerStatus,
  DownwardAPIVolumeFile,
  ComponentCondition,
  ComponentStatus,
  Endpoints,
  EndpointSubset,
  Event,
  HTTPGetAction,
  KeyToPath,
  LifecycleHandler,
  Namespace,
  NamespaceCondition,
  Node,
  NodeCondition,
  NodeSelector,
  NodeSelectorTerm,
  NodeStatus,
  NodeSystemInfo,
  ObjectReference,
  Pod,
  PodCondition,
  PodPhase,
  PodSpec,
  PodStatus,
  PodTemplateSpec,
  Probe,
  PullPolicy,
  ResourceFieldSelector,
  ResourceList,
  Secret,
  Service,
  ServiceAccount,
  ServiceAccountTokenProjection,
  ServicePort,
  Taint,
  TCPSocketAction,
  Toleration,
  Volume,
} from './core/v1/types.js';
export type { DaemonSet, DaemonSetStatus, Deployment, DeploymentCondition, DeploymentConditionType, DeploymentStatus, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from './apps/v1/types.js';
export type { ControllerRevision, PodManagementPolicyType, StatefulSet, StatefulSetSpec, StatefulSetStatus, StatefulSetVolumeClaimTemplate } from './apps/v1/types.js';
export { LABEL_SERVICE_NAME, type Endpoint, type EndpointPort, type EndpointSlice } from './discovery/v1/types.js';
export type { Lease, LeaseSpec } from './coordination/v1/types.js';
export type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  CustomResourceSubresourceScale,
  JSONSchemaProps,
} from './apiextensions/v1/types.js';
export { conditionOf, customResourcesOf, isEstablished, servedVersions, storageVersionOf, versionResource, withDefaultNames } from './apiextensions/served.js';
export {
  ANNOTATION_AUTOUPDATE,
  RBAC_GROUP,
  type AggregationRule,
  type ClusterRole,
  type ClusterRoleBinding,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type RoleRef,
  type Subject,
  type SubjectKind,
} from './rbac/v1/types.js';
export type {
  AuthenticationUserInfo,
  BoundObjectReference,
  SelfSubjectReview,
  TokenRequest,
  TokenRequestSpec,
  TokenRequestStatus,
  TokenReview,
  TokenReviewSpec,
  TokenReviewStatus,
} from './authentication/v1/types.js';
// who a request is (k8s.io/apiserver/pkg/authentication/user)
export {
  ANONYMOUS,
  bearerTokenOf,
  fromApiUserInfo,
  GROUP_AUTHENTICATED,
  GROUP_MASTERS,
  GROUP_NODES,
  GROUP_SERVICE_ACCOUNTS,
  GROUP_UNAUTHENTICATED,
  NODE_USER_PREFIX,
  SERVICE_ACCOUNT_GROUP_PREFIX,
  SERVICE_ACCOUNT_USER_PREFIX,
  toApiUserInfo,
  USER_ANONYMOUS,
  USER_APISERVER,
  withAuthenticatedGroup,
  type UserInfo,
} from './authentication/user.js';
export type {
  LocalSubjectAccessReview,
  NonResourceAttributes,
  NonResourceRule,
  ResourceAttributes,
  ResourceRule,
  SelfSubjectAccessReview,
  SelfSubjectRulesReview,
  SubjectAccessReview,
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
  SubjectRulesReviewStatus,
} from './authorization/v1/types.js';
export {
  CERTIFICATES_GROUP,
  KEY_USAGES,
  SIGNER_KUBE_APISERVER_CLIENT,
  SIGNER_KUBE_APISERVER_CLIENT_KUBELET,
  SIGNER_KUBELET_SERVING,
  SIGNER_LEGACY_UNKNOWN,
  type CertificateSigningRequest,
  type CertificateSigningRequestCondition,
  type CertificateSigningRequestSpec,
  type CertificateSigningRequestStatus,
  type KeyUsage,
  type RequestConditionType,
} from './certificates/v1/types.js';
export type { Event as EventsEvent, EventList as EventsEventList, EventSeries as EventsEventSeries } from './events/v1/types.js';
export { eventFromCore, eventToCore } from './events/v1/conversion.js';
export { certificatePem, hasTrueCondition, isApproved, requestPem } from './certificates/v1/helpers.js';
export type {
  LocalVolumeSource,
  PersistentVolume,
  PersistentVolumeAccessMode,
  PersistentVolumeClaim,
  PersistentVolumeClaimCondition,
  PersistentVolumeClaimPhase,
  PersistentVolumeClaimSpec,
  PersistentVolumeClaimStatus,
  PersistentVolumeMode,
  PersistentVolumePhase,
  PersistentVolumeReclaimPolicy,
  PersistentVolumeSpec,
  PersistentVolumeStatus,
  TopologySelectorTerm,
  VolumeNodeAffinity,
  VolumeResourceRequirements,
} from './core/v1/persistentvolume.js';
export { ANNOTATION_IS_DEFAULT_CLASS, STORAGE_GROUP, type StorageClass, type VolumeBindingMode } from './storage/v1/types.js';
export {
  accessModesAsString,
  ANN_BETA_STORAGE_CLASS,
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  claimClass,
  isDefaultStorageClass,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  volumeClass,
} from './storage/v1/helpers.js';
export { findMatchingVolume, isVolumeBoundToClaim, volumeFitsNode } from './storage/v1/matching.js';

// the schema: OpenAPI, strict decoding, protobuf
export {
  elementType,
  isPrimitiveType,
  openapiName,
  protobufNumber,
  PROTOBUF_NUMBERS,
  SCHEMA,
  structOf,
  type FieldDef,
  type FieldType,
  type PrimitiveType,
  type ProtobufNumber,
} from './schema/index.js';

// patch, quantities, selectors
export { applyPatch, createTwoWayMergePatch, fieldPatchMeta, isPatchType, PATCH_TYPES, type PatchTypeName } from './patch/index.js';
export { parseQuantity, Quantity } from './resource/quantity.js';
export { labelSelectorAsSelector, matchesSet, parseLabelSelector } from './labels/selector.js';
export { parseFieldSelector, type FieldSelector } from './fields/selector.js';
export { convertFieldSelector, objectFields } from './fields/selectable.js';

// defaulting and validation
export { setDefaults } from './defaults.js';
export { validateObject } from './validation/index.js';
export { goBytes } from './validation/certificates.js';
export { validateEventsEventCreate } from './validation/events.js';
export { deepEqual } from './validation/util.js';

// helpers the controllers, scheduler and kubelet share
export { ANNOTATION_CONFIG_MIRROR, ANNOTATION_DAEMONSET_TEMPLATE_GENERATION, DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST } from './helpers/wellknown.js';
export {
  getPodCondition,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodTerminal,
  isTerminalPhase,
  maxContainerRestarts,
  podConfigMapNames,
  podQOSClass,
  podRequests,
  podSecretNames,
} from './helpers/pod.js';
export { controllerRef, metaNamespaceKey, newControllerRef, splitMetaNamespaceKey } from './helpers/meta.js';
export { findUntoleratedTaint, getNodeCondition, isNodeReady, matchToleration, minTolerationSeconds, tolerationsTolerateTaint } from './helpers/node.js';
export { matchNodeSelector, matchNodeSelectorTerm, podMatchesNodeSelectorAndAffinityTerms } from './helpers/nodeaffinity.js';
export { getScaledValueFromIntOrPercent } from './helpers/intstr.js';
export { canonicalJson, semanticJson } from './helpers/canonical-json.js';
export { deepFreeze } from './helpers/freeze.js';

// net: IPv4 addresses and CIDRs (k8s.io/utils/net)
export { formatIpv4, formatIpv4Cidr, ipv4CidrContains, ipv4CidrSize, parseIpv4, parseIpv4Cidr, type Ipv4Cidr } from './net/ipv4.js';
export { joinHostPort } from './net/host-port.js';
export { tcpDialError } from './net/dial-error.js';
export type { APIService, APIServiceCondition, APIServiceList, APIServiceServiceReference, APIServiceSpec, APIServiceStatus } from './apiregistration/v1/types.js';

// batch/v1: Job and CronJob
export {
  BATCH_GROUP,
  CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_COMPLETION_INDEX_ENV,
  JOB_TRACKING_FINALIZER,
  LABEL_CONTROLLER_UID,
  LABEL_JOB_NAME,
  LABEL_LEGACY_CONTROLLER_UID,
  LABEL_LEGACY_JOB_NAME,
  type CompletionMode,
  type ConcurrencyPolicy,
  type CronJob,
  type CronJobSpec,
  type CronJobStatus,
  type Job,
  type JobCondition,
  type JobConditionType,
  type JobSpec,
  type JobStatus,
  type JobTemplateSpec,
  type PodFailurePolicy,
  type PodFailurePolicyRule,
  type UncountedTerminatedPods,
} from './batch/v1/types.js';
export { generateJobSelector, hasJobCondition, isJobFinished, jobCondition } from './batch/v1/helpers.js';
export { cronParseError, descriptorExpression, loadLocationError } from './batch/v1/cron.js';

// policy/v1 PodDisruptionBudget
export type { Eviction, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from './policy/v1/types.js';
export { PDB_DISRUPTION_ALLOWED, PDB_INSUFFICIENT_PODS, PDB_SUFFICIENT_PODS, PDB_SYNC_FAILED, setStatusCondition, updateDisruptionAllowedCondition } from './helpers/pdb.js';
export type { Condition } from './meta/types.js';

// flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration
export {
  AUTO_UPDATE_ANNOTATION,
  type FlowDistinguisherMethodType,
  type FlowSchema,
  type FlowSchemaCondition,
  type FlowcontrolSubject,
  type LimitResponse,
  type NonResourcePolicyRule as FlowNonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type PriorityLevelConfiguration,
  type QueuingConfiguration,
  type ResourcePolicyRule as FlowResourcePolicyRule,
} from './flowcontrol/v1/types.js';
// scheduling.k8s.io/v1 PriorityClass
export { HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_PRIORITY_CLASSES, SYSTEM_PRIORITY_CLASS_PREFIX, type PriorityClass } from './scheduling/v1/types.js';

// core/v1 LimitRange
export type { LimitRange, LimitRangeItem, LimitRangeSpec } from './core/v1/types.js';
export { applyLimitRangeDefaults, LIMIT_RANGER_ANNOTATION, limitRangeViolations } from './core/v1/limitrange.js';

// core/v1 ResourceQuota and the quota usage math (pkg/quota/v1)
export type { ResourceQuota, ResourceQuotaSpec, ResourceQuotaStatus, ScopeSelector, ScopedResourceSelectorRequirement } from './core/v1/types.js';
export { isScopeValidForResource, isStandardQuotaResourceName, QUOTA_SCOPES } from './quota/names.js';
export {
  addUsage,
  calculateQuotaUsage,
  exceededResources,
  maskUsage,
  matchingResources,
  objectCountName,
  objectUsage,
  podQuotaConstraints,
  podUsage,
  prettyPrintUsage,
  quotaMatches,
  toResourceList,
  toUsage,
  type ResourceUsage,
} from './quota/usage.js';
// autoscaling/v2 HorizontalPodAutoscaler
export type {
  ContainerResourceMetricSource,
  ContainerResourceMetricStatus,
  CrossVersionObjectReference,
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerBehavior,
  HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerSpec,
  HorizontalPodAutoscalerStatus,
  HPAScalingPolicy,
  HPAScalingRules,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
  ResourceMetricSource,
  ResourceMetricStatus,
} from './autoscaling/v2/types.js';
export { DEFAULT_CPU_UTILIZATION } from './autoscaling/v2/defaults.js';
export type { Scale, ScaleSpec, ScaleStatus } from './autoscaling/v1/types.js';
export type {
  CrossVersionObjectReference as CrossVersionObjectReferenceV1,
  HorizontalPodAutoscaler as HorizontalPodAutoscalerV1,
  HorizontalPodAutoscalerSpec as HorizontalPodAutoscalerSpecV1,
  HorizontalPodAutoscalerStatus as HorizontalPodAutoscalerStatusV1,
} from './autoscaling/v1/types.js';
export { hpaFromV1, hpaToV1 } from './autoscaling/v1/conversion.js';

// networking.k8s.io/v1 NetworkPolicy, Ingress, IngressClass
export {
  DEFAULT_INGRESS_CLASS_ANNOTATION,
  PATH_TYPES as INGRESS_PATH_TYPES,
  type HTTPIngressPath,
  type HTTPIngressRuleValue,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type IngressClassParametersReference,
  type IngressClassSpec,
  type IngressLoadBalancerIngress,
  type IngressPortStatus,
  type IngressRule,
  type IngressServiceBackend,
  type IngressSpec,
  type IngressStatus,
  type IngressTLS,
  type PathType as IngressPathType,
  type ServiceBackendPort,
  POLICY_TYPES as NETWORK_POLICY_TYPES,
  type IPBlock,
  type NetworkPolicy,
  type NetworkPolicyEgressRule,
  type NetworkPolicyIngressRule,
  type NetworkPolicyPeer,
  type NetworkPolicyPort,
  type NetworkPolicySpec,
  type PolicyType,
} from './networking/v1/types.js';
