// Storage admission plugins (upstream plugin/pkg/admission/storage):
// DefaultStorageClass gives a claim without a class the default one, and
// StorageObjectInUseProtection puts the protection finalizers on claims and
// volumes, which the pvc-protection and pv-protection controllers remove
// once nothing uses them.

import { ANN_BETA_STORAGE_CLASS, isDefaultStorageClass, PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER, type KubeObject, type PersistentVolumeClaim, type StorageClass } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const isCoreCreate = (a: AdmissionAttributes, resource: string) => a.operation === 'CREATE' && a.info.group === '' && a.info.resource === resource && !a.subresource && !!a.object;

/** GetDefaultClass: of the classes marked default, the newest (then the name) wins; none: undefined. */
export function newestDefault<T extends KubeObject>(classes: readonly T[], isDefault: (c: T) => boolean): T | undefined {
  const defaults = classes.filter(isDefault);
  defaults.sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') || a.metadata.name!.localeCompare(b.metadata.name!));
  return defaults[0];
}

export const defaultClass = (classes: readonly StorageClass[]): StorageClass | undefined => newestDefault(classes, (c) => isDefaultStorageClass(c.metadata));

export function defaultStorageClass(listClasses: () => readonly KubeObject[]): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    admit(a) {
      if (!isCoreCreate(a, 'persistentvolumeclaims')) return;
      const pvc = a.object as PersistentVolumeClaim;
      // A class was asked for (even "" meaning none): leave it.
      if (pvc.spec?.storageClassName !== undefined || pvc.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined) return;
      const def = defaultClass(listClasses() as StorageClass[]);
      if (def) pvc.spec = { ...(pvc.spec ?? {}), storageClassName: def.metadata.name! };
    },
  };
}

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    admit(a) {
      const finalizer = isCoreCreate(a, 'persistentvolumeclaims') ? PVC_PROTECTION_FINALIZER : isCoreCreate(a, 'persistentvolumes') ? PV_PROTECTION_FINALIZER : undefined;
      if (!finalizer) return;
      const m = a.object!.metadata;
      if (!m.finalizers?.includes(finalizer)) m.finalizers = [...(m.finalizers ?? []), finalizer];
    },
  };
}
