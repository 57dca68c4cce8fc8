// The strategic merge patch that turns one object into another (upstream
// strategicpatch.CreateTwoWayMergePatch, which always adds the
// `$setElementOrder` lists): what a controller or kubelet sends as a PATCH instead of
// the whole object. Maps diff field by field and removed fields become null;
// lists merged by a key (conditions by `type`) carry only the changed items,
// `$patch: delete` for items gone and a `$setElementOrder/<list>` of the
// keys; merged lists of primitives carry additions and a
// `$deleteFromPrimitiveList/<list>`; every other list is sent whole when it
// changed. Written by hand: the diff is the other half of the patch
// machinery this project teaches (strategic.ts applies what this makes).

import { fieldPatchMeta, type FieldPatchMeta } from './meta.js';
import { isObject, jsonEqual, type JsonObject } from './util.js';

const SET_ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';
const RETAIN_KEYS = '$retainKeys';

/**
 * The patch taking `original` to `modified` for type `typeName` (a Go struct
 * name of the schema, e.g. `Node`); `{}` when they are equal. Pure.
 */
export function createTwoWayMergePatch(original: object, modified: object, typeName: string | undefined): JsonObject {
  return diffMaps(original as JsonObject, modified as JsonObject, typeName, false);
}

function diffMaps(original: JsonObject, modified: JsonObject, typeName: string | undefined, retainKeys: boolean): JsonObject {
  const patch: JsonObject = {};
  for (const [key, mod] of Object.entries(modified)) {
    // undefined is absent (JSON has no such value); null where nothing was changes nothing either.
    if (mod === undefined) continue;
    const orig = original[key];
    if (orig === undefined) {
      if (mod !== null) patch[key] = mod;
      continue;
    }
    const meta = fieldPatchMeta(typeName, key);
    if (isObject(orig) && isObject(mod)) {
      // A map whose strategy is `replace` goes whole; others diff field by field.
      if (meta?.strategy === 'replace') {
        if (!jsonEqual(orig, mod)) patch[key] = mod;
        continue;
      }
      const sub = diffMaps(orig, mod, meta?.type, meta?.strategy?.includes('retainKeys') ?? false);
      if (Object.keys(sub).length > 0) patch[key] = sub;
    } else if (Array.isArray(orig) && Array.isArray(mod) && meta?.strategy?.includes('merge')) {
      diffMergedList(key, orig, mod, meta, patch);
    } else if (!jsonEqual(orig, mod)) {
      // Another type, a scalar, or an atomic list: the new value replaces the old.
      patch[key] = mod;
    }
  }
  for (const [key, v] of Object.entries(original)) if (v !== undefined && modified[key] === undefined) patch[key] = null;
  // retainKeys: the fields the map keeps, when anything changed or a field went away.
  if (retainKeys && Object.keys(modified).length > 0 && Object.keys(patch).length > 0) {
    patch[RETAIN_KEYS] = Object.keys(modified)
      .filter((k) => modified[k] !== null)
      .sort();
  }
  return patch;
}

/** handleSliceDiff for a list whose strategy merges: the changed items and the directives beside them. */
function diffMergedList(key: string, orig: unknown[], mod: unknown[], meta: FieldPatchMeta, patch: JsonObject): void {
  if (orig.length === 0) {
    if (mod.length > 0) patch[key] = mod;
    return;
  }
  const element = [...orig, ...mod].find((x) => x !== null && x !== undefined);
  if (isObject(element)) {
    const mergeKey = meta.mergeKey;
    if (!mergeKey) {
      if (!jsonEqual(orig, mod)) patch[key] = mod;
      return;
    }
    const { changed, deleted } = diffListsOfMaps(orig as JsonObject[], mod as JsonObject[], mergeKey, meta);
    const list = [...changed, ...deleted];
    if (list.length > 0) patch[key] = list;
    // Upstream isOrderSame: the same length and the same key at every place.
    const sameOrder = orig.length === mod.length && orig.every((o, i) => jsonEqual((o as JsonObject)[mergeKey], (mod[i] as JsonObject)[mergeKey]));
    if ((list.length > 0 || !sameOrder) && mod.length > 0) patch[`${SET_ORDER}${key}`] = mod.map((x) => ({ [mergeKey]: (x as JsonObject)[mergeKey] }));
    return;
  }
  // A merged list of primitives (a set): additions in the list, removals in a parallel directive.
  const added = mod.filter((x) => !orig.some((o) => jsonEqual(o, x)));
  const removed = orig.filter((x) => !mod.some((m) => jsonEqual(m, x)));
  if (added.length > 0) patch[key] = added;
  if (removed.length > 0) patch[`${DELETE_PRIMITIVE}${key}`] = removed;
  if ((removed.length > 0 || !jsonEqual(orig, mod)) && mod.length > 0) patch[`${SET_ORDER}${key}`] = mod;
}

/** Items by merge key: new ones whole, changed ones as their diff with the key, gone ones as `$patch: delete`; in `mod`'s order. */
function diffListsOfMaps(orig: JsonObject[], mod: JsonObject[], mergeKey: string, meta: FieldPatchMeta): { changed: JsonObject[]; deleted: JsonObject[] } {
  const retainKeys = meta.strategy?.includes('retainKeys') ?? false;
  const changed: JsonObject[] = [];
  // Items with the same key pair up in order, the n-th with the n-th (upstream sorts both lists and walks them together).
  const paired = new Set<number>();
  for (const m of mod) {
    const i = orig.findIndex((x, j) => !paired.has(j) && jsonEqual(x[mergeKey], m[mergeKey]));
    if (i < 0) {
      changed.push(m);
      continue;
    }
    paired.add(i);
    const d = diffMaps(orig[i]!, m, meta.type, retainKeys);
    if (Object.keys(d).length > 0) changed.push({ ...d, [mergeKey]: m[mergeKey] });
  }
  const deleted = orig.filter((o, j) => !paired.has(j) && !mod.some((m) => jsonEqual(m[mergeKey], o[mergeKey]))).map((o) => ({ [mergeKey]: o[mergeKey], $patch: 'delete' }));
  return { changed, deleted };
}
