// RFC 7386 JSON Merge Patch (application/merge-patch+json): objects merge
// recursively, null deletes, everything else (lists included) replaces.

import { clone, isObject } from './util.js';

export function applyMergePatch(original: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, unknown> = isObject(original) ? { ...original } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete result[k];
    else result[k] = applyMergePatch(result[k], v);
  }
  return result;
}
