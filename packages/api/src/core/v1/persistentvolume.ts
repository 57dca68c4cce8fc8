// core/v1 PersistentVolume and PersistentVolumeClaim (k8s.io/api/core/v1
// types.go): storage a cluster offers (PV, cluster-scoped) and a namespace's
// request for it (PVC), bound one to one by the PV controller.
import type { KubeObject, LabelSelector, ObjectMeta, Time } from '../../meta/types.js';
import type { ConditionStatus, HostPathVolumeSource, NodeSelector, ObjectReference, ResourceList } from './types.js';

export type PersistentVolumeAccessMode = 'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod';
export type PersistentVolumeReclaimPolicy = 'Retain' | 'Delete' | 'Recycle';
export type PersistentVolumeMode = 'Filesystem' | 'Block';
export type PersistentVolumePhase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';
export type PersistentVolumeClaimPhase = 'Pending' | 'Bound' | 'Lost';

export interface LocalVolumeSource {
  path: string;
  fsType?: string;
}

export interface VolumeNodeAffinity {
  required?: NodeSelector;
}

export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: PersistentVolumeAccessMode[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: PersistentVolumeReclaimPolicy;
  storageClassName?: string;
  mountOptions?: string[];
  volumeMode?: PersistentVolumeMode;
  nodeAffinity?: VolumeNodeAffinity;
  volumeAttributesClassName?: string;
  // PersistentVolumeSource, inline: the sources kubelab mounts are typed, the rest free-form.
  hostPath?: HostPathVolumeSource;
  local?: LocalVolumeSource;
  nfs?: unknown;
  csi?: unknown;
}

export interface PersistentVolumeStatus {
  phase?: PersistentVolumePhase;
  message?: string;
  reason?: string;
  lastPhaseTransitionTime?: Time;
}

export interface PersistentVolume extends KubeObject {
  metadata: ObjectMeta;
  spec?: PersistentVolumeSpec;
  status?: PersistentVolumeStatus;
}

export interface VolumeResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
}

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface TypedObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: PersistentVolumeAccessMode[];
  selector?: LabelSelector;
  resources?: VolumeResourceRequirements;
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: PersistentVolumeMode;
  dataSource?: TypedLocalObjectReference;
  dataSourceRef?: TypedObjectReference;
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeClaimCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface PersistentVolumeClaimStatus {
  phase?: PersistentVolumeClaimPhase;
  accessModes?: PersistentVolumeAccessMode[];
  capacity?: ResourceList;
  conditions?: PersistentVolumeClaimCondition[];
  allocatedResources?: ResourceList;
  allocatedResourceStatuses?: Record<string, string>;
  currentVolumeAttributesClassName?: string;
  modifyVolumeStatus?: unknown;
}

export interface PersistentVolumeClaim extends KubeObject {
  metadata: ObjectMeta;
  spec?: PersistentVolumeClaimSpec;
  status?: PersistentVolumeClaimStatus;
}

export interface TopologySelectorLabelRequirement {
  key: string;
  values: string[];
}

export interface TopologySelectorTerm {
  matchLabelExpressions?: TopologySelectorLabelRequirement[];
}
