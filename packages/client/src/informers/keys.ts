// Cache keys as client-go's MetaNamespaceKeyFunc: `namespace/name`, or just
// `name` for cluster-scoped objects; tombstones carry their own key.

import type { KubeObject } from '@kubelab/api';

/** What an informer hands onDelete when it missed the final state (a relist found it gone). */
export class DeletedFinalStateUnknown<T> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {}
}

export function isTombstone<T>(o: T | DeletedFinalStateUnknown<T>): o is DeletedFinalStateUnknown<T> {
  return o instanceof DeletedFinalStateUnknown;
}

/** The object from a delete notification, tombstone or not. */
export function unwrapTombstone<T>(o: T | DeletedFinalStateUnknown<T>): T {
  return o instanceof DeletedFinalStateUnknown ? o.obj : o;
}

export function metaNamespaceKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata ?? {};
  if (!name) throw new Error('object has no metadata.name');
  return namespace ? `${namespace}/${name}` : name;
}

/** As metaNamespaceKey, but also accepts tombstones (DeletionHandlingMetaNamespaceKeyFunc). */
export function deletionHandlingKey(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : metaNamespaceKey(obj);
}

/** Splits a key back into namespace ('' for cluster-scoped) and name. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] as string };
  if (parts.length === 2) return { namespace: parts[0] as string, name: parts[1] as string };
  throw new Error(`unexpected key format: "${key}"`);
}
