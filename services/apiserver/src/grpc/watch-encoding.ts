// WatchEvent messages encoded once per event and shared by every watcher
// (upstream's cacher likewise serializes a watch event once for all its
// watchers: cachingObject). An event is encoded as a WatchEvent.batch item
// (field 3: tag, length, then the WatchEvent's own bytes); one watcher's batch
// is those items back to back, and a lone event is the item without its
// 1-6 byte field header. The Watch method's serializer passes such bytes
// through untouched.

import type * as grpc from '@grpc/grpc-js';
import type { KubeObject } from '@kubelab/api';
import { rawJson } from '../cache/raw.js';

/** Bytes for one varint. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function writeVarint(buf: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[at++] = n;
  return at;
}

/** An encoded event: `item` is the batch item; `event` the lone WatchEvent (a view into item). */
export interface EncodedEvent {
  item: Buffer;
  event: Buffer;
}

/** Encodes WatchEvent{type, object} as a batch item (pure; field numbers from apiserver.proto). */
export function encodeWatchEvent(type: string, object: Buffer): EncodedEvent {
  const typeLen = Buffer.byteLength(type);
  const body = (typeLen > 0 ? 1 + varintSize(typeLen) + typeLen : 0) + (object.length > 0 ? 1 + varintSize(object.length) + object.length : 0);
  const head = 1 + varintSize(body);
  const buf = Buffer.allocUnsafe(head + body);
  buf[0] = 0x1a; // field 3 (batch), length-delimited
  let at = writeVarint(buf, 1, body);
  if (typeLen > 0) {
    buf[at++] = 0x0a; // field 1 (type)
    at = writeVarint(buf, at, typeLen);
    at += buf.write(type, at, 'utf8');
  }
  if (object.length > 0) {
    buf[at++] = 0x12; // field 2 (object)
    at = writeVarint(buf, at, object.length);
    object.copy(buf, at);
  }
  return { item: buf, event: buf.subarray(head) };
}

const cache = new WeakMap<object, Map<string, EncodedEvent>>();

/** The event's encoding, built once per (object, type): cache objects are shared by every watcher. */
export function encodedEvent(ev: { type: string; object: KubeObject | object }): EncodedEvent {
  let byType = cache.get(ev.object);
  let enc = byType?.get(ev.type);
  if (enc) return enc;
  enc = encodeWatchEvent(ev.type, rawJson(ev.object));
  if (!byType) cache.set(ev.object, (byType = new Map()));
  byType.set(ev.type, enc);
  return enc;
}

/**
 * One message for a watcher: a lone event, or (allow_batch) the events as
 * WatchEvent.batch — as the list of item bytes, joined only by the serializer.
 */
export function watchMessage(evs: ReadonlyArray<{ type: string; object: KubeObject | object }>, batch: boolean): Array<Buffer | Buffer[]> {
  if (!batch || evs.length === 1) return evs.map((ev) => encodedEvent(ev).event);
  return [evs.map((ev) => encodedEvent(ev).item)];
}

let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Joins batch items into a shared scratch buffer: grpc-js copies the
 * serializer's result into its own framed buffer at once (serializeMessage),
 * so one buffer serves every message instead of a fresh one per watcher.
 */
export function joinItems(items: Buffer[]): Buffer {
  let size = 0;
  for (const b of items) size += b.length;
  if (size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  let at = 0;
  for (const b of items) at += b.copy(scratch, at);
  return scratch.subarray(0, size);
}

/**
 * The service definition with a Watch serializer that writes pre-encoded
 * bytes through (anything else still goes through protobuf).
 */
export function withEncodedWatch(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const watch = service.Watch as grpc.MethodDefinition<unknown, unknown> | undefined;
  if (!watch) return service;
  const serialize = watch.responseSerialize;
  return {
    ...service,
    Watch: { ...watch, responseSerialize: (v: unknown) => (Buffer.isBuffer(v) ? v : Array.isArray(v) ? joinItems(v as Buffer[]) : serialize(v)) },
  };
}

interface ResettableStream {
  close(code?: number): void;
  destroyed: boolean;
}

/** NGHTTP2_CANCEL: the RST_STREAM code a cancelled call carries. */
const NGHTTP2_CANCEL = 8;

/**
 * Resets the HTTP/2 stream under a server call whose client stopped reading:
 * ending it normally would wait behind the unsent messages forever. grpc-js
 * has no public cancel for a server call, so this finds the stream through
 * its call layers (bounded), and falls back to destroying the call's writable
 * (which at least drops its queued messages).
 */
export function resetCall(call: object): void {
  let layer: unknown = call;
  for (let depth = 0; depth < 6 && layer && typeof layer === 'object'; depth++) {
    const l = layer as { stream?: Partial<ResettableStream>; call?: unknown; nextCall?: unknown };
    const s = l.stream;
    if (s && typeof s.close === 'function') {
      if (!s.destroyed) s.close(NGHTTP2_CANCEL);
      return;
    }
    layer = l.nextCall ?? l.call;
  }
  (call as { destroy?: () => void }).destroy?.();
}
