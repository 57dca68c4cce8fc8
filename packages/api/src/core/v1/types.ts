// core/v1 (k8s.io/api/core/v1): the JSON shapes of the core group's objects,
// with upstream field names. Optional fields are optional as `omitempty` makes them.
import type { IntOrString, KubeObject, KubeList, LabelSelector, MicroTime, ObjectMeta, Time } from '../../meta/types.js';

/** A quantity string such as `500m` or `128Mi` (resource.Quantity marshals as a string). */
export type QuantityString = string;
/** ResourceList: resource name (`cpu`, `memory`, `pods`, ...) to quantity. */
export type ResourceList = Record<string, QuantityString>;

export type Protocol = 'TCP' | 'UDP' | 'SCTP';
export type ConditionStatus = 'True' | 'False' | 'Unknown';
export type PullPolicy = 'Always' | 'Never' | 'IfNotPresent';
export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type ContainerRestartPolicy = 'Always';
export type DNSPolicy = 'ClusterFirstWithHostNet' | 'ClusterFirst' | 'Default' | 'None';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type TerminationMessagePolicy = 'File' | 'FallbackToLogsOnError';
export type PreemptionPolicy = 'PreemptLowerPriority' | 'Never';
export type URIScheme = 'HTTP' | 'HTTPS';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export type TolerationOperator = 'Exists' | 'Equal';
export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

// ---------------------------------------------------------------- references

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name?: string;
}

// ---------------------------------------------------------------- containers

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: Protocol;
  hostIP?: string;
}

export interface ConfigMapKeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface SecretKeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: QuantityString;
}

export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: ConfigMapKeySelector;
  secretKeyRef?: SecretKeySelector;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ResourceClaim {
  name: string;
  request?: string;
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: ResourceClaim[];
}

export interface VolumeMount {
  name: string;
  readOnly?: boolean;
  recursiveReadOnly?: string;
  mountPath: string;
  subPath?: string;
  mountPropagation?: 'None' | 'HostToContainer' | 'Bidirectional';
  subPathExpr?: string;
}

export interface VolumeDevice {
  name: string;
  devicePath: string;
}

export interface ExecAction {
  command?: string[];
}

export interface HTTPHeader {
  name: string;
  value: string;
}

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: URIScheme;
  httpHeaders?: HTTPHeader[];
}

export interface TCPSocketAction {
  port: IntOrString;
  host?: string;
}

export interface GRPCAction {
  port: number;
  service?: string;
}

export interface SleepAction {
  seconds: number;
}

/** ProbeHandler: exactly one of these is set. */
export interface ProbeHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  grpc?: GRPCAction;
}

export interface Probe extends ProbeHandler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

/** LifecycleHandler: exactly one of these is set. */
export interface LifecycleHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  sleep?: SleepAction;
}

export interface Lifecycle {
  postStart?: LifecycleHandler;
  preStop?: LifecycleHandler;
}

export interface Capabilities {
  add?: string[];
  drop?: string[];
}

export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

export interface SeccompProfile {
  type: 'Unconfined' | 'RuntimeDefault' | 'Localhost';
  localhostProfile?: string;
}

export interface SecurityContext {
  capabilities?: Capabilities;
  privileged?: boolean;
  seLinuxOptions?: SELinuxOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  procMount?: 'Default' | 'Unmasked';
  seccompProfile?: SeccompProfile;
  /** Free-form in the schema, like the other `unknown` fields here: kept and served, read by no component. */
  windowsOptions?: unknown;
  appArmorProfile?: unknown;
}

