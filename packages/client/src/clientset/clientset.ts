// The typed clientset (client-go's kubernetes.Clientset): one accessor per
// resource, grouped by API group, all sharing one connection.

import type {
  ConfigMap,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Endpoints,
  Event,
  KubeObject,
  Lease,
  Namespace,
  Node,
  Pod,
  ReplicaSet,
  Secret,
  Service,
  ServiceAccount,
} from '@kubelab/api';
import { Connection, type ConnectionConfig } from '../transport/connection.js';
import { ResourceClient } from './resource-client.js';
import type { GroupVersionResource, PodInterface, ResourceInterface } from './types.js';

export interface CoreV1 {
  pods(namespace?: string): PodInterface<Pod>;
  nodes(): ResourceInterface<Node>;
  namespaces(): ResourceInterface<Namespace>;
  services(namespace?: string): ResourceInterface<Service>;
  endpoints(namespace?: string): ResourceInterface<Endpoints>;
  events(namespace?: string): ResourceInterface<Event>;
  configMaps(namespace?: string): ResourceInterface<ConfigMap>;
  secrets(namespace?: string): ResourceInterface<Secret>;
  serviceAccounts(namespace?: string): ResourceInterface<ServiceAccount>;
}

export interface AppsV1 {
  deployments(namespace?: string): ResourceInterface<Deployment>;
  replicaSets(namespace?: string): ResourceInterface<ReplicaSet>;
  daemonSets(namespace?: string): ResourceInterface<DaemonSet>;
}

export interface DiscoveryV1 {
  endpointSlices(namespace?: string): ResourceInterface<EndpointSlice>;
}

export interface CoordinationV1 {
  leases(namespace?: string): ResourceInterface<Lease>;
}

export interface Clientset {
  core: CoreV1;
  apps: AppsV1;
  discovery: DiscoveryV1;
  coordination: CoordinationV1;
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
  endpointSlices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  leases: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' },
} as const satisfies Record<string, GroupVersionResource>;

type Factory = <T extends KubeObject>(gvr: GroupVersionResource, namespace: string) => PodInterface<T>;

/** Builds the grouped accessors over any client factory (real or fake). */
export function buildClientset(factory: Factory, close: () => void): Clientset {
  const f = <T extends KubeObject>(gvr: GroupVersionResource, ns = '') => factory<T>(gvr, ns);
  return {
    core: {
      pods: (ns) => f<Pod>(GVR.pods, ns),
      nodes: () => f<Node>(GVR.nodes),
      namespaces: () => f<Namespace>(GVR.namespaces),
      services: (ns) => f<Service>(GVR.services, ns),
      endpoints: (ns) => f<Endpoints>(GVR.endpoints, ns),
      events: (ns) => f<Event>(GVR.events, ns),
      configMaps: (ns) => f<ConfigMap>(GVR.configMaps, ns),
      secrets: (ns) => f<Secret>(GVR.secrets, ns),
      serviceAccounts: (ns) => f<ServiceAccount>(GVR.serviceAccounts, ns),
    },
    apps: {
      deployments: (ns) => f<Deployment>(GVR.deployments, ns),
      replicaSets: (ns) => f<ReplicaSet>(GVR.replicaSets, ns),
      daemonSets: (ns) => f<DaemonSet>(GVR.daemonSets, ns),
    },
    discovery: { endpointSlices: (ns) => f<EndpointSlice>(GVR.endpointSlices, ns) },
    coordination: { leases: (ns) => f<Lease>(GVR.leases, ns) },
    resource: (gvr, ns) => f(gvr, ns),
    close,
  };
}

export type ClientsetConfig = ConnectionConfig;

/** Connects to the apiserver's gRPC API (lazily: the first call dials). */
export function createClientset(config: ClientsetConfig): Clientset & { connection: Connection } {
  const conn = new Connection(config);
  const cs = buildClientset((gvr, ns) => new ResourceClient(conn, gvr, ns), () => conn.close());
  return Object.assign(cs, { connection: conn });
}
