// Defaulting of persistent storage (pkg/apis/core/v1 and storage/v1
// defaults.go: SetDefaults_PersistentVolume, _PersistentVolumeClaim(Spec),
// SetDefaults_StorageClass).
import type { StorageClass } from '../../storage/v1/types.js';
import type { PersistentVolume, PersistentVolumeClaim } from './persistentvolume.js';

/** A manually created volume keeps its data: Retain; it starts Pending, in Filesystem mode. */
export function defaultPersistentVolume(pv: PersistentVolume): void {
  pv.spec ??= {};
  pv.spec.persistentVolumeReclaimPolicy ||= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
  if (pv.spec.hostPath && pv.spec.hostPath.type === undefined) pv.spec.hostPath.type = '';
  pv.status ??= {};
  pv.status.phase ||= 'Pending';
}

export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  pvc.spec ??= {};
  pvc.spec.volumeMode ??= 'Filesystem';
  pvc.status ??= {};
  pvc.status.phase ||= 'Pending';
}

/** A class deletes the volumes it provisions and binds them at once unless it says otherwise. */
export function defaultStorageClass(sc: StorageClass): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}
