// Walks of objects along their schema, as structured-merge-diff's typed
// package does: the field set an applied configuration specifies
// (TypedValue.ToFieldSet), what changed between two objects (Compare: added,
// modified, removed), the merge of a configuration into a live object
// (Merge), and removing one path (RemoveItems). Objects are plain JSON.

import { FieldSet } from './set.js';
import { field, key, pathString, value, type PathElement } from './path.js';
import { isGranularObject, memberRef, type TypeRef } from './schema.js';

type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value upstream cannot type (a keyed item without its key, duplicate keys); the caller words the error. */
export class FieldTypeError extends Error {
  override name = 'FieldTypeError';
}

/**
 * Key fields a map list's items may leave out because the schema defaults
 * them (upstream reads the OpenAPI default): a port's protocol is TCP.
 */
const KEY_DEFAULTS: Readonly<Record<string, unknown>> = { protocol: 'TCP' };

/** The `k:` element of a map list item, or undefined when it lacks a key field without a default. */
export function itemKey(item: unknown, keys: readonly string[]): PathElement | undefined {
  if (!isObj(item) || keys.length === 0) return undefined;
  const fields: Record<string, unknown> = {};
  for (const k of keys) {
    const v = item[k] ?? KEY_DEFAULTS[k];
    if (v === undefined || v === null) return undefined;
    fields[k] = v;
  }
  return key(fields);
}

/** Items of a map list by key; undefined when an item cannot be keyed or two share a key. */
function keyed(items: unknown[], keys: readonly string[]): Map<PathElement, unknown> | undefined {
  const m = new Map<PathElement, unknown>();
  for (const it of items) {
    const k = itemKey(it, keys);
    if (k === undefined || m.has(k)) return undefined;
    m.set(k, it);
  }
  return m;
}

function listItemError(path: PathElement[], i: number, ref: TypeRef & { kind: 'list' }, items: unknown[]): FieldTypeError {
  const k = itemKey(items[i], ref.keys);
  if (k !== undefined) return new FieldTypeError(`${pathString(path)}: duplicate entries for key ${pathString([k])}`);
  const missing = ref.keys.find((n) => !isObj(items[i]) || ((items[i] as Obj)[n] ?? KEY_DEFAULTS[n]) == null) ?? ref.keys[0];
  return new FieldTypeError(`${pathString(path)}: element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(missing)} (and doesn't have default value)`);
}

/**
 * The fields a configuration specifies (upstream ToFieldSet): every leaf,
 * every keyed item and set value; atomic values as one leaf. `ignore` holds
 * paths left out (stripped metadata, reset fields): a member there skips its subtree.
 */
export function toFieldSet(v: unknown, ref: TypeRef, ignore?: FieldSet): FieldSet {
  const out = new FieldSet();
  walkSet(v, ref, out, ignore, []);
  return out;
}

function walkSet(v: unknown, ref: TypeRef, node: FieldSet, ignore: FieldSet | undefined, path: PathElement[]): void {
  if (ref.kind === 'list' && ref.listType !== 'atomic' && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      if (ref.listType === 'set') {
        addChild(node, value(item), undefined, true);
        continue;
      }
      const k = itemKey(item, ref.keys);
      if (k === undefined || node.child(k)) throw listItemError(path, i, ref, v);
      path.push(k);
      addChild(node, k, (c) => walkMembers(item, ref.elem, c, ignore?.child(k), path), true);
      path.pop();
    }
    return;
  }
  walkMembers(v, ref, node, ignore, path);
}

/** The members of an object value (or the value itself as a leaf) into `node`. */
function walkMembers(v: unknown, ref: TypeRef, node: FieldSet, ignore: FieldSet | undefined, path: PathElement[]): void {
  if (!(isGranularObject(ref) || ref.kind === 'deduced') || !isObj(v)) {
    node.member = true;
    return;
  }
  for (const name in v) {
    const c = v[name];
    if (c === undefined) continue;
    const e = field(name);
    const ign = ignore?.child(e);
    if (ign?.member) continue;
    const cref = memberRef(ref, name);
    path.push(e);
    addChild(node, e, (n) => walkSet(c, cref, n, ign, path), false);
    path.pop();
  }
}

/** Adds a child built by `fill` (a leaf when there is no `fill`), keeping only non-empty ones. */
function addChild(node: FieldSet, e: PathElement, fill: ((n: FieldSet) => void) | undefined, member: boolean): void {
  const n = new FieldSet();
  if (fill) fill(n);
  if (member) n.member = true;
  if (n.empty) return;
  (node.children ??= new Map()).set(e, n);
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * What changed from `lhs` to `rhs` (upstream TypedValue.Compare). A map or
 * keyed item present on one side only is added/removed itself (FieldsV1's
 * `.`), and so are its leaves; leaves that differ are modified; identical references
 * are skipped without a walk (a status the update kept).
 */
export function compare(lhs: unknown, rhs: unknown, ref: TypeRef, ignore?: FieldSet): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  cmp(lhs, rhs, ref, [], ignore, c);
  return c;
}

function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || (isObj(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);
}

