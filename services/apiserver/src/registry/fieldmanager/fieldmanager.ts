// The field manager of one resource (upstream k8s.io/apimachinery
// util/managedfields: FieldManager over structured-merge-diff's Updater):
// keeps metadata.managedFields on every write and carries out server-side
// apply. An Update takes ownership of what it changed; an Apply merges its
// configuration, removes what the same manager applied before and no longer
// applies (unless another manager owns it), and fails with a conflict when
// it would change another manager's fields, unless forced.

import { apiVersionOf, badRequest, invalid, SCHEMA, type KubeObject, type ManagedFieldsEntry, type ResourceInfo } from '@kubelab/api';
import { conflictError, type Conflict } from './conflict.js';
import { capUpdateManagers, decodeManaged, encodeManaged, identifier, validateManagedFields, type Entry, type Managed } from './managed.js';
import { field } from './path.js';
import { shapeOf } from './shape.js';
import { difference, FieldSet, intersection, union } from './set.js';
import { kindRef, type TypeRef } from './schema.js';
import { compare, deepEqual, FieldTypeError, merge, removePath, toFieldSet } from './typed.js';

type Obj = KubeObject & Record<string, unknown>;

/** The writer of a change: manager name and the subresource it wrote through. */
export interface Writer {
  manager: string;
  subresource?: string | undefined;
}

/** Metadata fields no manager owns (upstream internal/stripmeta.go). */
const STRIPPED_META = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];

/** Upstream's manager of every field of an object that had no managedFields before its first apply. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

/** Decoded managedFields of stored objects (frozen, so their entries never change under the key), and back. */
const decoded = new WeakMap<readonly ManagedFieldsEntry[], Managed>();
const encodedOf = new WeakMap<Managed, ManagedFieldsEntry[]>();

function managedOf(o: KubeObject | undefined): Managed {
  const entries = o?.metadata.managedFields;
  if (!entries || entries.length === 0) return new Map();
  let m = decoded.get(entries);
  if (!m) {
    m = decodeManaged(entries);
    if (Object.isFrozen(entries)) {
      decoded.set(entries, m);
      encodedOf.set(m, entries as ManagedFieldsEntry[]);
    }
  }
  return m;
}

/** Freezes stored entries shared by many objects (the watch cache would freeze them anyway). */
function freezeEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const freeze = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const c of Object.values(v)) freeze(c);
  };
  freeze(entries);
  return entries;
}

/**
 * What a create from nothing owns, by the object's shape (see shape.ts): the
 * field set, and the last entries made from it, shared by every object of
 * that shape created by the same writer in the same second.
 */
interface CreateShape {
  set: FieldSet;
  last?: { manager: string; subresource: string | undefined; time: string; entries: ManagedFieldsEntry[] };
}

/** Shapes remembered per resource: objects of many shapes (ConfigMaps of their own keys) start it over. */
const MAX_SHAPES = 256;

/** managedFields a request left to the server (absent, null or empty: a create starts from no managers). */
function isUnset(sent: unknown): boolean {
  return sent === undefined || sent === null || (Array.isArray(sent) && sent.length === 0);
}

export class FieldManager {
  private readonly ref: TypeRef;
  private readonly apiVersion: string;
  private readonly ignored = new Map<string, FieldSet>();
  private readonly shapes = new Map<string, CreateShape>();

  constructor(private readonly info: ResourceInfo) {
    this.ref = kindRef(info.kind);
    this.apiVersion = apiVersionOf(info);
  }

  /**
   * Paths no manager owns on this endpoint: type and stripped metadata, and
   * the reset fields (upstream ResetFieldsStrategy): the status on the main
   * resource of a kind with a status subresource, everything but metadata
   * and status on the status subresource.
   */
  private ignore(subresource: string | undefined): FieldSet {
    const k = subresource ?? '';
    let s = this.ignored.get(k);
    if (s) return s;
    s = new FieldSet().insert([field('apiVersion')]).insert([field('kind')]);
    for (const f of STRIPPED_META) s.insert([field('metadata'), field(f)]);
    if (!subresource && this.info.subresources.includes('status')) s.insert([field('status')]);
    if (subresource === 'status') for (const f of Object.keys(SCHEMA[this.info.kind]?.fields ?? {})) if (f !== 'metadata' && f !== 'status') s.insert([field(f)]);
    this.ignored.set(k, s);
    return s;
  }

