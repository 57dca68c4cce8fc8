// The JSON an object was served from, kept beside the parsed object so the
// transports can write stored bytes through instead of re-serializing
// (upstream's cacher keeps a cached serialization per object likewise).

import type { KubeObject } from '@kubelab/api';

interface RawHolder {
  text: string;
  buf?: Buffer;
}

/** Where an object carries its JSON: an own symbol property (never serialized, never enumerated). */
const RAW = Symbol('kubelab.raw');
/** Frozen objects cannot take the property: their JSON is kept beside them. */
const raws = new WeakMap<object, RawHolder>();

type WithRaw = { [RAW]?: RawHolder };

/**
 * Keeps the object's JSON (and its UTF-8 bytes when already at hand). Call it
 * before freezing: a property lookup costs less than a WeakMap entry, whose
 * ephemeron every garbage collection has to trace (one per cached object).
 */
export function attachRaw(obj: object, text: string, buf?: Buffer): void {
  const h: RawHolder = buf ? { text, buf } : { text };
  if (Object.isExtensible(obj)) Object.defineProperty(obj, RAW, { value: h, writable: true, configurable: true, enumerable: false });
  else raws.set(obj, h);
}

function holder(obj: object): RawHolder | undefined {
  return (obj as WithRaw)[RAW] ?? raws.get(obj);
}

/** The object's JSON bytes if it came from the cache unchanged, else a fresh encoding. */
export function rawJson(obj: KubeObject | object): Buffer {
  const h = holder(obj);
  if (!h) return Buffer.from(JSON.stringify(obj));
  h.buf ??= Buffer.from(h.text);
  return h.buf;
}

/** The JSON text of an object (cached if known). */
export function rawText(obj: KubeObject | object): string {
  return holder(obj)?.text ?? JSON.stringify(obj);
}

export function hasRaw(obj: object): boolean {
  return holder(obj) !== undefined;
}

/** Freezes an object graph: cache objects are shared by every reader. */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}
