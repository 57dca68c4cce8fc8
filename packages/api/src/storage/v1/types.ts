// storage.k8s.io/v1 StorageClass (k8s.io/api/storage/v1 types.go): a kind of
// storage, the provisioner that makes its volumes and how they bind.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';
import type { PersistentVolumeReclaimPolicy, TopologySelectorTerm } from '../../core/v1/persistentvolume.js';

export type VolumeBindingMode = 'Immediate' | 'WaitForFirstConsumer';

export interface StorageClass extends KubeObject {
  metadata: ObjectMeta;
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: PersistentVolumeReclaimPolicy;
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: VolumeBindingMode;
  allowedTopologies?: TopologySelectorTerm[];
}

/** The annotation that makes a class the default for claims without storageClassName (DefaultStorageClass admission). */
export const ANNOTATION_IS_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const STORAGE_GROUP = 'storage.k8s.io';
