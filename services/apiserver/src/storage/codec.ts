// The stored encoding: the object's JSON with apiVersion, kind and metadata
// first and metadata.resourceVersion left out (etcd3's store clears it too:
// the revision lives in the key's mod_revision, here the KV sequence). Putting
// metadata at a known place lets a reader splice the revision into the stored
// bytes instead of re-encoding the whole object.

import type { KubeObject } from '@kubelab/api';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Serializes an object for storage (one JSON.stringify). */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  return encoder.encode(storageString(obj));
}

export function storageString(obj: KubeObject): string {
  const { apiVersion, kind, metadata, ...rest } = obj as KubeObject & Record<string, unknown>;
  const { resourceVersion: _rv, ...meta } = metadata ?? {};
  return JSON.stringify({ apiVersion, kind, metadata: meta, ...rest });
}

/** Where `"metadata":{` ends in a string produced by storageString, or -1. */
export function metadataBodyOffset(text: string, obj: KubeObject): number {
  let prefix = '{';
  if (obj.apiVersion !== undefined) prefix += `"apiVersion":${JSON.stringify(obj.apiVersion)},`;
  if (obj.kind !== undefined) prefix += `"kind":${JSON.stringify(obj.kind)},`;
  prefix += '"metadata":{';
  return text.startsWith(prefix) ? prefix.length : -1;
}

/** A wire encoding with the revision spliced in, and where it sits (to change it later). */
export interface WireJson {
  text: string;
  /** Offset and length of the `"resourceVersion":"N"` segment (with its comma). */
  rvAt: number;
  rvLen: number;
}

function rvSegment(rv: string, more: boolean): string {
  return `"resourceVersion":${JSON.stringify(rv)}${more ? ',' : ''}`;
}

/** An encoding as the transports send it: the wire JSON and its UTF-8 bytes. */
export interface WireForm {
  wire: WireJson;
  buf: Buffer;
}

const NON_ASCII = /[^\x00-\x7f]/; // eslint-disable-line no-control-regex -- the ASCII range starts at NUL

/**
 * Splices revision `rv` into stored text/bytes at `at` (just after `"metadata":{`).
 * The bytes are copied around the splice instead of re-encoding the text.
 */
export function spliceRevision(text: string, bytes: Uint8Array, at: number, rv: string): WireForm {
  const seg = rvSegment(rv, text[at] !== '}');
  const wire = { text: text.slice(0, at) + seg + text.slice(at), rvAt: at, rvLen: seg.length };
  // `at` is also a byte offset when everything before it is ASCII (it is unless apiVersion/kind are exotic).
  if (NON_ASCII.test(text.slice(0, at))) return { wire, buf: Buffer.from(wire.text) };
  const buf = Buffer.allocUnsafe(bytes.length + seg.length);
  buf.set(bytes.subarray(0, at), 0);
  buf.write(seg, at, 'latin1');
  buf.set(bytes.subarray(at), at + seg.length);
  return { wire, buf };
}

/** Decodes stored bytes once: the object (with resourceVersion set), its wire JSON and bytes. */
export function decodeStored(bytes: Uint8Array, revision: number): { obj: KubeObject; wire: WireJson; buf: Buffer } {
  const text = decoder.decode(bytes);
  const obj = JSON.parse(text) as KubeObject;
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new Error('stored value is not an object with metadata');
  }
  const rv = String(revision);
  const at = obj.metadata.resourceVersion === undefined ? metadataBodyOffset(text, obj) : -1;
  obj.metadata.resourceVersion = rv;
  if (at < 0) {
    const wire = wireOf(obj);
    return { obj, wire, buf: Buffer.from(wire.text) };
  }
  return { obj, ...spliceRevision(text, bytes, at, rv) };
}

/** Encodes an object that already carries its resourceVersion (fallback path). */
export function wireOf(obj: KubeObject): WireJson {
  const s = storageString(obj);
  const at = metadataBodyOffset(s, obj);
  const rv = obj.metadata.resourceVersion ?? '';
  const seg = rvSegment(rv, s[at] !== '}');
  return { text: s.slice(0, at) + seg + s.slice(at), rvAt: at, rvLen: seg.length };
}

/** The same wire JSON with another resourceVersion (a DELETED event carries the deletion revision). */
export function withRevision(w: WireJson, rv: string): WireJson {
  const more = w.text[w.rvAt + w.rvLen - 1] === ',';
  const seg = rvSegment(rv, more);
  return { text: w.text.slice(0, w.rvAt) + seg + w.text.slice(w.rvAt + w.rvLen), rvAt: w.rvAt, rvLen: seg.length };
}
