// ControllerRefManager (pkg/controller/controller_ref_manager.go): a
// controller adopts orphans its selector matches and releases what it owns
// but no longer matches, by patching ownerReferences; objects another
// controller owns are never touched.

import { controllerRef, type KubeObject, type OwnerReference } from '@kubelab/api';
import type { ResourceInterface } from '@kubelab/client';
import { ignoreNotFound } from './controller.js';

export interface ClaimOptions<T extends KubeObject> {
  owner: KubeObject;
  ownerRef: OwnerReference;
  matches(obj: T): boolean;
  client(namespace: string): ResourceInterface<T>;
  /** Re-reads the owner live before adopting (upstream RecheckDeletionTimestamp); false: do not adopt. */
  canAdopt(): Promise<boolean>;
  /** Finalizers the adoption patch adds (upstream PodControllerRefManager's finalizers: the Job's tracking finalizer). */
  finalizers?: readonly string[];
}

/** Returns the objects the owner controls after adoption and release. */
export async function claimObjects<T extends KubeObject>(objs: readonly T[], o: ClaimOptions<T>): Promise<T[]> {
  const claimed: T[] = [];
  let adoptable: boolean | undefined;
  for (const obj of objs) {
    const ref = controllerRef(obj);
    if (ref) {
      if (ref.uid !== o.owner.metadata.uid) continue; // someone else's
      if (o.matches(obj)) {
        claimed.push(obj);
        continue;
      }
      if (o.owner.metadata.deletionTimestamp) continue; // being deleted: leave it be
      await release(obj, o);
      continue;
    }
    // An orphan: adopt when it matches, we are not being deleted, and it is not being deleted.
    if (!o.matches(obj) || o.owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    adoptable ??= await o.canAdopt();
    if (!adoptable) continue;
    const adopted = await adopt(obj, o);
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

async function adopt<T extends KubeObject>(obj: T, o: ClaimOptions<T>): Promise<T | undefined> {
  const refs = [...(obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== o.ownerRef.uid), o.ownerRef];
  const have = obj.metadata.finalizers ?? [];
  const missing = (o.finalizers ?? []).filter((f) => !have.includes(f));
  return ignoreNotFound(
    o.client(obj.metadata.namespace ?? '').patch(obj.metadata.name ?? '', 'merge', {
      metadata: { ownerReferences: refs, ...(missing.length ? { finalizers: [...have, ...missing] } : {}), uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion },
    }),
  );
}

async function release<T extends KubeObject>(obj: T, o: ClaimOptions<T>): Promise<void> {
  const refs = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== o.owner.metadata.uid);
  await ignoreNotFound(
    o.client(obj.metadata.namespace ?? '').patch(obj.metadata.name ?? '', 'merge', {
      metadata: { ownerReferences: refs.length ? refs : null, uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion },
    }),
  );
}
