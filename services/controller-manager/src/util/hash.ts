// The pod-template-hash (controller.ComputeHash): FNV-1a 32 over the template
// plus the collision count, its decimal text mapped into the alphabet of
// rand.SafeEncodeString (no vowels, no look-alike digits). kubelab hashes a
// canonical JSON of the template where upstream hashes a Go dump of the
// struct, so the values differ from a real cluster's; the shape is the same.

import { semanticJson, type PodTemplateSpec } from '@kubelab/api';

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

/** The template as Go would decode it (a null creationTimestamp, as rollout undo sends, equals none). */
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
