// Tombstones and their keys (client-go's DeletedFinalStateUnknown and
// DeletionHandlingMetaNamespaceKeyFunc); the `namespace/name` key itself is
// @kubelab/api's metaNamespaceKey.

import { metaNamespaceKey, type KubeObject } from '@kubelab/api';

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

/** As metaNamespaceKey, but also accepts tombstones (DeletionHandlingMetaNamespaceKeyFunc). */
export function deletionHandlingKey(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : metaNamespaceKey(obj);
}
