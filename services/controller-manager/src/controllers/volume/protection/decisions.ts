// When the storage protection finalizers may go (pkg/controller/volume
// pvcprotection and pvprotection): a claim while a pod that is not finished
// uses it, a volume while it is Bound.

import { isPodTerminal, type PersistentVolume, type PersistentVolumeClaim, type Pod } from '@kubelab/api';

/** A pod that is not finished and names the claim in a volume. */
export function podUsesClaim(pod: Pod, claim: PersistentVolumeClaim): boolean {
  if (pod.metadata.namespace !== claim.metadata.namespace || isPodTerminal(pod)) return false;
  return (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata.name);
}

export type FinalizerAction = 'add' | 'remove' | 'none';

/** The claim's finalizer: added to live claims, removed from deleted ones nobody uses. */
export function claimFinalizerAction(claim: PersistentVolumeClaim, finalizer: string, pods: readonly Pod[]): FinalizerAction {
  const has = claim.metadata.finalizers?.includes(finalizer) ?? false;
  if (!claim.metadata.deletionTimestamp) return has ? 'none' : 'add';
  if (!has) return 'none';
  return pods.some((p) => podUsesClaim(p, claim)) ? 'none' : 'remove';
}

/** The volume's finalizer: added to live volumes, removed from deleted ones no longer Bound. */
export function volumeFinalizerAction(volume: PersistentVolume, finalizer: string): FinalizerAction {
  const has = volume.metadata.finalizers?.includes(finalizer) ?? false;
  if (!volume.metadata.deletionTimestamp) return has ? 'none' : 'add';
  if (!has) return 'none';
  return volume.status?.phase === 'Bound' ? 'none' : 'remove';
}

/** The finalizer list after the action. */
export function withFinalizer(finalizers: readonly string[] | undefined, finalizer: string, action: 'add' | 'remove'): string[] {
  const rest = (finalizers ?? []).filter((f) => f !== finalizer);
  return action === 'add' ? [...rest, finalizer] : rest;
}
