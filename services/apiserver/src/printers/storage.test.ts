import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const created = new Date(now.getTime() - 90_000).toISOString();
const cells = (kind: string, obj: Record<string, unknown>) => printTable(kind, [obj], { now }).rows[0]!.cells;
const headers = (kind: string) =>
  printTable(kind, [], { now })
    .columnDefinitions.map((c) => (c.priority ? `(${c.name})` : c.name))
    .join(' | ');

describe('persistent storage rows (kubectl get pv, pvc, sc)', () => {
  it('columns as upstream printers.go', () => {
    expect(headers('PersistentVolume')).toBe('Name | Capacity | Access Modes | Reclaim Policy | Status | Claim | StorageClass | VolumeAttributesClass | Reason | Age | (VolumeMode)');
    expect(headers('PersistentVolumeClaim')).toBe('Name | Status | Volume | Capacity | Access Modes | StorageClass | VolumeAttributesClass | Age | (VolumeMode)');
    expect(headers('StorageClass')).toBe('Name | Provisioner | ReclaimPolicy | VolumeBindingMode | AllowVolumeExpansion | Age');
  });

  it('a bound volume names its claim; a deleted one is Terminating', () => {
    const pv = {
      kind: 'PersistentVolume',
      metadata: { name: 'pvc-1', creationTimestamp: created },
      spec: {
        capacity: { storage: '1024Mi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: 'standard',
        claimRef: { namespace: 'default', name: 'data' },
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    };
    expect(cells('PersistentVolume', pv)).toEqual(['pvc-1', '1Gi', 'RWO,RWX', 'Delete', 'Bound', 'default/data', 'standard', '<unset>', '', '90s', 'Filesystem']);
    expect(cells('PersistentVolume', { ...pv, metadata: { ...pv.metadata, deletionTimestamp: created } })[4]).toBe('Terminating');
  });

  it("a claim shows capacity and modes only once bound, from the volume's status", () => {
    const pending = {
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', creationTimestamp: created },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' },
      status: { phase: 'Pending' },
    };
    expect(cells('PersistentVolumeClaim', pending)).toEqual(['data', 'Pending', '', '', '', 'standard', '<unset>', '90s', '<unset>']);
    const bound = { ...pending, spec: { ...pending.spec, volumeName: 'pvc-1' }, status: { phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'] } };
    expect(cells('PersistentVolumeClaim', bound).slice(0, 5)).toEqual(['data', 'Bound', 'pvc-1', '2Gi', 'RWO']);
  });

  it('the default class is marked after its name', () => {
    const sc = {
      kind: 'StorageClass',
      metadata: { name: 'standard', creationTimestamp: created, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    };
    expect(cells('StorageClass', sc)).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '90s']);
  });
});
