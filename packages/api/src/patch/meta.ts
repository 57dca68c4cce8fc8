// Patch metadata of the kinds kubelab serves: which lists merge by which key
// and which use retainKeys (upstream: the `patchStrategy`/`patchMergeKey`
// struct tags of k8s.io/api, read by strategicpatch.LookupPatchMetadata).
// Lists not named here are atomic: a patch replaces them whole.

export type PatchStrategy = 'merge' | 'retainKeys' | 'merge,retainKeys' | 'replace';

export interface FieldPatchMeta {
  /** The type of the field's value, or of each item for a list. */
  type?: string;
  /** How a patch combines lists (and retainKeys maps); absent: replace. */
  strategy?: PatchStrategy;
  /** For lists of objects merged by key: the key field (`name`, `containerPort`). */
  mergeKey?: string;
}

export type TypePatchMeta = Record<string, FieldPatchMeta>;

const merge = (mergeKey: string, type?: string): FieldPatchMeta => ({ strategy: 'merge', mergeKey, ...(type ? { type } : {}) });
const t = (type: string, strategy?: PatchStrategy): FieldPatchMeta => (strategy ? { type, strategy } : { type });

/** Type name → field → patch metadata. Type names are the Go struct names. */
export const PATCH_META: Record<string, TypePatchMeta> = {
  ObjectMeta: { ownerReferences: merge('uid'), finalizers: { strategy: 'merge' } },
  Pod: { metadata: t('ObjectMeta'), spec: t('PodSpec'), status: t('PodStatus') },
  PodTemplateSpec: { metadata: t('ObjectMeta'), spec: t('PodSpec') },
  PodSpec: {
    volumes: { strategy: 'merge,retainKeys', mergeKey: 'name', type: 'Volume' },
    initContainers: merge('name', 'Container'),
    containers: merge('name', 'Container'),
    ephemeralContainers: merge('name', 'Container'),
    imagePullSecrets: merge('name'),
    hostAliases: merge('ip'),
    topologySpreadConstraints: merge('topologyKey'),
    schedulingGates: merge('name'),
    resourceClaims: { strategy: 'merge,retainKeys', mergeKey: 'name' },
  },
  Container: {
    ports: merge('containerPort'),
    env: merge('name'),
    volumeMounts: merge('mountPath'),
    volumeDevices: merge('devicePath'),
  },
  PodStatus: { conditions: merge('type'), podIPs: merge('ip'), hostIPs: merge('ip'), resourceClaimStatuses: { strategy: 'merge,retainKeys', mergeKey: 'name' } },
  Node: { metadata: t('ObjectMeta'), spec: t('NodeSpec'), status: t('NodeStatus') },
  NodeSpec: { podCIDRs: { strategy: 'merge' } },
  NodeStatus: { conditions: merge('type'), addresses: merge('type') },
  Namespace: { metadata: t('ObjectMeta'), status: t('NamespaceStatus') },
  NamespaceStatus: { conditions: merge('type') },
  Service: { metadata: t('ObjectMeta'), spec: t('ServiceSpec'), status: t('ServiceStatus') },
  ServiceSpec: { ports: merge('port') },
  ServiceStatus: { conditions: merge('type') },
  ServiceAccount: { metadata: t('ObjectMeta'), secrets: merge('name') },
  Endpoints: { metadata: t('ObjectMeta') },
  ConfigMap: { metadata: t('ObjectMeta') },
  Secret: { metadata: t('ObjectMeta') },
  Event: { metadata: t('ObjectMeta') },
  EndpointSlice: { metadata: t('ObjectMeta') },
  Lease: { metadata: t('ObjectMeta') },
  Deployment: { metadata: t('ObjectMeta'), spec: t('DeploymentSpec'), status: t('DeploymentStatus') },
  DeploymentSpec: { template: t('PodTemplateSpec'), strategy: t('DeploymentStrategy', 'retainKeys') },
  DeploymentStatus: { conditions: merge('type') },
  ReplicaSet: { metadata: t('ObjectMeta'), spec: t('ReplicaSetSpec'), status: t('ReplicaSetStatus') },
  ReplicaSetSpec: { template: t('PodTemplateSpec') },
  ReplicaSetStatus: { conditions: merge('type') },
  DaemonSet: { metadata: t('ObjectMeta'), spec: t('DaemonSetSpec'), status: t('DaemonSetStatus') },
  DaemonSetSpec: { template: t('PodTemplateSpec') },
  DaemonSetStatus: { conditions: merge('type') },
  Scale: { metadata: t('ObjectMeta') },
};

/** The patch metadata of one field of a type, if the type is known. */
export function fieldPatchMeta(typeName: string | undefined, field: string): FieldPatchMeta | undefined {
  if (!typeName) return undefined;
  return PATCH_META[typeName]?.[field];
}
