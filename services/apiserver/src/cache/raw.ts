// The JSON an object was served from, kept beside the parsed object so the
// transports can write stored bytes through instead of re-serializing
// (upstream's cacher keeps a cached serialization per object likewise).

import type { KubeObject } from '@kubelab/api';

interface RawHolder {
  text: string;
  buf?: Buffer;
}

const raws = new WeakMap<object, RawHolder>();

/** Keeps the object's JSON (and its UTF-8 bytes when already at hand). */
export function attachRaw(obj: object, text: string, buf?: Buffer): void {
  raws.set(obj, buf ? { text, buf } : { text });
}

/** The object's JSON bytes if it came from the cache unchanged, else a fresh encoding. */
export function rawJson(obj: KubeObject | object): Buffer {
  const h = raws.get(obj);
  if (!h) return Buffer.from(JSON.stringify(obj));
  h.buf ??= Buffer.from(h.text);
  return h.buf;
}

/** The JSON text of an object (cached if known). */
export function rawText(obj: KubeObject | object): string {
  return raws.get(obj)?.text ?? JSON.stringify(obj);
}

export function hasRaw(obj: object): boolean {
  return raws.has(obj);
}

/** Freezes an object graph: cache objects are shared by every reader. */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}
