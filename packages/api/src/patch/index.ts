// Patch application for the apiserver's PATCH verb: the four patch types
// kubectl and client-go send (upstream: apiserver/pkg/endpoints/handlers/patch.go).

import { applyJsonPatch } from './jsonpatch.js';
import { applyMergePatch } from './mergepatch.js';
import { applyStrategicMergePatch } from './strategic.js';
import { PATCH_META } from './meta.js';
import { badPatch } from './errors.js';
import { isObject } from './util.js';
import { unsupportedMediaType } from '../meta/status.js';

export { applyJsonPatch, parsePointer } from './jsonpatch.js';
export { applyMergePatch } from './mergepatch.js';
export { applyStrategicMergePatch } from './strategic.js';
export { createTwoWayMergePatch } from './two-way.js';
export { PATCH_META, fieldPatchMeta, type FieldPatchMeta, type PatchStrategy, type TypePatchMeta } from './meta.js';

export const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'] as const;

export type PatchTypeName = (typeof PATCH_TYPES)[number];

export function isPatchType(s: string): s is PatchTypeName {
  return (PATCH_TYPES as readonly string[]).includes(s);
}

/**
 * Applies `patch` of `patchType` to `original` and returns the new object;
 * `original` is never mutated. The strategic flavours read the merge keys of
 * `original.kind` (or `kind` when given). A string patch is parsed as JSON.
 * Throws a StatusError: 400 for a malformed patch, 422 when it does not apply.
 */
export function applyPatch(patchType: string, original: object, patch: unknown, kind?: string): object {
  const p = decode(patch);
  const typeName = typeOf(kind ?? (original as { kind?: unknown }).kind ?? (isObject(p) ? p.kind : undefined));
  switch (patchType) {
    case 'application/json-patch+json':
      return asObject(applyJsonPatch(original, p));
    case 'application/merge-patch+json':
      if (!isObject(p)) throw badPatch('merge patch: the patch must be a JSON object');
      return asObject(applyMergePatch(original, p));
    case 'application/strategic-merge-patch+json':
      return applyStrategicMergePatch(original, p, typeName);
    case 'application/apply-patch+yaml':
      // Server-side apply, simplified: the applied configuration is merged into
      // the live object with the strategic merge keys (fields it omits are kept).
      if (!isObject(p)) throw badPatch('apply patch: the applied configuration must be an object');
      return applyStrategicMergePatch(original, p, typeName);
    default:
      throw unsupportedMediaType(PATCH_TYPES);
  }
}

function decode(patch: unknown): unknown {
  if (typeof patch === 'string' || patch instanceof Uint8Array) {
    const text = typeof patch === 'string' ? patch : new TextDecoder().decode(patch);
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      throw badPatch(`error decoding patch: ${(e as Error).message}`);
    }
  }
  return patch;
}

function typeOf(kind: unknown): string | undefined {
  return typeof kind === 'string' && kind in PATCH_META ? kind : undefined;
}

function asObject(v: unknown): object {
  if (!isObject(v)) throw badPatch('the patched result is not a JSON object');
  return v;
}
