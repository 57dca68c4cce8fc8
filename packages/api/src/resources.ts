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
  /** The SCHEMA type of its objects when not `kind` (two kinds are named Event); read it through schemaTypeOf. */
  schemaType?: string;
  /** The resource whose storage holds its objects, converted on the way (upstream: events.k8s.io/v1 over core events). */
  storedAs?: { group: string; resource: string };
  /** Made when read, never stored (ComponentStatus: the components' health probed per request). */
  computed?: true;
  /** The release that deprecated it: every answer carries upstream's warning (`v1 ComponentStatus is deprecated in v1.19+`). */
  deprecatedIn?: string;
}

const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function r(
  group: string,
  kind: string,
  resource: string,
  namespaced: boolean,
  opts: {
    version?: string;
    shortNames?: string[];
    categories?: string[];
    subresources?: string[];
    verbs?: Verb[];
    schemaType?: string;
    storedAs?: ResourceInfo['storedAs'];
    computed?: true;
    deprecatedIn?: string;
  } = {},
): ResourceInfo {
  const extra: Pick<ResourceInfo, 'schemaType' | 'storedAs' | 'computed' | 'deprecatedIn'> = {};
  if (opts.schemaType) extra.schemaType = opts.schemaType;
  if (opts.storedAs) extra.storedAs = opts.storedAs;
  if (opts.computed) extra.computed = opts.computed;
  if (opts.deprecatedIn) extra.deprecatedIn = opts.deprecatedIn;
  return {
    ...extra,
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
    subresources: ['status', 'binding', 'eviction', 'log', 'exec', 'attach', 'portforward', 'proxy', 'ephemeralcontainers'],
  }),
  r('', 'Node', 'nodes', false, { shortNames: ['no'], subresources: ['status', 'proxy'] }),
  // Answered by probing the components when read; never stored (deprecated upstream since v1.19, still served).
  r('', 'ComponentStatus', 'componentstatuses', false, { shortNames: ['cs'], verbs: ['get', 'list'], computed: true, deprecatedIn: '1.19' }),
  r('', 'Namespace', 'namespaces', false, {
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  }),
  r('', 'Service', 'services', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status', 'proxy'],
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  }),
  r('', 'Endpoints', 'endpoints', true, { shortNames: ['ep'] }),
  r('', 'ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
  r('', 'Secret', 'secrets', true),
  r('', 'Event', 'events', true, { shortNames: ['ev'] }),
  r('', 'ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'], subresources: ['token'] }),
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
  r('apps', 'StatefulSet', 'statefulsets', true, {
    shortNames: ['sts'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  // No short name and no category, as upstream.
  r('apps', 'ControllerRevision', 'controllerrevisions', true),
  r('discovery.k8s.io', 'EndpointSlice', 'endpointslices', true),
  r('coordination.k8s.io', 'Lease', 'leases', true),
  // rbac.authorization.k8s.io/v1: no short names, as upstream.
  r('rbac.authorization.k8s.io', 'Role', 'roles', true),
  r('rbac.authorization.k8s.io', 'ClusterRole', 'clusterroles', false),
  r('rbac.authorization.k8s.io', 'RoleBinding', 'rolebindings', true),
  r('rbac.authorization.k8s.io', 'ClusterRoleBinding', 'clusterrolebindings', false),
  // The reviews: create-only, answered and never stored (isStored is false).
  r('authorization.k8s.io', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, { verbs: ['create'] }),
  r('authorization.k8s.io', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, { verbs: ['create'] }),
  r('authorization.k8s.io', 'SubjectAccessReview', 'subjectaccessreviews', false, { verbs: ['create'] }),
  r('authorization.k8s.io', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', true, { verbs: ['create'] }),
  r('authentication.k8s.io', 'TokenReview', 'tokenreviews', false, { verbs: ['create'] }),
  r('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews', false, { verbs: ['create'] }),
  // kubectl 1.27 asks v1beta1 (the served versions as upstream 1.32: v1 preferred).
  r('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews', false, { version: 'v1beta1', verbs: ['create'] }),
  // approval: the Approved/Denied conditions (kubectl certificate approve|deny); status: the signer's certificate.
  r('certificates.k8s.io', 'CertificateSigningRequest', 'certificatesigningrequests', false, { shortNames: ['csr'], subresources: ['status', 'approval'] }),
  // Served from core events' storage, converted (upstream: the events REST storage installed twice).
  r('events.k8s.io', 'Event', 'events', true, { shortNames: ['ev'], schemaType: 'EventsEvent', storedAs: { group: '', resource: 'events' } }),
  r('apiextensions.k8s.io', 'CustomResourceDefinition', 'customresourcedefinitions', false, { shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: ['status'] }),
  // The aggregation layer's registrations (kube-aggregator): no short names, as upstream.
  r('apiregistration.k8s.io', 'APIService', 'apiservices', false, { categories: ['api-extensions'], subresources: ['status'] }),
  // batch/v1: jobs have no short name upstream; cronjobs are `cj`.
  r('batch', 'Job', 'jobs', true, { categories: ['all'], subresources: ['status'] }),
  r('batch', 'CronJob', 'cronjobs', true, { shortNames: ['cj'], categories: ['all'], subresources: ['status'] }),
  // Persistent storage: volumes (cluster-scoped), claims, and storage.k8s.io classes.
  r('', 'PersistentVolume', 'persistentvolumes', false, { shortNames: ['pv'], subresources: ['status'] }),
  r('', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, { shortNames: ['pvc'], subresources: ['status'] }),
  r('storage.k8s.io', 'StorageClass', 'storageclasses', false, { shortNames: ['sc'] }),
  r('policy', 'PodDisruptionBudget', 'poddisruptionbudgets', true, { shortNames: ['pdb'], subresources: ['status'] }),
  r('scheduling.k8s.io', 'PriorityClass', 'priorityclasses', false, { shortNames: ['pc'] }),
  // API Priority and Fairness' configuration: no short names, as upstream.
  r('flowcontrol.apiserver.k8s.io', 'FlowSchema', 'flowschemas', false, { subresources: ['status'] }),
  r('flowcontrol.apiserver.k8s.io', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', false, { subresources: ['status'] }),
  r('', 'LimitRange', 'limitranges', true, { shortNames: ['limits'] }),
  r('', 'ResourceQuota', 'resourcequotas', true, { shortNames: ['quota'], subresources: ['status'] }),
  r('autoscaling', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, { version: 'v2', shortNames: ['hpa'], categories: ['all'], subresources: ['status'] }),
  // kubectl autoscale creates autoscaling/v1 (v2 preferred, as upstream); served from v2's storage, converted.
  r('autoscaling', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, {
    version: 'v1',
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    schemaType: 'HorizontalPodAutoscalerV1',
    storedAs: { group: 'autoscaling', resource: 'horizontalpodautoscalers' },
  }),
  r('networking.k8s.io', 'NetworkPolicy', 'networkpolicies', true, { shortNames: ['netpol'] }),
  r('networking.k8s.io', 'Ingress', 'ingresses', true, { shortNames: ['ing'], subresources: ['status'] }),
  r('networking.k8s.io', 'IngressClass', 'ingressclasses', false),
];

/** Whether objects of a resource are kept in its own storage (the create-only reviews and events.k8s.io are not): what lists, watches and caches walk. */
export function isStored(info: Pick<ResourceInfo, 'verbs' | 'storedAs' | 'computed'>): boolean {
  return info.verbs.includes('get') && !info.storedAs && !info.computed;
}

/** The SCHEMA type a resource's objects are described by (decoding, OpenAPI, printers). */
export function schemaTypeOf(info: Pick<ResourceInfo, 'kind' | 'schemaType'>): string {
  return info.schemaType ?? info.kind;
}

/** Upstream's deprecation warning for a deprecated kind (the apiserver's installer adds it to every answer); undefined when not deprecated. */
export function deprecationWarning(info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'deprecatedIn'>): string | undefined {
  return info.deprecatedIn && `${apiVersionOf(info)} ${info.kind} is deprecated in v${info.deprecatedIn}+`;
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

/** The key an object is stored under: `/registry/<group/>resource/<ns>/<name>` as etcd does (the name escaped for NATS KV). */
export function storageKey(info: ResourceInfo, namespace: string | undefined, name: string): string {
  const prefix = storagePrefix(info);
  const n = escapeKeyName(name);
  return info.namespaced ? `${prefix}/${namespace}/${n}` : `${prefix}/${n}`;
}

const KEY_SAFE = /[-\w]/;
const hex = (b: number) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * A name as NATS KV accepts it in a key (letters, digits, `-_./=`; no empty
 * `.`-token, no trailing `.`). etcd takes any bytes, and RBAC names such as
 * `system:node` are not DNS names, so every other byte (and `=` itself, a
 * `.` before another or at the end) is written `=HH`, as quoted-printable
 * does: `system=3Anode`. DNS names, the other kinds' names, are unchanged.
 */
export function escapeKeyName(name: string): string {
  if (/^[-\w.]*$/.test(name) && !name.includes('..') && !name.endsWith('.')) return name;
  let out = '';
  const bytes = new TextEncoder().encode(name);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const c = String.fromCharCode(b);
    if (b < 0x80 && KEY_SAFE.test(c)) out += c;
    else if (c === '.' && i + 1 < bytes.length && bytes[i + 1] !== 0x2e) out += c;
    else out += hex(b);
  }
  return out;
}

/** The name an escaped key segment stands for (the inverse of escapeKeyName). */
export function unescapeKeyName(segment: string): string {
  if (!segment.includes('=')) return segment;
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === '=' && /^[0-9A-F]{2}$/.test(segment.slice(i + 1, i + 3))) {
      bytes.push(parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(segment.charCodeAt(i));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The key prefix of one resource (upstream keeps core resources unqualified). */
export function storagePrefix(info: ResourceInfo): string {
  return info.group ? `/registry/${info.group}/${info.resource}` : `/registry/${info.resource}`;
}
