// The PV controller's decisions (pkg/controller/volume/persistentvolume
// pv_controller.go syncUnboundClaim, syncBoundClaim, syncVolume), as pure
// functions of a claim or a volume and the caches: what to do, never doing it.

import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  claimClass,
  findMatchingVolume,
  isVolumeBoundToClaim,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '@kubelab/api';

/** An event about the object being synced (reason and message as upstream's). */
export interface Ev {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export type ClaimAction =
  /** Bind the claim and this volume (both sides, then both statuses). */
  | { kind: 'bind'; volume: PersistentVolume }
  /** Stay Pending, with an event saying why. */
  | { kind: 'pending'; event?: Ev }
  /** Ask the class's provisioner for a volume (annotate the claim), then wait. */
  | { kind: 'provision'; provisioner: string; event: Ev }
  /** The bound volume is gone or taken: Lost. */
  | { kind: 'lost'; event: Ev };

export const MSG_WAIT_FOR_FIRST_CONSUMER = 'waiting for first consumer to be created before binding';
export const MSG_NO_CLASS = 'no persistent volumes available for this claim and no storage class is set';

/** ExternalProvisioning's message (upstream provisionClaimOperationExternal). */
export const externalProvisioningMessage = (provisioner: string): string =>
  `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`;

const hasAnn = (o: { metadata: { annotations?: Record<string, string> } }, k: string) => o.metadata.annotations?.[k] !== undefined;

/** IsDelayBindingMode: the claim's class binds once a pod is scheduled. */
export function isDelayBinding(claim: PersistentVolumeClaim, classes: (name: string) => StorageClass | undefined): boolean {
  const name = claimClass(claim);
  return name !== '' && classes(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** syncClaim: what a claim needs, given the volumes and classes in the caches. */
export function claimAction(claim: PersistentVolumeClaim, volumes: readonly PersistentVolume[], classes: (name: string) => StorageClass | undefined): ClaimAction {
  const volumeName = claim.spec?.volumeName ?? '';
  const byName = (n: string) => volumes.find((v) => v.metadata.name === n);
  if (hasAnn(claim, ANN_BIND_COMPLETED)) {
    // syncBoundClaim
    if (!volumeName) return { kind: 'lost', event: { type: 'Warning', reason: 'ClaimLost', message: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!' } };
    const v = byName(volumeName);
    if (!v) return { kind: 'lost', event: { type: 'Warning', reason: 'ClaimLost', message: 'Bound claim has lost its PersistentVolume. Data on the volume is lost!' } };
    if (!v.spec?.claimRef || isVolumeBoundToClaim(v, claim)) return { kind: 'bind', volume: v };
    return { kind: 'lost', event: { type: 'Warning', reason: 'ClaimMisbound', message: 'Two claims are bound to the same volume, this one is bound incorrectly' } };
  }
  if (volumeName) {
    // A claim that names its volume (pre-bound by the user).
    const v = byName(volumeName);
    if (!v) return { kind: 'pending', event: { type: 'Normal', reason: 'FailedBinding', message: `volume "${volumeName}" not found` } };
    if (!v.spec?.claimRef || isVolumeBoundToClaim(v, claim)) return { kind: 'bind', volume: v };
    return { kind: 'pending', event: { type: 'Warning', reason: 'FailedBinding', message: `volume "${volumeName}" already bound to a different claim.` } };
  }
  const delay = isDelayBinding(claim, classes);
  const match = findMatchingVolume(claim, volumes, undefined, new Set(), delay);
  if (match) return { kind: 'bind', volume: match };
  if (delay && !hasAnn(claim, ANN_SELECTED_NODE)) return { kind: 'pending', event: { type: 'Normal', reason: 'WaitForFirstConsumer', message: MSG_WAIT_FOR_FIRST_CONSUMER } };
  const cls = claimClass(claim);
  if (!cls) return { kind: 'pending', event: { type: 'Normal', reason: 'FailedBinding', message: MSG_NO_CLASS } };
  const sc = classes(cls);
  if (!sc) return { kind: 'pending', event: { type: 'Warning', reason: 'ProvisioningFailed', message: `storageclass.storage.k8s.io "${cls}" not found` } };
  return { kind: 'provision', provisioner: sc.provisioner, event: { type: 'Normal', reason: 'ExternalProvisioning', message: externalProvisioningMessage(sc.provisioner) } };
}

export type VolumeAction =
  | { kind: 'phase'; phase: 'Available' | 'Bound' }
  /** The claim went away: Released, then the reclaim policy. */
  | { kind: 'released'; reclaim: 'retain' | 'external-delete' | 'failed'; event?: Ev }
  /** The claim is being bound to it: let the claim's sync finish. */
  | { kind: 'sync-claim' }
  /** Bound by the controller to a claim that took another volume: free it. */
  | { kind: 'unbind' }
  | { kind: 'none' };

/** syncVolume: what a volume needs, given the claim its claimRef names (undefined: gone or replaced). */
export function volumeAction(volume: PersistentVolume, claim: PersistentVolumeClaim | undefined): VolumeAction {
  const ref = volume.spec?.claimRef;
  if (!ref || !ref.uid) return { kind: 'phase', phase: 'Available' };
  const current = claim && claim.metadata.uid === ref.uid ? claim : undefined;
  if (!current) {
    const policy = volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
    if (policy === 'Retain') return { kind: 'released', reclaim: 'retain' };
    // A provisioner's volume is deleted by that provisioner (external provisioning).
    if (policy === 'Delete' && hasAnn(volume, ANN_DYNAMICALLY_PROVISIONED)) return { kind: 'released', reclaim: 'external-delete' };
    if (policy === 'Delete')
      return {
        kind: 'released',
        reclaim: 'failed',
        event: { type: 'Warning', reason: 'VolumeFailedDelete', message: `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched` },
      };
    return { kind: 'released', reclaim: 'failed', event: { type: 'Warning', reason: 'VolumeFailedRecycle', message: 'No recycler plugin found for the volume!' } };
  }
  const claimVolume = current.spec?.volumeName ?? '';
  if (!claimVolume) return { kind: 'sync-claim' };
  if (claimVolume === volume.metadata.name) return { kind: 'phase', phase: 'Bound' };
  return hasAnn(volume, ANN_BOUND_BY_CONTROLLER) ? { kind: 'unbind' } : { kind: 'none' };
}
