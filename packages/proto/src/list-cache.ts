// A relisting client's decoder. The kubelet lists every sandbox and container
// each second (upstream's generic PLEG relist), and from one relist to the
// next almost every element is byte for byte what it was: decoding a
// thousand unchanged CRI Containers again costs milliseconds and megabytes
// of garbage each time. A list response here is `repeated M <field> = 1`
// and nothing else, so its elements can be cut out of the wire bytes
// without decoding; an element whose bytes equal one of the previous
// answer's reuses that answer's decoded (frozen) object, and only the new
// or changed ones are decoded, together, by the method's own deserializer.

import type * as grpc from '@grpc/grpc-js';
import { deepFreeze } from '@kubelab/api';

/** Where each element of field 1 (`repeated` message, wire type 2) lies in `buf`; undefined when the message holds any other field. */
export function repeatedFieldSpans(buf: Uint8Array): Array<[start: number, end: number]> | undefined {
  const spans: Array<[number, number]> = [];
  let at = 0;
  while (at < buf.length) {
    // Field 1, length-delimited: the one-byte tag (1 << 3) | 2.
    if (buf[at] !== 0x0a) return undefined;
    at++;
    let len = 0;
    let shift = 0;
    for (;;) {
      if (at >= buf.length || shift > 28) return undefined;
      const b = buf[at++]!;
      len += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    if (at + len > buf.length) return undefined;
    spans.push([at, at + len]);
    at += len;
  }
  return spans;
}

function frame(len: number): Buffer {
  const head = [0x0a];
  let v = len;
  while (v >= 0x80) {
    head.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  head.push(v);
  return Buffer.from(head);
}

/**
 * A deserializer for a list response whose only field is `repeated M <field> = 1`,
 * reusing the previous answer's decoded elements where the bytes are the same.
 * Anything else (another field, a malformed message) goes to `plain` whole, so
 * errors and odd input are reported as the plain deserializer reports them.
 * State: the previous answer only (its bytes and objects), so memory is bounded by one answer.
 */
export function cachedListDeserializer<R>(field: string, plain: (buf: Buffer) => R): (buf: Buffer) => R {
  let prevBytes: Buffer[] = [];
  let prevItems: unknown[] = [];
  let empty: R | undefined; // the message's other fields at their defaults, decoded once
  return (buf) => {
    const spans = repeatedFieldSpans(buf);
    if (!spans) return plain(buf);
    const bytes = new Array<Buffer>(spans.length);
    const items = new Array<unknown>(spans.length);
    const missing: number[] = [];
    let byContent: Map<string, unknown> | undefined;
    for (let i = 0; i < spans.length; i++) {
      const b = buf.subarray(spans[i]![0], spans[i]![1]);
      bytes[i] = b;
      // In order first (a relist answers in the same order); else by content (an element came or went before this one).
      const p = prevBytes[i];
      if (p !== undefined && p.equals(b)) {
        items[i] = prevItems[i];
        continue;
      }
      if (byContent === undefined) {
        byContent = new Map();
        for (let j = 0; j < prevBytes.length; j++) byContent.set(prevBytes[j]!.toString('latin1'), prevItems[j]);
      }
      const hit = byContent.size > 0 ? byContent.get(b.toString('latin1')) : undefined;
      if (hit !== undefined) items[i] = hit;
      else missing.push(i);
    }
    if (missing.length > 0) {
      const parts: Buffer[] = [];
      for (const i of missing) parts.push(frame(bytes[i]!.length), bytes[i]!);
      const decoded = (plain(Buffer.concat(parts)) as Record<string, unknown[]>)[field]!;
      for (let k = 0; k < missing.length; k++) items[missing[k]!] = deepFreeze(decoded[k]);
    }
    prevBytes = bytes;
    prevItems = items;
    empty ??= plain(EMPTY);
    return { ...empty, [field]: items } as R;
  };
}

const EMPTY = Buffer.alloc(0);

/** `def` with each method in `lists` (method → its repeated field) decoding through a cache of its own; the others as they were. */
export function withListCache(def: grpc.ServiceDefinition, lists: Record<string, string>): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = { ...def };
  for (const [method, field] of Object.entries(lists)) {
    const m = def[method];
    if (!m) throw new Error(`no method ${method} to cache`);
    out[method] = { ...m, responseDeserialize: cachedListDeserializer(field, m.responseDeserialize as (buf: Buffer) => unknown) };
  }
  return out as grpc.ServiceDefinition;
}
