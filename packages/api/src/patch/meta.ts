// Patch metadata of the kinds kubelab serves: which lists merge by which key
// and which use retainKeys (upstream: the `patchStrategy`/`patchMergeKey`
// struct tags of k8s.io/api, read by strategicpatch.LookupPatchMetadata).
// Derived from the schema's field options; lists without a strategy are
// atomic: a patch replaces them whole.

import { SCHEMA, elementType, structOf, type PatchStrategy } from '../schema/index.js';

export type { PatchStrategy };

export interface FieldPatchMeta {
  /** The type of the field's value, or of each item for a list. */
  type?: string;
  /** How a patch combines lists (and retainKeys maps); absent: replace. */
  strategy?: PatchStrategy;
  /** For lists of objects merged by key: the key field (`name`, `containerPort`). */
  mergeKey?: string;
}

export type TypePatchMeta = Record<string, FieldPatchMeta>;

/**
 * The metadata of one type, or undefined when nothing in it (or below it)
 * is merged other than the default way. A field names the struct it holds
 * only when that struct has metadata, so the table stays as small as the
 * tags: the merge needs the name only to find them.
 */
function typePatchMeta(name: string, memo: Map<string, TypePatchMeta | undefined>): TypePatchMeta | undefined {
  if (memo.has(name)) return memo.get(name);
  memo.set(name, undefined); // a type that (indirectly) holds itself adds nothing to its own metadata
  const meta: TypePatchMeta = {};
  for (const [field, [type, , options = {}]] of Object.entries(SCHEMA[name]?.fields ?? {})) {
    const entry: FieldPatchMeta = {};
    const struct = structOf(type) ? elementType(type) : undefined;
    if (struct && typePatchMeta(struct, memo)) entry.type = struct;
    if (options.patchStrategy) entry.strategy = options.patchStrategy;
    if (options.patchMergeKey) entry.mergeKey = options.patchMergeKey;
    if (Object.keys(entry).length) meta[field] = entry;
  }
  const result = Object.keys(meta).length ? meta : undefined;
  memo.set(name, result);
  return result;
}

function derivePatchMeta(): Record<string, TypePatchMeta> {
  const memo = new Map<string, TypePatchMeta | undefined>();
  const out: Record<string, TypePatchMeta> = {};
  for (const name of Object.keys(SCHEMA)) {
    const meta = typePatchMeta(name, memo);
    if (meta) out[name] = meta;
  }
  return out;
}

/** Type name → field → patch metadata. Type names are the Go struct names. */
export const PATCH_META: Readonly<Record<string, TypePatchMeta>> = derivePatchMeta();

/** The patch metadata of one field of a type, if the type is known. */
export function fieldPatchMeta(typeName: string | undefined, field: string): FieldPatchMeta | undefined {
  if (!typeName) return undefined;
  return PATCH_META[typeName]?.[field];
}
