// Strategic merge patch (application/strategic-merge-patch+json), as
// apimachinery's strategicpatch applies it on the server: maps merge, lists
// merge by their patchMergeKey when the field's strategy says so, and the
// directives `$patch` (merge|replace|delete), `$retainKeys`,
// `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>` steer it.

import { badPatch, patchNotApplicable } from './errors.js';
import { fieldPatchMeta, type FieldPatchMeta } from './meta.js';
import { clone, isObject, jsonEqual, type JsonObject } from './util.js';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';

/** Marks "remove this field" from a `$patch: delete` map. */
const DELETE = Symbol('delete');

/** Applies a strategic merge patch to a copy of `original`, using the patch metadata of `typeName`. */
export function applyStrategicMergePatch(original: unknown, patch: unknown, typeName: string | undefined): JsonObject {
  if (!isObject(patch)) throw badPatch('strategic merge patch: the patch must be a JSON object');
  const base = isObject(original) ? clone(original) : {};
  const out = mergeMap(base, patch, typeName);
  return out === DELETE ? {} : out;
}

function mergeMap(orig: JsonObject, patch: JsonObject, typeName: string | undefined): JsonObject | typeof DELETE {
  const directive = patch[DIRECTIVE];
  if (directive === 'replace') return stripDirectives(withoutKey(patch, DIRECTIVE)) as JsonObject;
  if (directive === 'delete') return DELETE;
  if (directive !== undefined && directive !== 'merge') throw badPatch(`Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);

  const result: JsonObject = { ...orig };
  const retain = patch[RETAIN_KEYS];
  if (retain !== undefined) {
    if (!Array.isArray(retain) || retain.some((k) => typeof k !== 'string')) throw badPatch(`invalid patch: ${RETAIN_KEYS} must be a list of strings`);
    for (const k of Object.keys(result)) if (!retain.includes(k)) delete result[k];
    for (const k of Object.keys(patch)) {
      if (!k.startsWith('$') && patch[k] !== null && !retain.includes(k)) throw patchNotApplicable(`The patch has ${k} which is not listed in ${RETAIN_KEYS}`);
    }
  }

  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(DELETE_PRIMITIVE)) continue;
    const field = k.slice(DELETE_PRIMITIVE.length);
    if (!Array.isArray(v)) throw badPatch(`invalid patch: ${k} must be a list`);
    const cur = result[field];
    if (Array.isArray(cur)) result[field] = cur.filter((x) => !v.some((d) => jsonEqual(d, x)));
  }

  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) {
      delete result[k];
      continue;
    }
    const meta = fieldPatchMeta(typeName, k);
    const cur = result[k];
    if (isObject(v)) {
      const merged = mergeMap(isObject(cur) ? cur : {}, v, meta?.type);
      if (merged === DELETE) delete result[k];
      else result[k] = merged;
    } else if (Array.isArray(v)) {
      result[k] = meta?.strategy?.includes('merge') ? mergeList(Array.isArray(cur) ? cur : [], v, meta, k) : replaceList(v);
    } else {
      result[k] = v;
    }
  }

  for (const [k, order] of Object.entries(patch)) {
    if (!k.startsWith(SET_ORDER)) continue;
    const field = k.slice(SET_ORDER.length);
    if (!Array.isArray(order)) throw badPatch(`invalid patch: ${k} must be a list`);
    const cur = result[field];
    if (Array.isArray(cur)) result[field] = reorder(cur, order, fieldPatchMeta(typeName, field)?.mergeKey);
  }
  return result;
}

/** A list without a merge strategy: the patch's list replaces the original. */
function replaceList(patch: unknown[]): unknown[] {
  return patch.map((x) => stripDirectives(x));
}

function mergeList(orig: unknown[], patch: unknown[], meta: FieldPatchMeta, field: string): unknown[] {
  if (patch.some((x) => isObject(x) && x[DIRECTIVE] === 'replace' && Object.keys(x).length === 1)) {
    return replaceList(patch.filter((x) => !(isObject(x) && x[DIRECTIVE] === 'replace')));
  }
  const key = meta.mergeKey;
  if (!key) {
    // A merged list of primitives is a set union (e.g. finalizers).
    const out = [...orig];
    for (const item of patch) {
      if (isObject(item) || Array.isArray(item)) throw badPatch(`strategic merge patch: ${field} is a list of primitives`);
      if (!out.some((x) => jsonEqual(x, item))) out.push(item);
    }
    return out;
  }
  const out = [...orig];
  for (const item of patch) {
    if (!isObject(item)) throw badPatch(`strategic merge patch: ${field} items must be objects merged by ${key}`);
    if (!(key in item)) {
      throw badPatch(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    }
    const idx = out.findIndex((x) => isObject(x) && jsonEqual(x[key], item[key]));
    if (item[DIRECTIVE] === 'delete') {
      const kept = out.filter((x) => !(isObject(x) && jsonEqual(x[key], item[key])));
      out.length = 0;
      out.push(...kept);
      continue;
    }
    const merged = mergeMap(idx >= 0 && isObject(out[idx]) ? (out[idx] as JsonObject) : {}, item, meta.type);
    if (merged === DELETE) {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = merged;
    else out.push(merged);
  }
  return out;
}

/** `$setElementOrder`: the listed items in that order, items not listed after them in their order. */
function reorder(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const id = (x: unknown): unknown => (key && isObject(x) ? x[key] : x);
  const pos = (x: unknown): number => order.findIndex((o) => jsonEqual(key && isObject(o) ? o[key] : o, id(x)));
  const listed = list.filter((x) => pos(x) >= 0).sort((a, b) => pos(a) - pos(b));
  return [...listed, ...list.filter((x) => pos(x) < 0)];
}

function withoutKey(o: JsonObject, key: string): JsonObject {
  const { [key]: _drop, ...rest } = o;
  return rest;
}

/** A patch value added where nothing was: directives removed, nulls dropped. */
function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => stripDirectives(x));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$') || x === null) continue;
    out[k] = stripDirectives(x);
  }
  return out;
}
