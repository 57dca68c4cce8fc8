// Well-known label, annotation and taint keys (k8s.io/api/core/v1 well_known_labels.go,
// well_known_taints.go, apps/v1 and controller constants).

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_OS = 'kubernetes.io/os';
export const LABEL_ARCH = 'kubernetes.io/arch';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const LABEL_INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
export const LABEL_NODE_ROLE_CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';
export const LABEL_NODE_EXCLUDE_BALANCERS = 'node.kubernetes.io/exclude-from-external-load-balancers';
/** Label the deployment controller puts on its ReplicaSets and pods (apps/v1 DefaultDeploymentUniqueLabelKey). */
export const LABEL_POD_TEMPLATE_HASH = 'pod-template-hash';
/** Label the daemonset controller puts on pods (ControllerRevisionHashLabelKey). */
export const LABEL_CONTROLLER_REVISION_HASH = 'controller-revision-hash';
export const LABEL_POD_TEMPLATE_GENERATION = 'pod-template-generation';

export const ANNOTATION_DEPLOYMENT_REVISION = 'deployment.kubernetes.io/revision';
export const ANNOTATION_DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const ANNOTATION_MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const ANNOTATION_LAST_APPLIED_CONFIG = 'kubectl.kubernetes.io/last-applied-configuration';
export const ANNOTATION_CHANGE_CAUSE = 'kubernetes.io/change-cause';
export const ANNOTATION_ENDPOINTS_LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
/** Static (mirror) pods: the kubelet marks them with these (kubetypes.ConfigSourceAnnotationKey / ConfigMirrorAnnotationKey). */
export const ANNOTATION_CONFIG_SOURCE = 'kubernetes.io/config.source';
export const ANNOTATION_CONFIG_MIRROR = 'kubernetes.io/config.mirror';
export const ANNOTATION_CONFIG_HASH = 'kubernetes.io/config.hash';
/** A DaemonSet's template generation: the apiserver bumps it, the controller labels pods with it. */
export const ANNOTATION_DAEMONSET_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** Taint keys the node lifecycle controller and kubelet manage. */
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_NODE_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';
export const TAINT_EXTERNAL_CLOUD_PROVIDER = 'node.cloudprovider.kubernetes.io/uninitialized';

/** The namespaces the apiserver creates at start. */
export const NAMESPACE_DEFAULT = 'default';
export const NAMESPACE_SYSTEM = 'kube-system';
export const NAMESPACE_PUBLIC = 'kube-public';
export const NAMESPACE_NODE_LEASE = 'kube-node-lease';

/** Scheduler defaults for containers without requests (NonMissingContainerRequests in scoring). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;
