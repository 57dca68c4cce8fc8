import { describe, expect, it } from 'vitest';
import { PATCH_META, type FieldPatchMeta, type PatchStrategy, type TypePatchMeta } from './meta.js';

// Today's hand-written table, frozen, to check the derivation from the
// schema against it before the table goes.
const merge = (mergeKey: string, type?: string): FieldPatchMeta => ({ strategy: 'merge', mergeKey, ...(type ? { type } : {}) });
const t = (type: string, strategy?: PatchStrategy): FieldPatchMeta => (strategy ? { type, strategy } : { type });
const FROZEN: Record<string, TypePatchMeta> = {
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

/**
 * Fields of the frozen table the schema does not describe. PodSpec.resourceClaims
 * is not a field kubelab serves: decoding drops it from bodies and patches
 * alike, so its merge key was never reached.
 */
const NOT_IN_SCHEMA = ['PodSpec.resourceClaims'];

const tags = (meta: TypePatchMeta | undefined): Record<string, Omit<FieldPatchMeta, 'type'>> =>
  Object.fromEntries(
    Object.entries(meta ?? {})
      .map(([field, { strategy, mergeKey }]) => [field, { ...(strategy ? { strategy } : {}), ...(mergeKey ? { mergeKey } : {}) }] as const)
      .filter(([, m]) => Object.keys(m).length),
  );

/** Every field path below a type with the strategy and merge key a strategic merge uses there. */
function effective(table: Record<string, TypePatchMeta>, type: string, prefix = ''): Record<string, Omit<FieldPatchMeta, 'type'>> {
  const out: Record<string, Omit<FieldPatchMeta, 'type'>> = {};
  for (const [field, meta] of Object.entries(table[type] ?? {})) {
    const path = `${prefix}${type}.${field}`;
    if (NOT_IN_SCHEMA.includes(`${type}.${field}`)) continue;
    const own = tags({ [field]: meta })[field];
    if (own) out[path] = own;
    if (meta.type) Object.assign(out, effective(table, meta.type, `${path}/`));
  }
  return out;
}

describe('PATCH_META derived from the schema equals the hand-written table', () => {
  it.each(Object.keys(FROZEN))('%s: the same strategies and merge keys', (type) => {
    const frozen = tags(FROZEN[type]);
    for (const f of NOT_IN_SCHEMA) if (f.startsWith(`${type}.`)) delete frozen[f.slice(type.length + 1)];
    expect(tags(PATCH_META[type])).toEqual(frozen);
  });

  it.each(Object.keys(FROZEN))('%s: every path below merges as before', (type) => {
    // Paths name the type at each step; the derivation names EphemeralContainer
    // where the table said Container, with the same (upstream-shared) tags.
    const norm = (e: Record<string, unknown>) => JSON.parse(JSON.stringify(e).replaceAll('EphemeralContainer.', 'Container.')) as unknown;
    expect(norm(effective(PATCH_META as Record<string, TypePatchMeta>, type))).toEqual(norm(effective(FROZEN, type)));
  });

  it('types only the derivation lists hold nothing the table had not: EphemeralContainer has Container\'s tags; Binding and Eviction only link metadata', () => {
    expect(Object.keys(PATCH_META).filter((k) => !(k in FROZEN))).toEqual(['EphemeralContainer', 'Binding', 'Eviction']);
    expect(tags(PATCH_META.EphemeralContainer)).toEqual(tags(FROZEN.Container));
    expect(PATCH_META.Binding).toEqual({ metadata: { type: 'ObjectMeta' } });
    expect(PATCH_META.Eviction).toEqual({ metadata: { type: 'ObjectMeta' } });
  });
});