  private entry(w: Writer, operation: Entry['operation'], set: FieldSet, time: string): Entry {
    const e: Entry = { manager: w.manager, operation, apiVersion: this.apiVersion, time, set };
    if (w.subresource) e.subresource = w.subresource;
    return e;
  }

  /**
   * The managers an update starts from (upstream FieldManager.Update): those
   * the request sent when it changed them (validated), else the stored ones.
   * `[{}]` resets them: the result holds only this write's own changes.
   */
  private startingManagers(live: KubeObject | undefined, next: Obj, subresource: string | undefined): Managed {
    const sent = next.metadata.managedFields as unknown;
    const stored = live?.metadata.managedFields;
    if (subresource || sent === undefined || sent === null || (Array.isArray(sent) && sent.length === 0) || sent === stored || deepEqual(sent, stored)) return managedOf(live);
    const errs = validateManagedFields(sent);
    if (errs.length) throw invalid(this.info.kind, this.info.group, next.metadata.name ?? '', errs);
    return decodeManaged(sent as ManagedFieldsEntry[]);
  }

  /**
   * An Update (create, update, any non-apply patch): the writer owns what it
   * added or changed, taking it from other managers, and nobody owns what it
   * removed. Sets `next.metadata.managedFields`.
   */
  update(live: KubeObject | undefined, next: Obj, w: Writer, now: string): void {
    if (live === undefined && isUnset(next.metadata.managedFields)) {
      this.create(next, w, now);
      return;
    }
    const start = this.startingManagers(live, next, w.subresource);
    const c = compare(live, next, this.ref, this.ignore(w.subresource));
    const changed = union(c.modified, c.added);
    const id = identifier({ ...w, operation: 'Update', apiVersion: this.apiVersion });
    const out: Managed = new Map();
    for (const [k, e] of start) {
      if (k === id) continue;
      const set = difference(difference(e.set, changed), c.removed);
      out.set(k, set === e.set ? e : { ...e, set });
    }
    const prev = start.get(id);
    const mine = difference(union(prev?.set ?? new FieldSet(), changed), c.removed);
    if (prev && mine.equals(prev.set)) out.set(id, prev);
    else if (!mine.empty) out.set(id, this.entry(w, 'Update', mine, now));
    this.store(next, out, start);
  }

  /**
   * An Update from nothing with no managedFields sent: the writer owns every
   * field the object sets (what `compare` finds added), remembered per shape;
   * objects of one shape, writer and second share one frozen entries array.
   */
  private create(next: Obj, w: Writer, now: string): void {
    const key = shapeOf(next);
    let shape = key === undefined ? undefined : this.shapes.get(key);
    if (!shape) {
      shape = { set: compare(undefined, next, this.ref, this.ignore(w.subresource)).added };
      if (key !== undefined && !w.subresource) {
        if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
        this.shapes.set(key, shape);
      }
    }
    if (shape.set.empty) {
      delete next.metadata.managedFields;
      return;
    }
    const last = shape.last;
    if (last && last.time === now && last.manager === w.manager && last.subresource === w.subresource) {
      next.metadata.managedFields = last.entries;
      return;
    }
    const id = identifier({ ...w, operation: 'Update', apiVersion: this.apiVersion });
    const managers: Managed = new Map([[id, this.entry(w, 'Update', shape.set, now)]]);
    const entries = freezeEntries(encodeManaged(managers));
    decoded.set(entries, managers);
    encodedOf.set(managers, entries);
    shape.last = { manager: w.manager, subresource: w.subresource, time: now, entries };
    next.metadata.managedFields = entries;
  }

  /** Stores the managers on the object; when none changed, the stored entries as they were (no re-encoding). */
  private store(next: Obj, managers: Managed, start: Managed): void {
    const capped = capUpdateManagers(managers);
    let same = capped.size === start.size;
    if (same) for (const [k, e] of capped) if (start.get(k) !== e) same = false;
    let encoded = same ? encodedOf.get(start) : undefined;
    if (!encoded) {
      encoded = encodeManaged(capped);
      // The stored object's entries are these very arrays (the watch cache adopts the written object): the next write decodes nothing.
      decoded.set(encoded, capped);
      encodedOf.set(capped, encoded);
    }
    if (encoded.length) next.metadata.managedFields = encoded;
    else delete next.metadata.managedFields;
  }

