// The stored encoding: the object's JSON with apiVersion, kind and metadata
// first and metadata.resourceVersion left out (etcd3's store clears it too:
// the revision lives in the key's mod_revision, here the KV sequence). Putting
// metadata at a known place lets a reader splice the revision into the stored
// bytes instead of re-encoding the whole object.

import type { KubeObject } from '@kubelab/api';

const decoder = new TextDecoder();

/** Serializes an object for storage (one JSON.stringify). */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  return Buffer.from(storageString(obj));
}

export function storageString(obj: KubeObject): string {
  // A created object usually has this order already (clients send it so): one stringify, no reordered copies.
  if (inStorageOrder(obj)) return JSON.stringify(obj);
  const { apiVersion, kind, metadata, ...rest } = obj as KubeObject & Record<string, unknown>;
  const { resourceVersion: _rv, ...meta } = metadata ?? {};
  return JSON.stringify({ apiVersion, kind, metadata: meta, ...rest });
}

const STORAGE_HEAD = ['apiVersion', 'kind', 'metadata'] as const;

/** Whether the object's own keys start apiVersion, kind, metadata (all set) and its metadata holds no resourceVersion. */
function inStorageOrder(obj: KubeObject): boolean {
  const m = obj.metadata as KubeObject['metadata'] | undefined;
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || typeof m !== 'object' || m === null || m.resourceVersion !== undefined) return false;
  let i = 0;
  for (const k in obj) {
    if (k !== STORAGE_HEAD[i]) return false;
    if (++i === STORAGE_HEAD.length) return true;
  }
  return false;
}

/** The last prefix asked for: a store writes one apiVersion and kind over and over. */
let lastPrefix = { apiVersion: undefined as string | undefined, kind: undefined as string | undefined, text: '{"metadata":{' };

/** Where `"metadata":{` ends in a string produced by storageString, or -1. */
export function metadataBodyOffset(text: string, obj: KubeObject): number {
  if (obj.apiVersion !== lastPrefix.apiVersion || obj.kind !== lastPrefix.kind) {
    let prefix = '{';
    if (obj.apiVersion !== undefined) prefix += `"apiVersion":${JSON.stringify(obj.apiVersion)},`;
    if (obj.kind !== undefined) prefix += `"kind":${JSON.stringify(obj.kind)},`;
    lastPrefix = { apiVersion: obj.apiVersion, kind: obj.kind, text: `${prefix}"metadata":{` };
  }
  const prefix = lastPrefix.text;
  return text.startsWith(prefix) ? prefix.length : -1;
}

const NON_ASCII = /[^\x00-\x7f]/; // eslint-disable-line no-control-regex -- the ASCII range starts at NUL

/** The UTF-8 byte offset of `"metadata":{`'s end in storageString's output (the revision goes there), or -1. */
export function revisionOffset(text: string, obj: KubeObject): number {
  const at = metadataBodyOffset(text, obj);
  if (at < 0) return at;
  // A char offset is the byte offset unless apiVersion or kind are exotic.
  const head = text.slice(0, at);
  return NON_ASCII.test(head) ? Buffer.byteLength(head) : at;
}

/**
 * An object's JSON as the transports send it: UTF-8 bytes with the revision
 * in, and where the `"resourceVersion":"N"` segment (with its comma) sits,
 * so a DELETED event or a no-op check can change or drop it without decoding.
 * Only bytes are kept: a string copy of every cached object would double what
 * the garbage collector copies for the cache (text is made when asked for).
 */
export interface WireJson {
  buf: Buffer;
  rvAt: number;
  rvLen: number;
}

function rvSegment(rv: string, more: boolean): string {
  return `"resourceVersion":${JSON.stringify(rv)}${more ? ',' : ''}`;
}

const CLOSE_BRACE = 0x7d;

/** Splices revision `rv` into stored bytes at byte offset `at` (just after `"metadata":{`), copying around it. */
export function spliceRevision(bytes: Uint8Array, at: number, rv: string): WireJson {
  const seg = rvSegment(rv, bytes[at] !== CLOSE_BRACE);
  const buf = Buffer.allocUnsafe(bytes.length + seg.length);
  buf.set(bytes.subarray(0, at), 0);
  buf.write(seg, at, 'latin1');
  buf.set(bytes.subarray(at), at + seg.length);
  return { buf, rvAt: at, rvLen: seg.length };
}

/** Decodes stored bytes once: the object (with resourceVersion set) and its wire JSON. */
export function decodeStored(bytes: Uint8Array, revision: number): { obj: KubeObject; wire: WireJson } {
  const text = decoder.decode(bytes);
  const obj = JSON.parse(text) as KubeObject;
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new Error('stored value is not an object with metadata');
  }
  const rv = String(revision);
  const at = obj.metadata.resourceVersion === undefined ? revisionOffset(text, obj) : -1;
  obj.metadata.resourceVersion = rv;
  return { obj, wire: at < 0 ? wireOf(obj) : spliceRevision(bytes, at, rv) };
}

/** Encodes an object that already carries its resourceVersion (fallback path). */
export function wireOf(obj: KubeObject): WireJson {
  const s = storageString(obj);
  const at = revisionOffset(s, obj);
  // storageString always starts with the prefix revisionOffset looks for.
  if (at < 0) throw new Error(`cannot place resourceVersion in ${s.slice(0, 80)}`);
  return spliceRevision(Buffer.from(s), at, obj.metadata.resourceVersion ?? '');
}

/** The same wire JSON with another resourceVersion (a DELETED event carries the deletion revision). */
export function withRevision(w: WireJson, rv: string): WireJson {
  const more = w.buf[w.rvAt + w.rvLen - 1] === 0x2c; // ','
  const seg = rvSegment(rv, more);
  const buf = Buffer.allocUnsafe(w.buf.length - w.rvLen + seg.length);
  w.buf.copy(buf, 0, 0, w.rvAt);
  buf.write(seg, w.rvAt, 'latin1');
  w.buf.copy(buf, w.rvAt + seg.length, w.rvAt + w.rvLen);
  return { buf, rvAt: w.rvAt, rvLen: seg.length };
}

/** Whether `stored` (storage bytes, no revision) is what `w` was made from: a no-op update writes nothing. */
export function storesAs(w: WireJson, stored: Uint8Array): boolean {
  const { buf, rvAt, rvLen } = w;
  if (buf.length - rvLen !== stored.length) return false;
  return buf.compare(stored, 0, rvAt, 0, rvAt) === 0 && buf.compare(stored, rvAt, stored.length, rvAt + rvLen) === 0;
}
