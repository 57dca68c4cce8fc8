// Rows of persistent storage (upstream printPersistentVolume,
// printPersistentVolumeClaim, printStorageClass): a volume's size, modes and
// claim; a claim's phase and the volume bound to it; a class's provisioner,
// with `(default)` after the default class's name.

import { accessModesAsString, isDefaultStorageClass, Quantity, type PersistentVolume, type PersistentVolumeClaim, type StorageClass } from '@kubelab/api';
import { claimClass, volumeClass } from '@kubelab/api';
import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

/** A quantity as Go's Quantity.String() prints it; a zero Quantity when absent. */
const quantity = (v: unknown): string => (typeof v === 'string' ? (Quantity.tryParse(v)?.toString() ?? v) : '0');

export const persistentVolumePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity."),
    col('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
    col('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.'),
    col('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    col('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.'),
    col('StorageClass', 'string', 'StorageClass of the pv'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    col('Reason', 'string', 'reason is a brief CamelCase string that describes any failure.'),
    AGE_COLUMN,
    col('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.', 1),
  ],
  cells(o: Obj, now) {
    const pv = o as PersistentVolume;
    const spec = pv.spec ?? {};
    const claim = spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : '';
    const phase = pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? '');
    return [
      pv.metadata.name,
      quantity(spec.capacity?.storage),
      accessModesAsString(spec.accessModes),
      spec.persistentVolumeReclaimPolicy ?? '',
      phase,
      claim,
      volumeClass(pv),
      spec.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      since(pv.metadata.creationTimestamp, now),
      spec.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    col('Access Modes', 'string', 'accessModes contains the desired access modes the volume should have.'),
    col('StorageClass', 'string', 'StorageClass of the pvc'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE_COLUMN,
    col('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim.', 1),
  ],
  cells(o: Obj, now) {
    const pvc = o as PersistentVolumeClaim;
    const spec = pvc.spec ?? {};
    const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '');
    // Capacity and modes are the bound volume's: shown once the claim names one.
    const bound = !!spec.volumeName;
    return [
      pvc.metadata.name,
      phase,
      spec.volumeName ?? '',
      bound ? quantity(pvc.status?.capacity?.storage) : '',
      bound ? accessModesAsString(pvc.status?.accessModes) : '',
      claimClass(pvc),
      spec.volumeAttributesClassName ?? '<unset>',
      since(pvc.metadata.creationTimestamp, now),
      spec.volumeMode ?? '<unset>',
    ];
  },
};

export const storageClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Provisioner', 'string', 'Indicates the type of the provisioner.'),
    col('ReclaimPolicy', 'string', 'Indicates the type of the reclaim policy.'),
    col('VolumeBindingMode', 'string', 'Indicates how PersistentVolumeClaims should be bound.'),
    col('AllowVolumeExpansion', 'string', 'Indicates whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
  cells(o: Obj, now) {
    const sc = o as StorageClass;
    const name = isDefaultStorageClass(sc.metadata) ? `${sc.metadata.name} (default)` : sc.metadata.name;
    return [name, sc.provisioner, sc.reclaimPolicy ?? 'Delete', sc.volumeBindingMode ?? 'Immediate', sc.allowVolumeExpansion ?? false, since(sc.metadata.creationTimestamp, now)];
  },
};
