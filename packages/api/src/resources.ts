// The resources kubelab serves: one table that discovery, storage keys, the
// REST paths and the gRPC API all read (upstream: each group's install +
// the RESTStorage map of the apiserver).

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural, lower case: the path segment (`pods`). */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: Verb[];
  /** Subresources served besides the object itself (`status`, `scale`, ...). */
  subresources: string[];
}

const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function r(
  group: string,
  kind: string,
  resource: string,
  namespaced: boolean,
  opts: { version?: string; shortNames?: string[]; categories?: string[]; subresources?: string[]; verbs?: Verb[] } = {},
): ResourceInfo {
  return {
    group,
    version: opts.version ?? 'v1',
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames: opts.shortNames ?? [],
    categories: opts.categories ?? [],
    verbs: opts.verbs ?? ALL_VERBS,
    subresources: opts.subresources ?? [],
  };
}

export const RESOURCES: readonly ResourceInfo[] = [
  r('', 'Pod', 'pods', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'binding', 'eviction', 'log', 'exec', 'attach'],
  }),
  r('', 'Node', 'nodes', false, { shortNames: ['no'], subresources: ['status', 'proxy'] }),
  r('', 'Namespace', 'namespaces', false, {
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  }),
  r('', 'Service', 'services', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  }),
  r('', 'Endpoints', 'endpoints', true, { shortNames: ['ep'] }),
  r('', 'ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
  r('', 'Secret', 'secrets', true),
  r('', 'Event', 'events', true, { shortNames: ['ev'] }),
  r('', 'ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'] }),
  r('apps', 'Deployment', 'deployments', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  r('apps', 'ReplicaSet', 'replicasets', true, {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  r('apps', 'DaemonSet', 'daemonsets', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  }),
  r('discovery.k8s.io', 'EndpointSlice', 'endpointslices', true),
  r('coordination.k8s.io', 'Lease', 'leases', true),
  // The reviews: create-only, answered and never stored (isStored is false).
  r('authorization.k8s.io', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, { verbs: ['create'] }),
  r('authorization.k8s.io', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, { verbs: ['create'] }),
  r('authorization.k8s.io', 'SubjectAccessReview', 'subjectaccessreviews', false, { verbs: ['create'] }),
  r('authorization.k8s.io', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', true, { verbs: ['create'] }),
  r('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews', false, { verbs: ['create'] }),
  // kubectl 1.27 asks v1beta1 (the served versions as upstream 1.32: v1 preferred).
  r('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews', false, { version: 'v1beta1', verbs: ['create'] }),
];

/** Whether objects of a resource are kept in storage (the create-only reviews are not): what lists, watches and caches walk. */
export function isStored(info: Pick<ResourceInfo, 'verbs'>): boolean {
  return info.verbs.includes('get');
}

export function apiVersionOf(info: Pick<ResourceInfo, 'group' | 'version'>): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

const byGVR = new Map(RESOURCES.map((i) => [`${i.group}/${i.version}/${i.resource}`, i]));
const byGVK = new Map(RESOURCES.map((i) => [`${apiVersionOf(i)}/${i.kind}`, i]));

/** The resource for group/version/resource, or undefined if kubelab does not serve it. */
export function lookupResource(group: string, version: string, resource: string): ResourceInfo | undefined {
  return byGVR.get(`${group}/${version}/${resource}`);
}

/** The resource for an object's apiVersion and kind. */
export function lookupKind(apiVersion: string, kind: string): ResourceInfo | undefined {
  return byGVK.get(`${apiVersion}/${kind}`);
}

/** The key an object is stored under: `/registry/<group/>resource/<ns>/<name>` as etcd does. */
export function storageKey(info: ResourceInfo, namespace: string | undefined, name: string): string {
  const prefix = storagePrefix(info);
  return info.namespaced ? `${prefix}/${namespace}/${name}` : `${prefix}/${name}`;
}

/** The key prefix of one resource (upstream keeps core resources unqualified). */
export function storagePrefix(info: ResourceInfo): string {
  return info.group ? `/registry/${info.group}/${info.resource}` : `/registry/${info.resource}`;
}