function cmp(l: unknown, r: unknown, ref: TypeRef, path: PathElement[], ignore: FieldSet | undefined, c: Comparison): void {
  if (l === r) return;
  const granular = isGranularObject(ref) || ref.kind === 'deduced';
  // Both sides empty: a leaf, so `{}` and absent stay distinct (upstream's emptyPromoteToLeaf).
  if (granular && (isObj(l) || l === undefined) && (isObj(r) || r === undefined) && !(isEmptyValue(l) && isEmptyValue(r))) {
    const lo = (l ?? {}) as Obj;
    const ro = (r ?? {}) as Obj;
    const visit = (name: string) => {
      const e = field(name);
      const ign = ignore?.child(e);
      if (ign?.member) return;
      const lv = lo[name];
      const rv = ro[name];
      const cref = memberRef(ref, name);
      path.push(e);
      cmp(lv, rv, cref, path, ign, c);
      // A map that appeared or went is itself added or removed (upstream: a nil Go map; a struct never is, as Go's value structs are always there).
      if (cref.kind === 'map' || (cref.kind === 'deduced' && (isObj(lv) || isObj(rv)))) {
        if (lv === undefined && rv !== undefined) c.added.insert(path);
        else if (rv === undefined && lv !== undefined) c.removed.insert(path);
      }
      path.pop();
    };
    for (const name in ro) visit(name);
    for (const name in lo) if (!(name in ro)) visit(name);
    return;
  }
  if (ref.kind === 'list' && ref.listType !== 'atomic' && (Array.isArray(l) || l === undefined) && (Array.isArray(r) || r === undefined) && !(isEmptyValue(l) && isEmptyValue(r))) {
    if (compareList(l ?? [], r ?? [], ref, path, ignore, c)) return;
  }
  // A leaf (scalar, atomic, or a value of another type than the schema's).
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!deepEqual(l, r)) c.modified.insert(path);
}

/** Compares a set or map list item by item; false when the list cannot be keyed (then it compares as one value). */
function compareList(l: unknown[], r: unknown[], ref: TypeRef & { kind: 'list' }, path: PathElement[], ignore: FieldSet | undefined, c: Comparison): boolean {
  if (ref.listType === 'set') {
    const ls = new Set(l.map((x) => value(x)));
    const rs = new Set(r.map((x) => value(x)));
    for (const e of rs) if (!ls.has(e)) c.added.insert([...path, e]);
    for (const e of ls) if (!rs.has(e)) c.removed.insert([...path, e]);
    return true;
  }
  const lm = keyed(l, ref.keys);
  const rm = keyed(r, ref.keys);
  if (!lm || !rm) return false;
  const item = (k: PathElement, lv: unknown, rv: unknown) => {
    path.push(k);
    cmp(lv, rv, ref.elem, path, ignore?.child(k), c);
    if (lv === undefined) c.added.insert(path);
    else if (rv === undefined) c.removed.insert(path);
    path.pop();
  };
  for (const [k, rv] of rm) item(k, lm.get(k), rv);
  for (const [k, lv] of lm) if (!rm.has(k)) item(k, lv, undefined);
  return true;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) {
    if (!(k in b) || !deepEqual((a as Obj)[k], (b as Obj)[k])) return false;
  }
  return true;
}

/**
 * A configuration merged into a live object (upstream TypedValue.Merge): the
 * configuration's values win, granular objects merge member by member, map
 * lists item by item on their keys (live order, new items after), set lists
 * by value; anything atomic is replaced. Returns a new value; shares unchanged parts.
 */
export function merge(l: unknown, r: unknown, ref: TypeRef): unknown {
  if (r === undefined) return l;
  if (l === undefined || l === null) return r;
  if ((isGranularObject(ref) || ref.kind === 'deduced') && isObj(l) && isObj(r)) {
    const out: Obj = { ...l };
    for (const name in r) out[name] = merge(l[name], r[name], memberRef(ref, name));
    return out;
  }
  if (ref.kind === 'list' && Array.isArray(l) && Array.isArray(r)) {
    if (ref.listType === 'set') {
      const have = new Set(l.map((x) => value(x)));
      return [...l, ...r.filter((x) => !have.has(value(x)))];
    }
    if (ref.listType === 'map') {
      const rm = keyed(r, ref.keys);
      const lm = keyed(l, ref.keys);
      if (rm && lm) {
        const out = l.map((it) => {
          const k = itemKey(it, ref.keys)!;
          return rm.has(k) ? merge(it, rm.get(k), ref.elem) : it;
        });
        for (const [k, it] of rm) if (!lm.has(k)) out.push(it);
        return out;
      }
    }
  }
  return r;
}

/**
 * Removes the value at `path` from `obj` in place (upstream RemoveItems); a
 * map or list left empty goes too, as Go's omitempty drops it on the wire.
 * `obj` must be a private copy.
 */
export function removePath(obj: Obj, path: readonly PathElement[], ref: TypeRef): void {
  removeAt(obj, path, 0, ref);
}

function removeAt(container: unknown, path: readonly PathElement[], i: number, ref: TypeRef): boolean {
  const e = path[i]!;
  const last = i === path.length - 1;
  const tag = e.slice(0, 2);
  if (tag === 'f:' && isObj(container)) {
    const name = e.slice(2);
    if (!(name in container)) return false;
    const cref = memberRef(ref, name);
    if (last) delete container[name];
    else if (removeAt(container[name], path, i + 1, cref) && isEmptyCollection(container[name], cref)) delete container[name];
    else return false;
    return true;
  }
  if (Array.isArray(container) && ref.kind === 'list') {
    const idx = container.findIndex((it) => (tag === 'v:' ? value(it) === e : tag === 'k:' ? itemKey(it, ref.keys) === e : false));
    if (idx < 0) return false;
    if (!last) {
      removeAt(container[idx], path, i + 1, ref.elem);
      return false; // an item keeps its (key) fields: the list is not left empty
    }
    container.splice(idx, 1);
    return true;
  }
  return false;
}

/** A map or list with nothing left (structs stay, as a Go struct prints `{}`). */
function isEmptyCollection(v: unknown, ref: TypeRef): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return (ref.kind === 'map' || ref.kind === 'deduced') && isObj(v) && Object.keys(v).length === 0;
}
