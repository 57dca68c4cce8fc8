// The garbage collector's decisions (pkg/controller/garbagecollector
// attemptToDeleteItem) as pure functions over what is known of an object's
// owners.

import type { DeletionPropagation, KubeObject, OwnerReference } from '@kubelab/api';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export type OwnerState = 'solid' | 'dangling' | 'waitingForDependentsDeletion';

export type GcAction =
  | { kind: 'none' }
  /** Drop these owner references (by UID) from the object. */
  | { kind: 'removeOwnerRefs'; uids: string[] }
  | { kind: 'delete'; propagationPolicy: DeletionPropagation };

/**
 * What to do with a dependent given its owners' states: keep it while a
 * solid owner remains (dropping references to gone or foreground-deleting
 * owners), otherwise delete it — in the foreground when an owner waits for
 * it and it has dependents of its own.
 */
export function decideDependent(obj: KubeObject, owners: ReadonlyArray<{ ref: OwnerReference; state: OwnerState }>, hasDependents: boolean): GcAction {
  if (owners.length === 0) return { kind: 'none' };
  const solid = owners.filter((o) => o.state === 'solid');
  const dangling = owners.filter((o) => o.state === 'dangling');
  const waiting = owners.filter((o) => o.state === 'waitingForDependentsDeletion');
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return { kind: 'none' };
    return { kind: 'removeOwnerRefs', uids: [...dangling, ...waiting].map((o) => o.ref.uid) };
  }
  if (waiting.length > 0 && hasDependents) return { kind: 'delete', propagationPolicy: 'Foreground' };
  const f = obj.metadata.finalizers ?? [];
  if (f.includes(FINALIZER_ORPHAN)) return { kind: 'delete', propagationPolicy: 'Orphan' };
  if (f.includes(FINALIZER_FOREGROUND)) return { kind: 'delete', propagationPolicy: 'Foreground' };
  return { kind: 'delete', propagationPolicy: 'Background' };
}

/** A foreground-deleting owner may go once no dependent blocks it (blockOwnerDeletion). */
export function blockingDependents(ownerUid: string, dependents: readonly KubeObject[]): KubeObject[] {
  return dependents.filter((d) => (d.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid && r.blockOwnerDeletion === true));
}
