// metadata.managedFields as the field manager holds it: one entry per
// manager identifier (upstream BuildManagerIdentifier: manager, operation,
// subresource, and the apiVersion of Update entries), decoded from and encoded
// to ManagedFieldsEntry in upstream's order, validated as upstream's
// ValidateManagedFields, and capped at ten Update entries (capmanagers.go).

import type { FieldError, ManagedFieldsEntry } from '@kubelab/api';
import { FieldSet, fromFieldsV1, toFieldsV1, union } from './set.js';

export type Operation = 'Apply' | 'Update';

export interface Entry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

/** Identifier → entry. */
export type Managed = Map<string, Entry>;

/** Upstream's manager identifier: the entry without time and fields (and without apiVersion when applied). */
export function identifier(e: Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const id: Record<string, string> = { manager: e.manager, operation: e.operation };
  if (e.operation === 'Update') id.apiVersion = e.apiVersion;
  if (e.subresource) id.subresource = e.subresource;
  return JSON.stringify(id);
}

/** Upstream's limit on the length of a manager name (and of a subresource name). */
export const MAX_MANAGER_LENGTH = 128;
const MAX_SUBRESOURCE_LENGTH = 256;

/**
 * Problems with managedFields sent in a request (upstream ValidateManagedFields,
 * on what would be stored: an entry that owns nothing, like the `[{}]` that
 * resets them, is dropped rather than checked).
 */
export function validateManagedFields(entries: unknown, path = 'metadata.managedFields'): FieldError[] {
  if (!Array.isArray(entries)) return [{ type: 'FieldValueInvalid', field: path, detail: 'must be a list' }];
  const errs: FieldError[] = [];
  entries.forEach((raw: unknown, i) => {
    const p = `${path}[${i}]`;
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as ManagedFieldsEntry;
    if (e.fieldsV1 === undefined || (typeof e.fieldsV1 === 'object' && e.fieldsV1 !== null && Object.keys(e.fieldsV1).length === 0)) return;
    if (e.operation !== 'Apply' && e.operation !== 'Update') errs.push({ type: 'FieldValueInvalid', field: `${p}.operation`, badValue: e.operation ?? '', detail: 'must be `Apply` or `Update`' });
    if (e.fieldsType !== undefined && e.fieldsType !== '' && e.fieldsType !== 'FieldsV1')
      errs.push({ type: 'FieldValueInvalid', field: `${p}.fieldsType`, badValue: e.fieldsType, detail: 'must be `FieldsV1`' });
    if (typeof e.manager === 'string' && e.manager.length > MAX_MANAGER_LENGTH)
      errs.push({ type: 'FieldValueTooLong', field: `${p}.manager`, detail: `must have at most ${MAX_MANAGER_LENGTH} bytes` });
    if (typeof e.subresource === 'string' && e.subresource.length > MAX_SUBRESOURCE_LENGTH)
      errs.push({ type: 'FieldValueTooLong', field: `${p}.subresource`, detail: `must have at most ${MAX_SUBRESOURCE_LENGTH} bytes` });
    if (e.fieldsV1 !== undefined) {
      try {
        fromFieldsV1(e.fieldsV1);
      } catch (err) {
        errs.push({ type: 'FieldValueInvalid', field: `${p}.fieldsV1`, badValue: '', detail: (err as Error).message });
      }
    }
  });
  return errs;
}

/** Decodes valid entries (validate first); entries of one identifier are joined. */
export function decodeManaged(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const m: Managed = new Map();
  for (const raw of entries ?? []) {
    const e: Entry = {
      manager: raw.manager ?? '',
      operation: raw.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: raw.apiVersion ?? '',
      set: raw.fieldsV1 === undefined ? new FieldSet() : fromFieldsV1(raw.fieldsV1),
    };
    if (raw.time) e.time = raw.time;
    if (raw.subresource) e.subresource = raw.subresource;
    const id = identifier(e);
    const prev = m.get(id);
    m.set(id, prev ? { ...prev, set: union(prev.set, e.set) } : e);
  }
  return m;
}

/** Upstream's order: Apply before Update, then oldest first, then manager, apiVersion, subresource. */
function order(a: Entry, b: Entry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  const at = a.time ? Date.parse(a.time) : 0;
  const bt = b.time ? Date.parse(b.time) : 0;
  if (at !== bt) return at - bt;
  for (const k of ['manager', 'apiVersion', 'subresource'] as const) {
    const x = a[k] ?? '';
    const y = b[k] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The entries as stored, in Go's field order; managers that own nothing are dropped. */
export function encodeManaged(m: Managed): ManagedFieldsEntry[] {
  return [...m.values()]
    .filter((e) => !e.set.empty)
    .sort(order)
    .map((e) => {
      const out: ManagedFieldsEntry = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
      if (e.time) out.time = e.time;
      out.fieldsType = 'FieldsV1';
      out.fieldsV1 = toFieldsV1(e.set);
      if (e.subresource) out.subresource = e.subresource;
      return out;
    });
}

/** Upstream's cap on Update entries (DefaultMaxUpdateManagers) and the entry the oldest are folded into. */
export const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

/** Folds the oldest Update entries into "ancient-changes" until at most MAX_UPDATE_MANAGERS remain. */
export function capUpdateManagers(m: Managed, max = MAX_UPDATE_MANAGERS): Managed {
  const updates = [...m.entries()].filter(([, e]) => e.operation === 'Update' && !e.set.empty);
  if (updates.length <= max) return m;
  const out: Managed = new Map(m);
  updates.sort(([, a], [, b]) => order(a, b));
  let ancientId = updates.find(([, e]) => e.manager === ANCIENT_CHANGES)?.[0];
  let count = updates.length;
  for (const [id, e] of updates) {
    if (count <= max) break;
    if (e.manager === ANCIENT_CHANGES) continue;
    const prev = ancientId ? out.get(ancientId) : undefined;
    const ancient: Entry = prev ? { ...prev, set: union(prev.set, e.set) } : { manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: e.apiVersion, set: e.set };
    if (e.time) ancient.time = e.time;
    out.delete(id);
    if (!ancientId) {
      ancientId = identifier(ancient);
      // Folding the first one into a new entry leaves the count as it was.
    } else count--;
    out.set(ancientId, ancient);
  }
  return out;
}
