// Creates and deletes the mirror pods of static pods in the API (upstream
// pkg/kubelet/pod/mirror_client.go). Which mirror pod is current is the pod
// manager's business; this only talks to the apiserver.

import { isAlreadyExists, isNotFound, type Pod } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import { ANNOTATION_CONFIG_HASH, ANNOTATION_CONFIG_MIRROR, mirrorPodFor } from '../config/file.js';
import { fullName } from './pod-manager.js';

/** Whether the mirror pod still stands for this version of the static pod (same config hash, not being deleted). */
export function mirrorIsCurrent(staticPod: Pod, mirror: Pod): boolean {
  return mirror.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR] === staticPod.metadata.annotations?.[ANNOTATION_CONFIG_HASH] && !mirror.metadata.deletionTimestamp;
}

export class MirrorClient {
  constructor(
    private readonly cs: Clientset,
    private readonly log: Logger,
  ) {}

  /** Creates the static pod's mirror owned by the node; undefined when it already exists or the create failed (logged). */
  async create(staticPod: Pod, node: { name: string; uid: string }): Promise<Pod | undefined> {
    try {
      return await this.cs.core.pods(staticPod.metadata.namespace).create(mirrorPodFor(staticPod, node));
    } catch (err) {
      if (!isAlreadyExists(err)) this.log.warn('Failed creating a mirror pod', { pod: fullName(staticPod), err });
      return undefined;
    }
  }

  /** Deletes exactly this mirror pod (UID precondition, no grace); `quiet`: failures are not logged. */
  async delete(mirror: Pod, quiet = false): Promise<void> {
    try {
      await this.cs.core.pods(mirror.metadata.namespace).delete(mirror.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: mirror.metadata.uid } });
    } catch (err) {
      if (!quiet && !isNotFound(err)) this.log.warn('Failed deleting a mirror pod', { pod: fullName(mirror), err });
    }
  }
}
