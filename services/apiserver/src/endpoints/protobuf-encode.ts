// Encoding responses as `application/vnd.kubernetes.protobuf` (upstream:
// apimachinery's runtime/serializer/protobuf): an object is the magic
// `k8s\0` and a runtime.Unknown {1 typeMeta {1 apiVersion, 2 kind}, 2 raw,
// 3 contentEncoding, 4 contentType} whose raw is the object's message in the
// generated.proto numbers the schema carries (protobuf.ts decodes the same);
// a list is the <Kind>List message {1 ListMeta, 2 repeated items}; a watch is
// a stream of length-prefixed WatchEvent messages {1 type, 2 RawExtension
// {1 raw: the object encoded as above}}. Fields are written in number order,
// map entries by key, as Go's marshaller does; a field absent from the JSON
// is absent on the wire (a Go pointer stays nil, a value decodes as zero).

import { elementType, isPrimitiveType, protobufNumber, PROTOBUF_NUMBERS, SCHEMA, structOf, type KubeList, type KubeObject, type Status } from '@kubelab/api';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const PROTOBUF_WATCH = 'application/vnd.kubernetes.protobuf;stream=watch';

const MAGIC = Buffer.from('k8s\0', 'latin1');

/** A value the encoder has no message for (a free-form field upstream types): the response falls back to JSON. */
export class NotEncodableError extends Error {
  override readonly name = 'NotEncodableError';
}

