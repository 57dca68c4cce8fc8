// The pod-template-hash (controller.ComputeHash): FNV-1a 32 over the template
// plus the collision count, its decimal text mapped into the alphabet of
// rand.SafeEncodeString (no vowels, no look-alike digits). kubelab hashes a
// canonical JSON of the template where upstream hashes a Go dump of the
// struct, so the values differ from a real cluster's; the shape is the same.

import type { PodTemplateSpec } from '@kubelab/api';

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}

/** JSON with object keys sorted, so equal templates hash equally. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(v as Record<string, unknown>)
    .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * canonicalJson of the value as Go would decode it: null fields and empty
 * lists are absent (a nil pointer, a nil slice), so a template kubectl sent
 * with "creationTimestamp": null (rollout undo does) equals one without.
 */
export function semanticJson(v: unknown): string {
  return canonicalJson(prune(v));
}

function prune(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(prune);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === null || x === undefined || (Array.isArray(x) && x.length === 0)) continue;
    out[k] = prune(x);
  }
  return out;
}

export function computeHash(template: PodTemplateSpec | undefined, collisionCount?: number): string {
  const text = new TextEncoder().encode(semanticJson(template ?? {}));
  let h = fnv32a(text);
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}
