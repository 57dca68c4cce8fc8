// Helpers over persistent storage objects shared by the apiserver, the PV
// controller, the scheduler and the kubelet (upstream: pkg/apis/core/helper
// and storage/util, pkg/controller/volume/persistentvolume/util).
import type { PersistentVolume, PersistentVolumeAccessMode, PersistentVolumeClaim } from '../../core/v1/persistentvolume.js';
import type { ObjectMeta } from '../../meta/types.js';
import { ANNOTATION_IS_DEFAULT_CLASS } from './types.js';

/** The PV controller marks a claim and a volume whose binding it finished / made. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** The scheduler's choice of node for a WaitForFirstConsumer claim. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** The provisioner asked to make a volume for a claim (and its beta twin). */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** The provisioner that made a volume. */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** The class before spec.storageClassName existed; still wins when set. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** Finalizers of the storage object in use protection controllers. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

const SHORT_MODES: [PersistentVolumeAccessMode, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: RWO,ROX,RWX,RWOP in that order, each once. */
export function accessModesAsString(modes: readonly string[] | undefined): string {
  return SHORT_MODES.filter(([m]) => modes?.includes(m))
    .map(([, s]) => s)
    .join(',');
}

/** IsDefaultAnnotation: the class is the default one. */
export function isDefaultStorageClass(meta: Pick<ObjectMeta, 'annotations'> | undefined): boolean {
  return meta?.annotations?.[ANNOTATION_IS_DEFAULT_CLASS] === 'true';
}

/** GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName, else "". */
export function claimClass(pvc: PersistentVolumeClaim): string {
  return pvc.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] ?? pvc.spec?.storageClassName ?? '';
}

/** GetPersistentVolumeClass: the beta annotation, else spec.storageClassName, else "". */
export function volumeClass(pv: PersistentVolume): string {
  return pv.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] ?? pv.spec?.storageClassName ?? '';
}
