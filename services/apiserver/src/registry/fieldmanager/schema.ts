// The shape server-side apply walks, derived from @kubelab/api's SCHEMA as
// upstream derives structured-merge-diff's schema from OpenAPI (kube-openapi
// schemaconv): structs and maps are granular unless `+structType`/`+mapType`
// says atomic; lists follow `x-kubernetes-list-type`, else their patch tags
// (merge with a key: a map list on that key, merge without: a set), else atomic.
// Free-form `object` fields are "deduced": objects granular, lists atomic.

import { SCHEMA, elementType, isPrimitiveType, type FieldDef } from '@kubelab/api';

export type TypeRef =
  | { kind: 'scalar' }
  | { kind: 'deduced' }
  | { kind: 'struct'; name: string; atomic: boolean }
  | { kind: 'map'; elem: TypeRef; atomic: boolean }
  | { kind: 'list'; elem: TypeRef; listType: 'atomic' | 'set' | 'map'; keys: readonly string[] };

export const SCALAR: TypeRef = { kind: 'scalar' };
export const DEDUCED: TypeRef = { kind: 'deduced' };

const fieldsMemo = new Map<string, Map<string, TypeRef>>();

/** The type a field (or item) of a schema type string has. */
export function refOf(type: string, options: FieldDef[2] = {}): TypeRef {
  if (type.startsWith('[]')) {
    const elem = refOf(elementType(type));
    const listType = options.listType ?? (options.patchStrategy?.includes('merge') ? (options.patchMergeKey ? 'map' : 'set') : 'atomic');
    const keys = listType === 'map' ? (options.listMapKeys ?? (options.patchMergeKey ? [options.patchMergeKey] : [])) : [];
    return { kind: 'list', elem, listType, keys };
  }
  if (type.startsWith('map[string]')) return { kind: 'map', elem: refOf(elementType(type)), atomic: options.mapType === 'atomic' };
  if (type === 'object') return DEDUCED;
  if (isPrimitiveType(type)) return SCALAR;
  const def = SCHEMA[type];
  if (!def?.fields) return SCALAR; // Time, IntOrString, Quantity: scalars on the wire
  return { kind: 'struct', name: type, atomic: def.structType === 'atomic' };
}

/** The fields of a described struct, resolved once. */
export function structFields(name: string): Map<string, TypeRef> {
  let m = fieldsMemo.get(name);
  if (m) return m;
  m = new Map();
  for (const [f, [type, , options]] of Object.entries(SCHEMA[name]?.fields ?? {})) m.set(f, refOf(type, options));
  fieldsMemo.set(name, m);
  return m;
}

/** The type of one member of a struct or map; unknown fields of a struct are deduced. */
export function memberRef(ref: TypeRef, name: string): TypeRef {
  if (ref.kind === 'struct') return structFields(ref.name).get(name) ?? DEDUCED;
  if (ref.kind === 'map') return ref.elem;
  return DEDUCED;
}

/** The root type of a kind (deduced when the schema does not describe it). */
export function kindRef(kind: string): TypeRef {
  return SCHEMA[kind]?.fields ? { kind: 'struct', name: kind, atomic: false } : DEDUCED;
}

/** Whether a ref's values are walked member by member. */
export function isGranularObject(ref: TypeRef): boolean {
  return (ref.kind === 'struct' || ref.kind === 'map') && !ref.atomic;
}
