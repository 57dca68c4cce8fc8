// Object-metadata helpers (metav1.GetControllerOf, cache.MetaNamespaceKeyFunc).
import type { KubeObject, OwnerReference } from '../meta/types.js';

/** GetControllerOf: the owner reference with controller=true, if any. */
export function controllerRef(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** True when `owner` is obj's controller (matched by UID). */
export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  const ref = controllerRef(obj);
  return !!ref && !!owner.metadata.uid && ref.uid === owner.metadata.uid;
}

/** NewControllerRef: a controller owner reference to `owner` with blockOwnerDeletion. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** MetaNamespaceKeyFunc: `namespace/name`, or `name` for cluster-scoped objects. */
export function metaNamespaceKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

/** SplitMetaNamespaceKey: the inverse; throws on more than one slash, as upstream. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] as string };
  if (parts.length === 2) return { namespace: parts[0] as string, name: parts[1] as string };
  throw new Error(`unexpected key format: "${key}"`);
}
