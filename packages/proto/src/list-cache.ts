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

/**
 * Where each element of field 1 (`repeated` message, wire type 2) lies in `buf`,
 * flat: element i spans [spans[2i], spans[2i+1]). Undefined when the message
 * holds any other field. Flat, not a pair per element: a relist's thousand
 * small arrays lived until the next relist and filled the old generation.
 */
export function repeatedFieldSpans(buf: Uint8Array): number[] | undefined {
  const spans: number[] = [];
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
    spans.push(at, at + len);
    at += len;
  }
  return spans;
}

const EMPTY = Buffer.alloc(0);

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
  // The previous answer: its bytes, where its elements lie in them, and their decoded objects.
  // Elements are compared in place (Buffer#compare with ranges): no view per element.
  let prevBuf: Buffer = EMPTY;
  let prevSpans: number[] = [];
  let prevItems: unknown[] = [];
  let empty: R | undefined; // the message's other fields at their defaults, decoded once
  return (buf) => {
    const spans = repeatedFieldSpans(buf);
    if (!spans) return plain(buf);
    const n = spans.length / 2;
    const items = new Array<unknown>(n);
    const missing: number[] = [];
    let byContent: Map<string, unknown> | undefined;
    for (let i = 0; i < n; i++) {
      const start = spans[2 * i]!;
      const end = spans[2 * i + 1]!;
      // In order first (a relist answers in the same order); else by content (an element came or went before this one).
      if (2 * i < prevSpans.length) {
        const ps = prevSpans[2 * i]!;
        const pe = prevSpans[2 * i + 1]!;
        if (pe - ps === end - start && buf.compare(prevBuf, ps, pe, start, end) === 0) {
          items[i] = prevItems[i];
          continue;
        }
      }
      if (byContent === undefined) {
        byContent = new Map();
        for (let j = 0; j < prevItems.length; j++) byContent.set(prevBuf.toString('latin1', prevSpans[2 * j], prevSpans[2 * j + 1]), prevItems[j]);
      }
      const hit = byContent.size > 0 ? byContent.get(buf.toString('latin1', start, end)) : undefined;
      if (hit !== undefined) items[i] = hit;
      else missing.push(i);
    }
    if (missing.length > 0) {
      const parts: Buffer[] = [];
      for (const i of missing) {
        const start = spans[2 * i]!;
        const end = spans[2 * i + 1]!;
        parts.push(frame(end - start), buf.subarray(start, end));
      }
      const decoded = (plain(Buffer.concat(parts)) as Record<string, unknown[]>)[field]!;
      for (let k = 0; k < missing.length; k++) items[missing[k]!] = deepFreeze(decoded[k]);
    }
    prevBuf = buf;
    prevSpans = spans;
    prevItems = items;
    empty ??= plain(EMPTY);
    return { ...empty, [field]: items } as R;
  };
}

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
