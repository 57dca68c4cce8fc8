// The typed clientset (client-go's kubernetes.Clientset): one accessor per
// resource, grouped by API group, all sharing one connection.

import type {
  CertificateSigningRequest,
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  ControllerRevision,
  CronJob,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Endpoints,
  Event,
  Job,
  KubeObject,
  Lease,
  Namespace,
  Node,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  Role,
  RoleBinding,
  Secret,
  Service,
  ServiceAccount,
  StatefulSet,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  ResourceQuota,
  HorizontalPodAutoscaler,
  Ingress,
  IngressClass,
  NetworkPolicy,
} from '@kubelab/api';
import { Connection, type ConnectionConfig } from '../transport/connection.js';
import { ResourceClient } from './resource-client.js';
import type { GroupVersionResource, PodInterface, ResourceInterface, ServiceAccountInterface, SubresourceClient } from './types.js';

/** A clientset group's accessors: namespace → the typed client of each resource in the group. */
type GroupClients<G extends TypedGroup> = { [K in keyof TypedGroups[G]]: (namespace?: string) => ResourceInterface<ObjectOf<TypedGroups[G][K]>> };

export interface CoreV1 extends Omit<GroupClients<'core'>, 'pods' | 'nodes' | 'namespaces' | 'serviceAccounts' | 'persistentVolumes'> {
  pods(namespace?: string): PodInterface<Pod>;
  serviceAccounts(namespace?: string): ServiceAccountInterface<ServiceAccount>;
  // Cluster-scoped: no namespace.
  nodes(): ResourceInterface<Node>;
  namespaces(): ResourceInterface<Namespace>;
  persistentVolumes(): ResourceInterface<PersistentVolume>;
}
export type AppsV1 = GroupClients<'apps'>;
export type DiscoveryV1 = GroupClients<'discovery'>;
export type CoordinationV1 = GroupClients<'coordination'>;
export interface RbacV1 extends Omit<GroupClients<'rbac'>, 'clusterRoles' | 'clusterRoleBindings'> {
  // Cluster-scoped: no namespace.
  clusterRoles(): ResourceInterface<ClusterRole>;
  clusterRoleBindings(): ResourceInterface<ClusterRoleBinding>;
}

export interface CertificatesV1 {
  // Cluster-scoped: no namespace.
  certificateSigningRequests(): ResourceInterface<CertificateSigningRequest>;
}

export type BatchV1 = GroupClients<'batch'>;
export interface StorageV1 {
  // Cluster-scoped: no namespace.
  storageClasses(): ResourceInterface<StorageClass>;
}
export type PolicyV1 = GroupClients<'policy'>;
export type AutoscalingV2 = GroupClients<'autoscaling'>;
export type NetworkingV1 = GroupClients<'networking'>;

export interface Clientset {
  core: CoreV1;
  apps: AppsV1;
  discovery: DiscoveryV1;
  coordination: CoordinationV1;
  rbac: RbacV1;
  certificates: CertificatesV1;
  batch: BatchV1;
  storage: StorageV1;
  policy: PolicyV1;
  autoscaling: AutoscalingV2;
  networking: NetworkingV1;
  /** A client for any served resource (the dynamic client's role). */
  resource<T extends KubeObject = KubeObject>(gvr: GroupVersionResource, namespace?: string): PodInterface<T>;
  /** Closes the connection; running watches end. */
  close(): void;
}