/** A growable byte buffer with protobuf's primitives. */
class Writer {
  buf = Buffer.allocUnsafe(1024);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** An unsigned varint up to 2^53, or a negative int as Go writes int32/int64: ten-byte two's complement. */
  varint(v: number): void {
    this.ensure(10);
    if (v < 0) {
      let b = BigInt.asUintN(64, BigInt(v));
      while (b >= 0x80n) {
        this.buf[this.pos++] = Number(b & 0x7fn) | 0x80;
        b >>= 7n;
      }
      this.buf[this.pos++] = Number(b);
      return;
    }
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  tag(no: number, wire: number): void {
    this.varint(no * 8 + wire);
  }

  bytes(no: number, b: Uint8Array): void {
    this.tag(no, 2);
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  string(no: number, s: string): void {
    this.tag(no, 2);
    const n = Buffer.byteLength(s);
    this.varint(n);
    this.ensure(n);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  int(no: number, v: number): void {
    this.tag(no, 0);
    this.varint(v);
  }

  double(no: number, v: number): void {
    this.tag(no, 1);
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** A nested message: written into a child, then copied in with its length. */
  message(no: number, fill: (w: Writer) => void): void {
    const child = new Writer();
    fill(child);
    this.bytes(no, child.finish());
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

type Obj = Record<string, unknown>;

/** One entry of a message in wire order: a field, or an embedded struct's fields under one number. */
type Entry = { no: number; name: string; type: string } | { no: number; embedded: { no: number; name: string; type: string }[] };

const layouts = new Map<string, Entry[]>();

/** The fields of a schema type in field-number order, embedded structs grouped (cached per type). */
function layout(typeName: string): Entry[] {
  let l = layouts.get(typeName);
  if (l) return l;
  const plain: Entry[] = [];
  const embedded = new Map<number, { no: number; name: string; type: string }[]>();
  for (const [name, [type]] of Object.entries(SCHEMA[typeName]?.fields ?? {})) {
    const no = protobufNumber(typeName, name);
    if (no === undefined) continue;
    if (typeof no === 'number') plain.push({ no, name, type });
    else {
      const group = embedded.get(no[0]) ?? [];
      group.push({ no: no[1], name, type });
      embedded.set(no[0], group);
    }
  }
  for (const [no, fs] of embedded) plain.push({ no, embedded: fs.sort((a, b) => a.no - b.no) });
  l = plain.sort((a, b) => a.no - b.no);
  layouts.set(typeName, l);
  return l;
}

/** metav1.Time / MicroTime: Timestamp {1 seconds, 2 nanos} from RFC 3339 (fractions kept to the nanosecond). */
function timestamp(w: Writer, s: string): void {
  const m = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(s);
  const ms = Date.parse(m ? `${m[1]}${m[3]}` : s);
  if (Number.isNaN(ms)) throw new NotEncodableError(`not a time: ${s}`);
  w.int(1, Math.floor(ms / 1000));
  w.int(2, m?.[2] ? Number(m[2].padEnd(9, '0')) : 0);
}

function scalar(w: Writer, no: number, type: string, v: unknown, field: string): void {
  switch (type) {
    case 'string':
      return w.string(no, String(v));
    case 'int32':
    case 'int64':
      return w.int(no, Number(v));
    case 'boolean':
      return w.int(no, v ? 1 : 0);
    case 'number':
      return w.double(no, Number(v));
    case 'bytes':
      return w.bytes(no, Buffer.from(String(v), 'base64'));
    case 'object':
      return freeForm(w, no, field, v);
    case 'Time':
    case 'MicroTime':
      return w.message(no, (c) => timestamp(c, String(v)));
    case 'Quantity':
      return w.message(no, (c) => c.string(1, String(v)));
    case 'IntOrString':
      // Go writes all three: type (0 Int, 1 String), intVal, strVal.
      return w.message(no, (c) => {
        const isString = typeof v === 'string';
        c.int(1, isString ? 1 : 0);
        c.int(2, isString ? 0 : Number(v));
        c.string(3, isString ? v : '');
      });
  }
  if (!structOf(type)) throw new NotEncodableError(`no message for ${type}`);
  w.message(no, (c) => encodeMessage(c, v as Obj, type));
}

/**
 * The free-form fields whose upstream message is known: FieldsV1 and a
 * ControllerRevision's data (runtime.RawExtension), both {1 raw JSON}, and
 * map<string, ExtraValue {1 repeated string}>.
 */
function freeForm(w: Writer, no: number, field: string, v: unknown): void {
  if (field === 'fieldsV1' || field === 'data') return w.message(no, (c) => c.bytes(1, Buffer.from(JSON.stringify(v))));
  if (field === 'extra' && v && typeof v === 'object') {
    for (const key of Object.keys(v).sort()) {
      w.message(no, (e) => {
        e.string(1, key);
        e.message(2, (ev) => {
          for (const s of ((v as Obj)[key] as unknown[] | null) ?? []) ev.string(1, String(s));
        });
      });
    }
    return;
  }
  throw new NotEncodableError(`the free-form field ${field} has no message here`);
}

function field(w: Writer, no: number, name: string, type: string, v: unknown): void {
  if (v === null || v === undefined) return;
  if (type.startsWith('[]')) {
    const item = elementType(type);
    for (const x of v as unknown[]) if (x !== null) scalar(w, no, item, x, name);
    return;
  }
  if (type.startsWith('map[string]')) {
    const value = elementType(type);
    const m = v as Obj;
    for (const key of Object.keys(m).sort()) {
      w.message(no, (e) => {
        e.string(1, key);
        const x = m[key];
        if (x !== null && x !== undefined) {
          if (value.startsWith('[]')) e.message(2, (list) => field(list, 1, name, value, x));
          else scalar(e, 2, value, x, name);
        }
      });
    }
    return;
  }
  scalar(w, no, type, v, name);
}

/** The message of schema type `typeName` for a JSON value. */
export function encodeMessage(w: Writer, obj: Obj, typeName: string): void {
  for (const e of layout(typeName)) {
    if ('embedded' in e) {
      // Go always writes an embedded struct, empty or not.
      w.message(e.no, (c) => {
        for (const f of e.embedded) field(c, f.no, f.name, f.type, obj[f.name]);
      });
    } else field(w, e.no, e.name, e.type, obj[e.name]);
  }
}

/** Whether `kind` has a message here: a described top-level kind whose fields are numbered (not Table, PartialObjectMetadata, nor yet CustomResourceDefinition). */
export function hasProtobuf(kind: string): boolean {
  return !!SCHEMA[kind]?.fields?.metadata && !isPrimitiveType(kind) && PROTOBUF_NUMBERS[kind] !== undefined;
}

function unknown(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const w = new Writer();
  w.message(1, (t) => {
    t.string(1, apiVersion);
    t.string(2, kind);
  });
  w.bytes(2, raw);
  w.string(3, '');
  w.string(4, '');
  return Buffer.concat([MAGIC, w.finish()]);
}

/** One object as a protobuf response body. */
export function encodeObject(obj: KubeObject, kind: string): Buffer {
  const w = new Writer();
  encodeMessage(w, obj as unknown as Obj, kind);
  // `kind` names the schema type (EventsEvent); the envelope carries the object's own kind.
  return unknown(obj.apiVersion ?? '', obj.kind ?? kind, w.finish());
}

/** metav1.ListMeta {1 selfLink, 2 resourceVersion, 3 continue, 4 remainingItemCount}. */
function listMeta(w: Writer, m: KubeList['metadata']): void {
  w.string(1, '');
  w.string(2, m.resourceVersion ?? '');
  w.string(3, m.continue ?? '');
  if (m.remainingItemCount !== undefined) w.int(4, m.remainingItemCount);
}

/**
 * Messages of the watch cache's objects, which are frozen and shared: encoded
 * once, reused by every list until the object is replaced (upstream's cacher
 * keeps one serialization per object and encoding likewise).
 */
const encodedItems = new WeakMap<object, Buffer>();

function itemMessage(item: KubeObject, kind: string): Buffer {
  const cached = encodedItems.get(item);
  if (cached) return cached;
  const w = new Writer();
  encodeMessage(w, item as unknown as Obj, kind);
  const b = Buffer.from(w.finish());
  if (Object.isFrozen(item)) encodedItems.set(item, b);
  return b;
}

/** A list as a protobuf response body: <Kind>List {1 metadata, 2 items}. */
export function encodeList(list: KubeList, apiVersion: string, kind: string, listKind: string): Buffer {
  const w = new Writer();
  w.message(1, (m) => listMeta(m, list.metadata));
  for (const item of list.items) w.bytes(2, itemMessage(item, kind));
  return unknown(apiVersion, listKind, w.finish());
}

/** metav1.Status {1 metadata, 2 status, 3 message, 4 reason, 5 details, 6 code}, for a watch's ERROR event. */
function status(w: Writer, s: Status): void {
  w.message(1, (m) => listMeta(m, {}));
  w.string(2, s.status ?? '');
  w.string(3, s.message ?? '');
  w.string(4, s.reason ?? '');
  if (s.details) {
    const d = s.details;
    w.message(5, (c) => {
      c.string(1, d.name ?? '');
      c.string(2, d.group ?? '');
      c.string(3, d.kind ?? '');
      for (const cause of d.causes ?? [])
        c.message(4, (x) => {
          x.string(1, cause.reason ?? '');
          x.string(2, cause.message ?? '');
          x.string(3, cause.field ?? '');
        });
      c.int(5, d.retryAfterSeconds ?? 0);
      c.string(6, d.uid ?? '');
    });
  }
  w.int(6, s.code ?? 0);
}

/** One frame of a protobuf watch: a 4-byte big-endian length, then WatchEvent {1 type, 2 RawExtension {1 raw}}. */
export function encodeWatchEvent(type: string, object: KubeObject | Status, kind: string): Buffer {
  const isStatus = type === 'ERROR';
  let raw: Buffer;
  if (isStatus) {
    const w = new Writer();
    status(w, object as Status);
    raw = unknown('v1', 'Status', w.finish());
  } else raw = encodeObject(object as KubeObject, kind);
  const w = new Writer();
  w.string(1, type);
  w.message(2, (r) => r.bytes(1, raw));
  const body = w.finish();
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}
