import { describe, expect, it } from 'vitest';
import { PATCH_META, fieldPatchMeta, type FieldPatchMeta } from './meta.js';

// PATCH_META is derived from the schema's patchStrategy/patchMergeKey
// options; these are the entries the strategic merge patch depends on.
const CASES: [what: string, type: string, field: string, want: FieldPatchMeta | undefined][] = [
  ['containers merge by name and lead to Container', 'PodSpec', 'containers', { type: 'Container', strategy: 'merge', mergeKey: 'name' }],
  ['init containers too', 'PodSpec', 'initContainers', { type: 'Container', strategy: 'merge', mergeKey: 'name' }],
  ['ephemeral containers lead to their own type', 'PodSpec', 'ephemeralContainers', { type: 'EphemeralContainer', strategy: 'merge', mergeKey: 'name' }],
  ['an ephemeral container has the container tags', 'EphemeralContainer', 'env', { strategy: 'merge', mergeKey: 'name' }],
  ['volumes merge by name and retain the patched source only', 'PodSpec', 'volumes', { strategy: 'merge,retainKeys', mergeKey: 'name' }],
  ['container ports merge by containerPort', 'Container', 'ports', { strategy: 'merge', mergeKey: 'containerPort' }],
  ['volume mounts merge by mountPath', 'Container', 'volumeMounts', { strategy: 'merge', mergeKey: 'mountPath' }],
  ['service ports merge by port', 'ServiceSpec', 'ports', { strategy: 'merge', mergeKey: 'port' }],
  ['owner references merge by uid', 'ObjectMeta', 'ownerReferences', { strategy: 'merge', mergeKey: 'uid' }],
  ['finalizers merge as a set', 'ObjectMeta', 'finalizers', { strategy: 'merge' }],
  ['podCIDRs merge as a set', 'NodeSpec', 'podCIDRs', { strategy: 'merge' }],
  ['node addresses merge by type', 'NodeStatus', 'addresses', { strategy: 'merge', mergeKey: 'type' }],
  ['a free-form field can carry tags', 'PodStatus', 'resourceClaimStatuses', { strategy: 'merge,retainKeys', mergeKey: 'name' }],
  ['a deployment strategy keeps only the patched keys', 'DeploymentSpec', 'strategy', { strategy: 'retainKeys' }],
  ['metadata leads to ObjectMeta', 'Deployment', 'metadata', { type: 'ObjectMeta' }],
  ['a template leads to PodTemplateSpec', 'DaemonSetSpec', 'template', { type: 'PodTemplateSpec' }],
  ['a scale has only its metadata', 'Scale', 'spec', undefined],
  ['a list without tags is replaced whole', 'PodSpec', 'tolerations', undefined],
  ['a struct with nothing merged below is not named', 'DeploymentSpec', 'selector', undefined],
  ['an unknown type has none', 'NoSuchKind', 'spec', undefined],
];

describe('PATCH_META, derived from the schema', () => {
  it.each(CASES)('%s (%s.%s)', (_what, type, field, want) => {
    expect(fieldPatchMeta(type, field)).toEqual(want);
  });

  it('lists the kinds the patch code looks up, and no type without metadata', () => {
    for (const kind of [
      'Pod',
      'Node',
      'Namespace',
      'Service',
      'ServiceAccount',
      'Endpoints',
      'ConfigMap',
      'Secret',
      'Event',
      'EndpointSlice',
      'Lease',
      'Deployment',
      'ReplicaSet',
      'DaemonSet',
      'Scale',
    ]) {
      expect(PATCH_META).toHaveProperty(kind);
    }
    for (const type of ['LabelSelector', 'Volume', 'Probe', 'NamespaceSpec']) expect(PATCH_META).not.toHaveProperty(type);
  });
});