  /** A create by apply: the object is the configuration, owned by the applier alone. */
  applyCreate(obj: Obj, w: Writer, now: string): void {
    if (obj.metadata.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
    const set = this.configSet(obj, w.subresource);
    const m: Managed = new Map();
    if (!set.empty) m.set(identifier({ ...w, operation: 'Apply', apiVersion: this.apiVersion }), this.entry(w, 'Apply', set, now));
    this.store(obj, m, new Map());
  }

  private configSet(config: Obj, subresource: string | undefined): FieldSet {
    try {
      return toFieldSet(config, this.ref, this.ignore(subresource));
    } catch (err) {
      if (err instanceof FieldTypeError) throw badRequest(`failed to create typed patch object (${this.gvk()}): ${err.message}`);
      throw err;
    }
  }

  private gvk(): string {
    return `${this.info.group}/${this.info.version}, Kind=${this.info.kind}`;
  }

  /**
   * A server-side apply of `config` to the stored `live` object (upstream
   * Updater.Apply): returns the merged object with its managedFields. Throws
   * the 409 conflict unless `force`. `base` is a private mutable copy of
   * `live` the result is built from (it shares parts of it and of `config`).
   */
  apply(live: KubeObject, base: Obj, config: Obj, w: Writer, force: boolean, now: string): Obj {
    if (config.metadata?.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
    const ignore = this.ignore(w.subresource);
    const set = this.configSet(config, w.subresource);
    let start = managedOf(live);
    if (start.size === 0) {
      // Fields of an object nobody tracked yet belong to "before-first-apply" (upstream: the first apply's fallback manager).
      const all = toFieldSet(live, this.ref, ignore);
      start = new Map();
      if (!all.empty) start.set(identifier({ manager: BEFORE_FIRST_APPLY, operation: 'Update', apiVersion: this.apiVersion }), this.entry({ manager: BEFORE_FIRST_APPLY }, 'Update', all, now));
    }
    const id = identifier({ ...w, operation: 'Apply', apiVersion: this.apiVersion });
    const previous = start.get(id);
    const merged = merge(base, config, this.ref) as Obj;
    // What this manager applied before and no longer applies goes, unless another manager owns it (or something below it).
    if (previous) {
      const dropped = difference(previous.set, set);
      if (!dropped.empty) this.prune(merged, dropped, start, id, set);
    }
    const c = compare(live, merged, this.ref, ignore);
    const changed = union(c.modified, c.added);
    const conflicts: Conflict[] = [];
    const out: Managed = new Map();
    for (const [k, e] of start) {
      if (k === id) continue;
      const mine = intersection(e.set, changed);
      if (!mine.empty) for (const path of mine.paths()) conflicts.push({ manager: e, path });
      const kept = difference(difference(e.set, mine), c.removed);
      out.set(k, kept === e.set ? e : { ...e, set: kept });
    }
    if (conflicts.length && !force) throw conflictError(conflicts);
    const unchanged = previous && previous.set.equals(set) && c.added.empty && c.modified.empty && c.removed.empty;
    if (!set.empty) out.set(id, unchanged ? previous : this.entry(w, 'Apply', set, now));
    merged.metadata = { ...merged.metadata };
    this.store(merged, out, start);
    return merged;
  }

  /**
   * Removes from `merged` (in place) the dropped paths that nobody owns, nor
   * anything below them: not another manager, nor this one's new configuration
   * (a map it stopped owning whole but still applies a member of stays).
   */
  private prune(merged: Obj, dropped: FieldSet, managers: Managed, self: string, applied: FieldSet): void {
    let others = applied;
    for (const [k, e] of managers) if (k !== self) others = union(others, e.set);
    let removedPrefix: string[] | undefined;
    for (const path of dropped.paths()) {
      if (removedPrefix && removedPrefix.every((e, i) => path[i] === e)) continue;
      const owned = others.at(path);
      if (owned && !owned.empty) continue;
      removePath(merged, path, this.ref);
      removedPrefix = path;
    }
  }
}
