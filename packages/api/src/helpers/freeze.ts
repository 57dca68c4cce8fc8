// Shared objects are frozen: the apiserver's watch cache and an informer's
// store hand one object to every reader, and the kubelet's CRI client one
// decoded element to every relist; freezing makes a reader's write throw
// instead of changing what the next reader sees.

/** Freezes an object graph (plain objects and arrays; typed arrays such as bytes fields stay as they are). */
export function deepFreeze<T>(o: T): T {
  if (o === null || typeof o !== 'object' || ArrayBuffer.isView(o) || Object.isFrozen(o)) return o;
  Object.freeze(o);
  for (const v of Object.values(o as object)) deepFreeze(v);
  return o;
}
