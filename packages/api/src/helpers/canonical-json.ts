// Canonical JSON: object keys sorted and absent fields left out, so equal
// content gives equal text whatever order or wire it came in. Hashes (the
// pod-template-hash, the kubelet's static-pod UID) are taken of this text, and
// comparisons (the registry's generation check, the Endpoints controller, the
// kubelet's status reconcile) use it where upstream compares decoded Go
// structs, in which field order never mattered.

export interface CanonicalJsonOptions {
  /** Leave out null fields, as Go decodes them to a nil pointer (the same as absent). */
  omitNull?: boolean;
  /** Leave out empty-list fields, as Go decodes them to a nil slice (the same as absent). */
  omitEmptyLists?: boolean;
}

/** JSON with object keys sorted (UTF-16 order) and undefined fields left out; undefined alone prints as null. */
export function canonicalJson(v: unknown, opts: CanonicalJsonOptions = {}): string {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(): unknown }).toJSON();
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x, opts)).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => {
      const x = o[k];
      return x !== undefined && !(opts.omitNull && x === null) && !(opts.omitEmptyLists && Array.isArray(x) && x.length === 0);
    })
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k], opts)}`).join(',')}}`;
}

/** canonicalJson of the value as Go would decode it: null fields and empty lists are absent. */
export const semanticJson = (v: unknown): string => canonicalJson(v, { omitNull: true, omitEmptyLists: true });
