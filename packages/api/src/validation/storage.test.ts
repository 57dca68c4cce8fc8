import { describe, expect, it } from 'vitest';
import type { KubeObject, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../index.js';
import { accessModesAsString, setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (obj: KubeObject, old?: KubeObject): string[] => validateObject(obj, old).map((e) => `${e.field}: ${fieldErrorMessage(e)}`);

function pvc(spec: PersistentVolumeClaim['spec'], status?: PersistentVolumeClaim['status']): PersistentVolumeClaim {
  const o: PersistentVolumeClaim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', resourceVersion: '1' }, spec };
  setDefaults(o);
  if (status) o.status = status;
  return o;
}
function pv(spec: PersistentVolume['spec']): PersistentVolume {
  const o: PersistentVolume = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1', resourceVersion: '1' }, spec };
  setDefaults(o);
  return o;
}
function sc(s: Partial<StorageClass>): StorageClass {
  const o = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard', resourceVersion: '1' }, provisioner: 'rancher.io/local-path', ...s } as StorageClass;
  setDefaults(o);
  return o;
}
const GOOD_CLAIM = { accessModes: ['ReadWriteOnce' as const], resources: { requests: { storage: '1Gi' } } };

describe('persistent storage defaulting', () => {
  it('claims and volumes start Pending in Filesystem mode; manual volumes Retain; classes Delete and Immediate', () => {
    const c = pvc(GOOD_CLAIM);
    expect(c.status?.phase).toBe('Pending');
    expect(c.spec?.volumeMode).toBe('Filesystem');
    const v = pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } });
    expect(v.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(v.status?.phase).toBe('Pending');
    const s = sc({});
    expect([s.reclaimPolicy, s.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
  });
});

describe('PersistentVolumeClaim validation (ValidatePersistentVolumeClaim)', () => {
  it.each([
    ['a good claim', GOOD_CLAIM, []],
    ['no access modes', { resources: { requests: { storage: '1Gi' } } }, ['spec.accessModes: Required value: at least 1 access mode is required']],
    ['no storage request', { accessModes: ['ReadWriteOnce'] }, ['spec.resources[storage]: Required value']],
    ['a zero request', { ...GOOD_CLAIM, resources: { requests: { storage: '0' } } }, ['spec.resources[storage]: Invalid value: "0": must be greater than zero']],
    [
      'an unknown mode',
      { ...GOOD_CLAIM, accessModes: ['ReadWriteSometimes'] },
      ['spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'],
    ],
  ] as [string, PersistentVolumeClaim['spec'], string[]][])('%s', (_, spec, want) => {
    expect(messages(pvc(spec))).toEqual(want);
  });

  it('spec is immutable except binding, and requests of a bound claim', () => {
    const old = pvc(GOOD_CLAIM);
    expect(messages(pvc({ ...GOOD_CLAIM, accessModes: ['ReadWriteMany'] }), old)).toEqual(['spec: Forbidden: spec is immutable after creation except resources.requests for bound claims']);
    expect(messages(pvc({ ...GOOD_CLAIM, volumeName: 'pv1' }), old)).toEqual([]);
    expect(messages(pvc({ ...GOOD_CLAIM, resources: { requests: { storage: '2Gi' } } }), old)).toHaveLength(1);
    const bound = pvc({ ...GOOD_CLAIM, volumeName: 'pv1' }, { phase: 'Bound' });
    expect(messages(pvc({ ...GOOD_CLAIM, volumeName: 'pv1', resources: { requests: { storage: '2Gi' } } }, { phase: 'Bound' }), bound)).toEqual([]);
    expect(messages(pvc({ ...GOOD_CLAIM, volumeName: 'pv2' }, { phase: 'Bound' }), bound)).toHaveLength(1);
  });
});

describe('PersistentVolume validation (ValidatePersistentVolume)', () => {
  it.each([
    ['a hostPath volume', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } }, []],
    ['no source', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }, ['spec: Required value: must specify a volume type']],
    ['no capacity', { accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } }, ['spec.capacity: Required value']],
    ['no access modes', { capacity: { storage: '1Gi' }, hostPath: { path: '/d' } }, ['spec.accessModes: Required value: must specify at least 1 access mode']],
    [
      'a local volume without affinity',
      { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/d' } },
      ['spec.nodeAffinity: Required value: Local volume requires node affinity'],
    ],
    [
      'two sources',
      { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' }, local: { path: '/d' }, nodeAffinity: { required: { nodeSelectorTerms: [{}] } } },
      ['spec.local: Forbidden: may not specify more than 1 volume type'],
    ],
  ] as [string, PersistentVolume['spec'], string[]][])('%s', (_, spec, want) => {
    expect(messages(pv(spec))).toEqual(want);
  });

  it('the source is fixed once created', () => {
    const old = pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } });
    expect(messages(pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/other' } }), old)).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is forbidden.',
    ]);
  });
});

describe('StorageClass validation (ValidateStorageClass)', () => {
  it('needs a provisioner and known policies; parameters, provisioner and reclaimPolicy are fixed', () => {
    expect(messages(sc({}))).toEqual([]);
    expect(messages(sc({ provisioner: '' }))).toEqual(['provisioner: Required value']);
    expect(messages(sc({ reclaimPolicy: 'Recycle' }))).toEqual(['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"']);
    expect(messages(sc({ provisioner: 'example.com/other', parameters: { a: 'b' } }), sc({}))).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
    ]);
    expect(messages(sc({ volumeBindingMode: 'WaitForFirstConsumer' }), sc({}))).toEqual(['volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable']);
  });
});

describe('accessModesAsString (GetAccessModesAsString)', () => {
  it('prints short names in a fixed order, once each', () => {
    expect(accessModesAsString(['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'])).toBe('RWO,RWX');
    expect(accessModesAsString(undefined)).toBe('');
  });
});