export interface ContainerResizePolicy {
  resourceName: string;
  restartPolicy: 'NotRequired' | 'RestartContainer';
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  resizePolicy?: ContainerResizePolicy[];
  /** Only for init containers: `Always` makes a sidecar. */
  restartPolicy?: ContainerRestartPolicy;
  volumeMounts?: VolumeMount[];
  volumeDevices?: VolumeDevice[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath?: string;
  terminationMessagePolicy?: TerminationMessagePolicy;
  imagePullPolicy?: PullPolicy;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

// ---------------------------------------------------------------- volumes

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface EmptyDirVolumeSource {
  medium?: '' | 'Memory' | 'HugePages';
  sizeLimit?: QuantityString;
}

export interface ConfigMapVolumeSource {
  name?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface SecretVolumeSource {
  secretName?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export type HostPathType = '' | 'DirectoryOrCreate' | 'Directory' | 'FileOrCreate' | 'File' | 'Socket' | 'CharDevice' | 'BlockDevice';

export interface HostPathVolumeSource {
  path: string;
  type?: HostPathType;
}

export interface PersistentVolumeClaimVolumeSource {
  claimName: string;
  readOnly?: boolean;
}

export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface DownwardAPIVolumeSource {
  items?: DownwardAPIVolumeFile[];
  defaultMode?: number;
}

export interface ServiceAccountTokenProjection {
  audience?: string;
  expirationSeconds?: number;
  path: string;
}

export interface VolumeProjection {
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  serviceAccountToken?: ServiceAccountTokenProjection;
  clusterTrustBundle?: unknown;
}

export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}

export interface VolumeSource {
  emptyDir?: EmptyDirVolumeSource;
  configMap?: ConfigMapVolumeSource;
  secret?: SecretVolumeSource;
  hostPath?: HostPathVolumeSource;
  persistentVolumeClaim?: PersistentVolumeClaimVolumeSource;
  downwardAPI?: DownwardAPIVolumeSource;
  projected?: ProjectedVolumeSource;
  /** Sources kubelab describes but does not mount: free-form in the schema. */
  nfs?: unknown;
  csi?: unknown;
  ephemeral?: unknown;
  image?: unknown;
}

export interface Volume extends VolumeSource {
  name: string;
}

// ---------------------------------------------------------------- scheduling

export interface Toleration {
  key?: string;
  operator?: TolerationOperator;
  value?: string;
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: Time;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export type PodAntiAffinity = PodAffinity;

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAntiAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

// ---------------------------------------------------------------- pod

export interface PodSecurityContext {
  seLinuxOptions?: SELinuxOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  supplementalGroups?: number[];
  fsGroup?: number;
  sysctls?: { name: string; value: string }[];
  fsGroupChangePolicy?: 'OnRootMismatch' | 'Always';
  seccompProfile?: SeccompProfile;
  windowsOptions?: unknown;
  supplementalGroupsPolicy?: string;
  appArmorProfile?: unknown;
  seLinuxChangePolicy?: string;
}

export interface PodDNSConfig {
  nameservers?: string[];
  searches?: string[];
  options?: { name?: string; value?: string }[];
}

export interface HostAlias {
  ip: string;
  hostnames?: string[];
}

export interface PodReadinessGate {
  conditionType: string;
}

export interface PodOS {
  name: string;
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: (Container & { targetContainerName?: string })[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: DNSPolicy;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  /** Deprecated alias of serviceAccountName, still defaulted from it. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: HostAlias[];
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: PodDNSConfig;
  readinessGates?: PodReadinessGate[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: PreemptionPolicy;
  overhead?: ResourceList;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: PodOS;
  hostUsers?: boolean;
  schedulingGates?: { name: string }[];
}

/** Well-known pod condition types (PodScheduled, Initialized, ContainersReady, Ready, ...). */
export type PodConditionType = 'PodScheduled' | 'PodReadyToStartContainers' | 'Initialized' | 'ContainersReady' | 'Ready' | 'DisruptionTarget' | (string & {});

export interface PodCondition {
  type: PodConditionType;
  status: ConditionStatus;
  lastProbeTime?: Time | null;
  lastTransitionTime?: Time | null;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: Time;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: Time | null;
  finishedAt?: Time | null;
  containerID?: string;
}

/** At most one member is set; none means Waiting with no reason. */
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: ResourceList;
  resources?: ResourceRequirements;
  volumeMounts?: unknown;
  user?: unknown;
  allocatedResourcesStatus?: unknown;
  stopSignal?: string;
}

export interface PodIP {
  ip: string;
}

export interface HostIP {
  ip: string;
}

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: HostIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: Time;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: PodQOSClass;
  ephemeralContainerStatuses?: ContainerStatus[];
  resize?: string;
  resourceClaimStatuses?: unknown;
}

export interface Pod extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Pod';
  metadata: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}
export type PodList = KubeList<Pod>;

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

/** core/v1 Binding: the pods/binding subresource body the scheduler posts. */
export interface Binding extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Binding';
  metadata: ObjectMeta;
  target: ObjectReference;
}

// ---------------------------------------------------------------- node

export interface NodeConfigSource {
  configMap?: {
    namespace: string;
    name: string;
    uid?: string;
    resourceVersion?: string;
    kubeletConfigKey: string;
  };
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
  configSource?: NodeConfigSource;
  externalID?: string;
}

export type NodeConditionType = 'Ready' | 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' | 'NetworkUnavailable' | (string & {});

export interface NodeCondition {
  type: NodeConditionType;
  status: ConditionStatus;
  lastHeartbeatTime?: Time | null;
  lastTransitionTime?: Time | null;
  reason?: string;
  message?: string;
}

export type NodeAddressType = 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';

export interface NodeAddress {
  type: NodeAddressType;
  address: string;
}

export interface DaemonEndpoint {
  Port: number;
}

export interface NodeDaemonEndpoints {
  kubeletEndpoint?: DaemonEndpoint;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
  swap?: unknown;
}

export interface ContainerImage {
  names?: string[];
  sizeBytes?: number;
}

export interface AttachedVolume {
  name: string;
  devicePath: string;
}

export type NodePhase = 'Pending' | 'Running' | 'Terminated';

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  phase?: NodePhase;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: NodeDaemonEndpoints;
  nodeInfo?: NodeSystemInfo;
  images?: ContainerImage[];
  volumesInUse?: string[];
  volumesAttached?: AttachedVolume[];
  config?: unknown;
  runtimeHandlers?: unknown;
  features?: unknown;
}

export interface Node extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Node';
  metadata: ObjectMeta;
  spec?: NodeSpec;
  status?: NodeStatus;
}
export type NodeList = KubeList<Node>;

