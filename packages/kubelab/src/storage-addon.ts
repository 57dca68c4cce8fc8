// kind's default storage: the `standard` StorageClass, default for claims
// without a class, served by rancher.io/local-path (kubelab runs that
// provisioner in the controller-manager: docs/architecture.md). kind
// installs it with the cluster; here kubeadm's addons phase creates it once.

import { ANNOTATION_IS_DEFAULT_CLASS, type StorageClass } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { createUnlessPresent } from './create-once.js';

export function standardStorageClass(): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { [ANNOTATION_IS_DEFAULT_CLASS]: 'true' } },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

export async function applyStorageAddon(cs: Clientset, log: (line: string) => void = () => {}): Promise<void> {
  await createUnlessPresent(() => cs.storage.storageClasses().create(standardStorageClass()));
  log('[addons] Applied addon: local-path storage (default StorageClass standard, provisioner rancher.io/local-path)');
}
