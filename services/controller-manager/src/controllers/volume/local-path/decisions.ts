// What rancher/local-path-provisioner does, as pure functions: the volume it
// makes for a claim (a directory of the selected node, named after the
// claim), and the helper pod that removes that directory when the volume
// is deleted.

import { ANN_DYNAMICALLY_PROVISIONED, ANN_SELECTED_NODE, type PersistentVolume, type PersistentVolumeClaim, type Pod, type StorageClass } from '@kubelab/api';

export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
/** Where volumes live on each node (the provisioner's default nodePathMap). */
export const LOCAL_PATH_ROOT = '/var/local-path-provisioner';
/** The provisioner's own annotation of the node a volume was made on. */
export const ANN_LOCAL_PATH_SELECTED_NODE = 'local.path.provisioner/selected-node';
export const HELPER_IMAGE = 'busybox:1.37';
export const HELPER_NAMESPACE = 'kube-system';

/** pvc-<uid>: the name external provisioners give a claim's volume. */
export const volumeNameFor = (claim: PersistentVolumeClaim): string => `pvc-${claim.metadata.uid}`;

/** The directory: <root>/<pv>_<namespace>_<claim>. */
export const volumeDirFor = (claim: PersistentVolumeClaim): string => `${LOCAL_PATH_ROOT}/${volumeNameFor(claim)}_${claim.metadata.namespace}_${claim.metadata.name}`;

export type ProvisionDecision = { kind: 'skip' } | { kind: 'fail'; message: string } | { kind: 'create'; volume: PersistentVolume };

/** Provision: a hostPath volume on the selected node, sized and moded as asked, with the class's reclaim policy. */
export function provision(claim: PersistentVolumeClaim, sc: StorageClass | undefined, existing: (name: string) => PersistentVolume | undefined): ProvisionDecision {
  if (claim.spec?.volumeName || claim.metadata.deletionTimestamp || existing(volumeNameFor(claim))) return { kind: 'skip' };
  const cls = claim.spec?.storageClassName ?? '';
  if (!sc) return { kind: 'fail', message: `failed to provision volume with StorageClass "${cls}": storageclass.storage.k8s.io "${cls}" not found` };
  const node = claim.metadata.annotations?.[ANN_SELECTED_NODE];
  if (!node) return { kind: 'fail', message: `failed to provision volume with StorageClass "${cls}": configuration error, no node was specified` };
  if (claim.spec?.volumeMode === 'Block') return { kind: 'fail', message: `failed to provision volume with StorageClass "${cls}": Only support volumeMode Filesystem` };
  const name = volumeNameFor(claim);
  const volume: PersistentVolume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, annotations: { [ANN_DYNAMICALLY_PROVISIONED]: LOCAL_PATH_PROVISIONER, [ANN_LOCAL_PATH_SELECTED_NODE]: node } },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
      accessModes: claim.spec?.accessModes ?? [],
      claimRef: {
        kind: 'PersistentVolumeClaim',
        apiVersion: 'v1',
        namespace: claim.metadata.namespace!,
        name: claim.metadata.name!,
        uid: claim.metadata.uid!,
        resourceVersion: claim.metadata.resourceVersion!,
      },
      persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
      storageClassName: cls,
      volumeMode: 'Filesystem',
      hostPath: { path: volumeDirFor(claim), type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
    },
  };
  return { kind: 'create', volume };
}

/** A volume of this provisioner, released, to be deleted (reclaimPolicy Delete). */
export function isToDelete(v: PersistentVolume): boolean {
  return (
    v.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] === LOCAL_PATH_PROVISIONER &&
    v.spec?.persistentVolumeReclaimPolicy === 'Delete' &&
    v.status?.phase === 'Released' &&
    !v.metadata.deletionTimestamp
  );
}

/** The node a volume was made on: its annotation, else its node affinity's single hostname. */
export function nodeOf(v: PersistentVolume): string | undefined {
  return (
    v.metadata.annotations?.[ANN_LOCAL_PATH_SELECTED_NODE] ?? v.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.find((e) => e.key === 'kubernetes.io/hostname')?.values?.[0]
  );
}

export const helperPodName = (v: PersistentVolume): string => `helper-pod-delete-${v.metadata.name}`;

/** The helper pod that removes the volume's directory on its node (the provisioner's teardown script). */
export function deleteHelperPod(v: PersistentVolume, node: string): Pod {
  const path = v.spec?.hostPath?.path ?? v.spec?.local?.path ?? '';
  const parent = path.slice(0, path.lastIndexOf('/')) || '/';
  const dir = path.slice(path.lastIndexOf('/') + 1);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: helperPodName(v), namespace: HELPER_NAMESPACE, labels: { app: 'local-path-provisioner-helper' } },
    spec: {
      nodeName: node,
      restartPolicy: 'Never',
      tolerations: [{ operator: 'Exists' }],
      containers: [{ name: 'helper-pod', image: HELPER_IMAGE, command: ['/bin/sh', '-c', `rm -rf /data/${dir}`], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      volumes: [{ name: 'data', hostPath: { path: parent, type: 'DirectoryOrCreate' } }],
    },
  };
}
