// The schema of persistent storage: core/v1 PersistentVolume and
// PersistentVolumeClaim, storage.k8s.io/v1 StorageClass (k8s.io/api core/v1
// and storage/v1 types.go). Sent as JSON by kubectl, so not a protobuf kind;
// the numbers are generated.proto's (protobuf-numbers.ts).

import { top, type TypeDef } from './definition.js';

export const STORAGE_TYPES: Record<string, TypeDef> = {
  PersistentVolume: {
    group: 'core',
    description: 'A PersistentVolume (PV) is a piece of storage in the cluster, provisioned by an administrator or dynamically by a StorageClass; a claim binds it.',
    fields: top({
      spec: ['PersistentVolumeSpec', 'The volume: its capacity, access modes, source and the claim bound to it.'],
      status: ['PersistentVolumeStatus', 'The phase of the volume; set by the PV controller.'],
    }),
  },
  PersistentVolumeSpec: {
    group: 'core',
    description: 'The attributes of a persistent volume, with exactly one source (PersistentVolumeSource, inline).',
    fields: {
      capacity: ['map[string]Quantity', 'The volume\'s resources; "storage" is its size.'],
      accessModes: ['[]string', 'How the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod.', { listType: 'atomic' }],
      claimRef: ['ObjectReference', 'The claim bound to this volume (set by the PV controller, or by an administrator to reserve it).'],
      persistentVolumeReclaimPolicy: ['string', 'What happens when the claim is released: Retain (default for manual volumes), Delete (default for dynamic ones) or Recycle.'],
      storageClassName: ['string', 'The StorageClass this volume belongs to; empty: no class.'],
      mountOptions: ['[]string', 'Mount options, not validated.', { listType: 'atomic' }],
      volumeMode: ['string', 'Filesystem (default) or Block.'],
      nodeAffinity: ['VolumeNodeAffinity', 'The nodes this volume can be reached from; pods using it are scheduled there.'],
      volumeAttributesClassName: ['string', 'The VolumeAttributesClass this volume belongs to.'],
      hostPath: ['HostPathVolumeSource', 'A directory of the node (single-node testing only).'],
      local: ['LocalVolumeSource', 'A local disk or directory of one node (with nodeAffinity).'],
      nfs: ['object', 'An NFS export.'],
      csi: ['object', 'A volume of an external CSI driver.'],
    },
  },
  LocalVolumeSource: {
    group: 'core',
    description: 'A directly attached disk or directory.',
    fields: { path: ['string', 'The full path on the node.', { required: true }], fsType: ['string', 'The filesystem type, for a block device.'] },
  },
  VolumeNodeAffinity: {
    group: 'core',
    description: 'The nodes a volume can be accessed from.',
    fields: { required: ['NodeSelector', 'The hard node constraints.'] },
  },
  PersistentVolumeStatus: {
    group: 'core',
    description: 'The current state of a persistent volume.',
    fields: {
      phase: ['string', 'Pending, Available, Bound, Released or Failed.'],
      message: ['string', 'Why the volume is in this state.'],
      reason: ['string', 'A brief CamelCase reason for a failure.'],
      lastPhaseTransitionTime: ['Time', 'When the volume last changed phase.'],
    },
  },
  PersistentVolumeClaim: {
    group: 'core',
    description: "A PersistentVolumeClaim (PVC) is a user's request for storage; it binds to one PersistentVolume.",
    fields: top({
      spec: ['PersistentVolumeClaimSpec', 'The storage requested.'],
      status: ['PersistentVolumeClaimStatus', 'The phase of the claim and the storage bound; set by the PV controller.'],
    }),
  },
  PersistentVolumeClaimSpec: {
    group: 'core',
    description: 'The storage a claim asks for.',
    fields: {
      accessModes: ['[]string', 'The access modes the volume must have.', { listType: 'atomic' }],
      selector: ['LabelSelector', 'A label query over volumes to bind to.'],
      resources: ['VolumeResourceRequirements', 'The minimum resources the volume must have: requests.storage is the size.'],
      volumeName: ['string', 'The PersistentVolume bound to this claim.'],
      storageClassName: ['string', 'The StorageClass required; unset: the default class; "": no class.'],
      volumeMode: ['string', 'Filesystem (default) or Block.'],
      dataSource: ['TypedLocalObjectReference', 'An object to populate the volume from.'],
      dataSourceRef: ['TypedObjectReference', 'An object to populate the volume from, possibly in another namespace.'],
      volumeAttributesClassName: ['string', 'The VolumeAttributesClass of the claim.'],
    },
  },
  VolumeResourceRequirements: {
    group: 'core',
    description: 'The resources a volume needs.',
    fields: { limits: ['map[string]Quantity', 'The maximum allowed.'], requests: ['map[string]Quantity', 'The minimum required; "storage" is the size.'] },
  },
  TypedLocalObjectReference: {
    group: 'core',
    structType: 'atomic',
    description: 'A typed reference to an object in the same namespace.',
    fields: { apiGroup: ['string', 'The group of the kind; empty: core.'], kind: ['string', 'The kind.', { required: true }], name: ['string', 'The name.', { required: true }] },
  },
  TypedObjectReference: {
    group: 'core',
    description: 'A typed reference to an object.',
    fields: {
      apiGroup: ['string', 'The group of the kind; empty: core.'],
      kind: ['string', 'The kind.', { required: true }],
      name: ['string', 'The name.', { required: true }],
      namespace: ['string', 'The namespace.'],
    },
  },
  PersistentVolumeClaimStatus: {
    group: 'core',
    description: 'The current state of a claim.',
    fields: {
      phase: ['string', 'Pending, Bound or Lost.'],
      accessModes: ['[]string', 'The access modes of the bound volume.', { listType: 'atomic' }],
      capacity: ['map[string]Quantity', 'The resources of the bound volume.'],
      conditions: ['[]PersistentVolumeClaimCondition', 'Conditions of the claim (resizing).', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }],
      allocatedResources: ['map[string]Quantity', 'The resources allocated by a resize.'],
      allocatedResourceStatuses: ['map[string]string', 'The state of a resize per resource.'],
      currentVolumeAttributesClassName: ['string', 'The VolumeAttributesClass in effect.'],
      modifyVolumeStatus: ['object', 'The state of a volume modification.'],
    },
  },
  PersistentVolumeClaimCondition: {
    group: 'core',
    description: 'A condition of a claim.',
    fields: {
      type: ['string', 'Resizing, FileSystemResizePending, ...', { required: true }],
      status: ['string', 'True, False or Unknown.', { required: true }],
      lastProbeTime: ['Time', 'When the condition was last probed.'],
      lastTransitionTime: ['Time', 'When the condition last changed status.'],
      reason: ['string', 'A brief CamelCase reason.'],
      message: ['string', 'A human-readable message.'],
    },
  },
  StorageClass: {
    group: 'storage',
    description: 'A StorageClass names a kind of storage: the provisioner that makes its volumes, their reclaim policy and when they bind.',
    fields: top({
      provisioner: ['string', 'The volume plugin or external provisioner, e.g. rancher.io/local-path.', { required: true }],
      parameters: ['map[string]string', "The provisioner's parameters."],
      reclaimPolicy: ['string', 'The reclaim policy of the volumes it provisions: Delete (default) or Retain.'],
      mountOptions: ['[]string', 'Mount options of the volumes it provisions.', { listType: 'atomic' }],
      allowVolumeExpansion: ['boolean', 'Whether claims of this class may grow.'],
      volumeBindingMode: ['string', 'Immediate (default) or WaitForFirstConsumer: bind once a pod using the claim is scheduled.'],
      allowedTopologies: ['[]TopologySelectorTerm', 'Where volumes may be provisioned.', { listType: 'atomic' }],
    }),
  },
  TopologySelectorTerm: {
    group: 'core',
    structType: 'atomic',
    description: 'A topology term: its requirements are ANDed.',
    fields: { matchLabelExpressions: ['[]TopologySelectorLabelRequirement', 'Label requirements.', { listType: 'atomic' }] },
  },
  TopologySelectorLabelRequirement: {
    group: 'core',
    description: 'A label key and the values it may take.',
    fields: { key: ['string', 'The label key.', { required: true }], values: ['[]string', 'The values; one must match.', { required: true, listType: 'atomic' }] },
  },
};