// ---------------------------------------------------------------- namespace

export type NamespacePhase = 'Active' | 'Terminating';

export interface NamespaceCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface NamespaceSpec {
  finalizers?: string[];
}

export interface NamespaceStatus {
  phase?: NamespacePhase;
  conditions?: NamespaceCondition[];
}

export interface Namespace extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Namespace';
  metadata: ObjectMeta;
  spec?: NamespaceSpec;
  status?: NamespaceStatus;
}
export type NamespaceList = KubeList<Namespace>;

// ---------------------------------------------------------------- service

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type ServiceAffinity = 'ClientIP' | 'None';
export type ServiceInternalTrafficPolicy = 'Cluster' | 'Local';
export type ServiceExternalTrafficPolicy = 'Cluster' | 'Local';
export type IPFamily = 'IPv4' | 'IPv6';
export type IPFamilyPolicy = 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';

export interface ServicePort {
  name?: string;
  protocol?: Protocol;
  appProtocol?: string;
  port: number;
  targetPort?: IntOrString;
  nodePort?: number;
}

export interface SessionAffinityConfig {
  clientIP?: { timeoutSeconds?: number };
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: ServiceType;
  externalIPs?: string[];
  sessionAffinity?: ServiceAffinity;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: ServiceExternalTrafficPolicy;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: SessionAffinityConfig;
  ipFamilies?: IPFamily[];
  ipFamilyPolicy?: IPFamilyPolicy;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: ServiceInternalTrafficPolicy;
  trafficDistribution?: string;
}

export interface PortStatus {
  port: number;
  protocol: Protocol;
  error?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: 'VIP' | 'Proxy';
  ports?: PortStatus[];
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: LoadBalancerIngress[] };
  conditions?: {
    type: string;
    status: ConditionStatus;
    observedGeneration?: number;
    lastTransitionTime: Time;
    reason: string;
    message: string;
  }[];
}