/** GVRs of the typed accessors, in one list. */
export const GVR = {
  pods: { group: '', version: 'v1', resource: 'pods' },
  nodes: { group: '', version: 'v1', resource: 'nodes' },
  namespaces: { group: '', version: 'v1', resource: 'namespaces' },
  services: { group: '', version: 'v1', resource: 'services' },
  endpoints: { group: '', version: 'v1', resource: 'endpoints' },
  events: { group: '', version: 'v1', resource: 'events' },
  configMaps: { group: '', version: 'v1', resource: 'configmaps' },
  secrets: { group: '', version: 'v1', resource: 'secrets' },
  serviceAccounts: { group: '', version: 'v1', resource: 'serviceaccounts' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  replicaSets: { group: 'apps', version: 'v1', resource: 'replicasets' },
  daemonSets: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  statefulSets: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  controllerRevisions: { group: 'apps', version: 'v1', resource: 'controllerrevisions' },
  endpointSlices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  leases: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' },
  roles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' },
  roleBindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' },
  clusterRoles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
  clusterRoleBindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' },
  certificateSigningRequests: { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' },
  jobs: { group: 'batch', version: 'v1', resource: 'jobs' },
  cronJobs: { group: 'batch', version: 'v1', resource: 'cronjobs' },
  persistentVolumes: { group: '', version: 'v1', resource: 'persistentvolumes' },
  persistentVolumeClaims: { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
  storageClasses: { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' },
  podDisruptionBudgets: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' },
  resourceQuotas: { group: '', version: 'v1', resource: 'resourcequotas' },
  horizontalPodAutoscalers: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
  networkPolicies: { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies' },
  ingresses: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' },
  ingressClasses: { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses' },
} as const satisfies Record<string, GroupVersionResource>;

/** A GVR carrying the type of its objects (compile time only). */
type TypedGVR<T extends KubeObject> = GroupVersionResource & { readonly [objectType]?: T };
declare const objectType: unique symbol;
const typed = <T extends KubeObject>(gvr: GroupVersionResource): TypedGVR<T> => gvr;
/** The object type of a typed accessor. */
export type ObjectOf<R> = R extends TypedGVR<infer T> ? T : never;

/**
 * The typed accessors by API group, each with its GVR and object type: the
 * one list the clientset's accessors and the informer factory's are built from.
 */
export const TYPED_GROUPS = {
  core: {
    pods: typed<Pod>(GVR.pods),
    nodes: typed<Node>(GVR.nodes),
    namespaces: typed<Namespace>(GVR.namespaces),
    services: typed<Service>(GVR.services),
    endpoints: typed<Endpoints>(GVR.endpoints),
    events: typed<Event>(GVR.events),
    configMaps: typed<ConfigMap>(GVR.configMaps),
    secrets: typed<Secret>(GVR.secrets),
    serviceAccounts: typed<ServiceAccount>(GVR.serviceAccounts),
    persistentVolumes: typed<PersistentVolume>(GVR.persistentVolumes),
    persistentVolumeClaims: typed<PersistentVolumeClaim>(GVR.persistentVolumeClaims),
    resourceQuotas: typed<ResourceQuota>(GVR.resourceQuotas),
  },
  apps: {
    deployments: typed<Deployment>(GVR.deployments),
    replicaSets: typed<ReplicaSet>(GVR.replicaSets),
    daemonSets: typed<DaemonSet>(GVR.daemonSets),
    statefulSets: typed<StatefulSet>(GVR.statefulSets),
    controllerRevisions: typed<ControllerRevision>(GVR.controllerRevisions),
  },
  discovery: { endpointSlices: typed<EndpointSlice>(GVR.endpointSlices) },
  coordination: { leases: typed<Lease>(GVR.leases) },
  rbac: {
    roles: typed<Role>(GVR.roles),
    roleBindings: typed<RoleBinding>(GVR.roleBindings),
    clusterRoles: typed<ClusterRole>(GVR.clusterRoles),
    clusterRoleBindings: typed<ClusterRoleBinding>(GVR.clusterRoleBindings),
  },
  certificates: { certificateSigningRequests: typed<CertificateSigningRequest>(GVR.certificateSigningRequests) },
  batch: { jobs: typed<Job>(GVR.jobs), cronJobs: typed<CronJob>(GVR.cronJobs) },
  storage: { storageClasses: typed<StorageClass>(GVR.storageClasses) },
  policy: { podDisruptionBudgets: typed<PodDisruptionBudget>(GVR.podDisruptionBudgets) },
  autoscaling: { horizontalPodAutoscalers: typed<HorizontalPodAutoscaler>(GVR.horizontalPodAutoscalers) },
  networking: { networkPolicies: typed<NetworkPolicy>(GVR.networkPolicies), ingresses: typed<Ingress>(GVR.ingresses), ingressClasses: typed<IngressClass>(GVR.ingressClasses) },
};
export type TypedGroups = typeof TYPED_GROUPS;
const CLUSTER_SCOPED: ReadonlySet<GroupVersionResource> = new Set([
  GVR.nodes,
  GVR.namespaces,
  GVR.clusterRoles,
  GVR.clusterRoleBindings,
  GVR.certificateSigningRequests,
  GVR.persistentVolumes,
  GVR.storageClasses,
]);
export type TypedGroup = keyof TypedGroups;

/** One accessor per resource of a group: make(its GVR). */
export function mapTypedGroup<G extends TypedGroup, A>(group: G, make: (gvr: GroupVersionResource) => A): Record<keyof TypedGroups[G], A> {
  return Object.fromEntries(Object.entries(TYPED_GROUPS[group]).map(([name, gvr]) => [name, make(gvr)])) as Record<keyof TypedGroups[G], A>;
}

type Factory = <T extends KubeObject>(gvr: GroupVersionResource, namespace: string) => SubresourceClient<T>;

/** Builds the grouped accessors over any client factory (real or fake). */
export function buildClientset(factory: Factory, close: () => void): Clientset {
  const f = <T extends KubeObject>(gvr: GroupVersionResource, ns = '') => factory<T>(gvr, ns);
  // Cluster-scoped accessors take no namespace (the types say so; untyped callers get it ignored, as before).
  const group = (g: TypedGroup) => mapTypedGroup(g, (gvr) => (CLUSTER_SCOPED.has(gvr) ? () => f(gvr) : (ns?: string) => f(gvr, ns)));
  return {
    core: group('core') as CoreV1,
    apps: group('apps') as AppsV1,
    discovery: group('discovery') as DiscoveryV1,
    coordination: group('coordination') as CoordinationV1,
    rbac: group('rbac') as RbacV1,
    certificates: group('certificates') as CertificatesV1,
    batch: group('batch') as BatchV1,
    storage: group('storage') as StorageV1,
    policy: group('policy') as PolicyV1,
    autoscaling: group('autoscaling') as AutoscalingV2,
    networking: group('networking') as NetworkingV1,
    resource: (gvr, ns) => f(gvr, ns),
    close,
  };
}

export type ClientsetConfig = ConnectionConfig;

/** Connects to the apiserver's gRPC API (lazily: the first call dials). */
export function createClientset(config: ClientsetConfig): Clientset & { connection: Connection } {
  const conn = new Connection(config);
  const cs = buildClientset(
    (gvr, ns) => new ResourceClient(conn, gvr, ns),
    () => conn.close(),
  );
  return Object.assign(cs, { connection: conn });
}
