import type { KubeObject, PersistentVolumeClaim, ResourceInfo } from '@kubelab/api';
import { lookupResource } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { defaultStorageClass, storageObjectInUseProtection } from './storage.js';
import type { AdmissionAttributes } from './types.js';

const sc = (name: string, isDefault: boolean, created = '2025-01-01T00:00:00Z'): KubeObject =>
  ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {} },
    provisioner: 'x.io/p',
  }) as KubeObject;

function create(resource: string, object: KubeObject): AdmissionAttributes {
  return {
    operation: 'CREATE',
    info: lookupResource('', 'v1', resource) as ResourceInfo,
    namespace: 'default',
    name: object.metadata.name!,
    object,
    ctx: {},
    dryRun: false,
    onRollback() {},
    onCommit() {},
  };
}
const claim = (spec: PersistentVolumeClaim['spec'] = {}): PersistentVolumeClaim => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec });

describe('DefaultStorageClass admission', () => {
  it.each([
    ['no class: the default', [sc('standard', true), sc('fast', false)], {}, 'standard'],
    ['two defaults: the newest', [sc('old', true, '2025-01-01T00:00:00Z'), sc('new', true, '2025-02-01T00:00:00Z')], {}, 'new'],
    ['no default class: none', [sc('fast', false)], {}, undefined],
    ['"" asks for no class', [sc('standard', true)], { storageClassName: '' }, ''],
    ['a named class stays', [sc('standard', true)], { storageClassName: 'fast' }, 'fast'],
  ] as [string, KubeObject[], PersistentVolumeClaim['spec'], string | undefined][])('%s', (_, classes, spec, want) => {
    const pvc = claim(spec);
    void defaultStorageClass(() => classes).admit!(create('persistentvolumeclaims', pvc));
    expect(pvc.spec?.storageClassName).toBe(want);
  });
});

describe('StorageObjectInUseProtection admission', () => {
  it('claims get kubernetes.io/pvc-protection, volumes kubernetes.io/pv-protection, once', () => {
    const plugin = storageObjectInUseProtection();
    const pvc = claim();
    void plugin.admit!(create('persistentvolumeclaims', pvc));
    void plugin.admit!(create('persistentvolumeclaims', pvc));
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' } } as KubeObject;
    void plugin.admit!(create('persistentvolumes', pv));
    expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
  });
});
