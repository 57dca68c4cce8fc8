// The JSON an object was served from, kept beside the parsed object so the
// transports can write stored bytes through instead of re-serializing
// (upstream's cacher keeps a cached serialization per object likewise).

import type { KubeObject } from '@kubelab/api';

/** The bytes an object was served from (storage/codec's WireJson is one). */
interface RawHolder {
  buf: Buffer;
}

/** Where an object carries its JSON: an own symbol property (never serialized, never enumerated). */
const RAW = Symbol('kubelab.raw');
/** Frozen objects cannot take the property: their JSON is kept beside them. */
const raws = new WeakMap<object, RawHolder>();

type WithRaw = { [RAW]?: RawHolder };

/**
 * Keeps the object's JSON bytes. Call it before freezing: a property lookup costs less than a WeakMap entry, whose
 * ephemeron every garbage collection has to trace (one per cached object).
 */
export function attachRaw(obj: object, h: RawHolder): void {
  if (Object.isExtensible(obj)) Object.defineProperty(obj, RAW, { value: h, writable: true, configurable: true, enumerable: false });
  else raws.set(obj, h);
}

function holder(obj: object): RawHolder | undefined {
  return (obj as WithRaw)[RAW] ?? raws.get(obj);
}

/** The object's JSON bytes if it came from the cache unchanged, else a fresh encoding. */
export function rawJson(obj: KubeObject | object): Buffer {
  return holder(obj)?.buf ?? Buffer.from(JSON.stringify(obj));
}

/** The JSON text of an object (decoded from its bytes if known). */
export function rawText(obj: KubeObject | object): string {
  return holder(obj)?.buf.toString('utf8') ?? JSON.stringify(obj);
}

const COMMA = Buffer.from(',');
const LIST_END = Buffer.from(']}');

/** A list's JSON: `head` (ending in `"items":[`), the items' bytes joined by commas, `]}` — items are not re-serialized. */
export function listBytes(head: string, items: readonly object[]): Buffer {
  const parts: Buffer[] = [Buffer.from(head)];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(rawJson(items[i]!));
  }
  parts.push(LIST_END);
  return Buffer.concat(parts);
}

export function hasRaw(obj: object): boolean {
  return holder(obj) !== undefined;
}