export interface Service extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Service';
  metadata: ObjectMeta;
  spec?: ServiceSpec;
  status?: ServiceStatus;
}
export type ServiceList = KubeList<Service>;

// ---------------------------------------------------------------- endpoints (legacy)

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

/** core/v1 EndpointPort (renamed here: discovery/v1 owns the name EndpointPort). */
export interface CoreV1EndpointPort {
  name?: string;
  port: number;
  protocol?: Protocol;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: CoreV1EndpointPort[];
}

export interface Endpoints extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Endpoints';
  metadata: ObjectMeta;
  subsets?: EndpointSubset[];
}
export type EndpointsList = KubeList<Endpoints>;

// ---------------------------------------------------------------- component statuses

export interface ComponentCondition {
  /** `Healthy`. */
  type: string;
  status: ConditionStatus;
  message?: string;
  error?: string;
}

/** Made by the apiserver when read (its health checks of the scheduler, the controller-manager and the store); never stored. */
export interface ComponentStatus extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ComponentStatus';
  metadata: ObjectMeta;
  conditions?: ComponentCondition[];
}

// ---------------------------------------------------------------- config

export interface ConfigMap extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ConfigMap';
  metadata: ObjectMeta;
  immutable?: boolean;
  data?: Record<string, string>;
  /** Values are base64 in JSON. */
  binaryData?: Record<string, string>;
}
export type ConfigMapList = KubeList<ConfigMap>;

/** Well-known secret types; any string is allowed. */
export type SecretType =
  | 'Opaque'
  | 'kubernetes.io/service-account-token'
  | 'kubernetes.io/dockercfg'
  | 'kubernetes.io/dockerconfigjson'
  | 'kubernetes.io/basic-auth'
  | 'kubernetes.io/ssh-auth'
  | 'kubernetes.io/tls'
  | 'bootstrap.kubernetes.io/token'
  | (string & {});

export interface Secret extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Secret';
  metadata: ObjectMeta;
  immutable?: boolean;
  /** Values are base64 in JSON. */
  data?: Record<string, string>;
  /** Write-only convenience: merged into data on write. */
  stringData?: Record<string, string>;
  type?: SecretType;
}
export type SecretList = KubeList<Secret>;

export interface ServiceAccount extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ServiceAccount';
  metadata: ObjectMeta;
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}
export type ServiceAccountList = KubeList<ServiceAccount>;

// ---------------------------------------------------------------- events

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  lastObservedTime?: MicroTime;
}

export type EventType = 'Normal' | 'Warning';

export interface Event extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Event';
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: Time | null;
  lastTimestamp?: Time | null;
  count?: number;
  type?: EventType | (string & {});
  eventTime?: MicroTime | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}
export type EventList = KubeList<Event>;

// PersistentVolume, PersistentVolumeClaim and their parts.
export * from './persistentvolume.js';

/** One bound of a LimitRange: per Container, Pod or PersistentVolumeClaim. */
export interface LimitRangeItem {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRangeSpec {
  limits: LimitRangeItem[];
}

/** LimitRange: the resource bounds and defaults the LimitRanger admission plugin applies in a namespace. */
export interface LimitRange extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'LimitRange';
  metadata: ObjectMeta;
  spec?: LimitRangeSpec;
}

/** One scope's match of a ResourceQuota's scopeSelector (ScopedResourceSelectorRequirement). */
export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ScopeSelector {
  matchExpressions?: ScopedResourceSelectorRequirement[];
}

export interface ResourceQuotaSpec {
  hard?: ResourceList;
  scopes?: string[];
  scopeSelector?: ScopeSelector;
}

/** What the quota enforces (hard, copied from the spec) and what the namespace uses of it, as the quota controller and admission record it. */
export interface ResourceQuotaStatus {
  hard?: ResourceList;
  used?: ResourceList;
}

/** ResourceQuota: the aggregate resources a namespace may consume, enforced by the ResourceQuota admission plugin. */
export interface ResourceQuota extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ResourceQuota';
  metadata: ObjectMeta;
  spec?: ResourceQuotaSpec;
  status?: ResourceQuotaStatus;
}
