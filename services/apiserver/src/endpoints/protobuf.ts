// Decoding `application/vnd.kubernetes.protobuf` request bodies, which
// kubectl 1.32's typed clients send for `kubectl create deployment|configmap|
// secret|namespace|service` and `kubectl create token` (TokenRequest). The body is the magic `k8s\0` and a
// runtime.Unknown {1 typeMeta {1 apiVersion, 2 kind}, 2 raw}; raw is the
// object in the field numbers of k8s.io/api's generated.proto, which the
// schema of @kubelab/api carries on its fields: the decoder walks the schema.

import {
  SCHEMA,
  PROTOBUF_NUMBERS,
  elementType,
  protobufNumber,
  formatTime,
  isPrimitiveType,
  structOf,
  unsupportedMediaType,
  lookupKind,
  schemaTypeOf,
  badRequest,
  type FieldType,
  type KubeObject,
  type PrimitiveType,
} from '@kubelab/api';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

/** A field of a message as the decoder reads it: the schema's field with a `protobuf` number. */
export interface WireField {
  name: string;
  type: FieldType;
  /** A pointer field in Go: a zero value was set on purpose, keep it. */
  keepZero: boolean;
  /** An embedded struct (inline in JSON): its own fields by number, decoded into the enclosing object. */
  embedded?: Map<number, WireField>;
}

const messages = new Map<string, Map<number, WireField>>();

/** The numbered fields of a schema type, by field number (the generated.proto numbers; fields of embedded structs are not read). */
export function protobufFields(typeName: string): Map<number, WireField> {
  let m = messages.get(typeName);
  if (m) return m;
  m = new Map();
  for (const [name, [type, , options]] of Object.entries(SCHEMA[typeName]?.fields ?? {})) {
    const no = protobufNumber(typeName, name);
    const field: WireField = { name, type, keepZero: options?.keepZero === true };
    if (typeof no === 'number') m.set(no, field);
    else if (no) {
      const outer = m.get(no[0]) ?? { name: '', type: '', keepZero: false, embedded: new Map() };
      outer.embedded!.set(no[1], field);
      m.set(no[0], outer);
    }
  }
  messages.set(typeName, m);
  return m;
}

/** The kinds this decoder reads: every described, numbered kind (one with metadata), as upstream takes protobuf for every built-in kind. */
export const PROTOBUF_KINDS: readonly string[] = Object.keys(SCHEMA).filter((k) => !!SCHEMA[k]!.fields?.metadata && PROTOBUF_NUMBERS[k] !== undefined);

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
  }
  bytes(): Uint8Array {
    const len = Number(this.varint());
    if (this.pos + len > this.buf.length) throw new Error('truncated length-delimited field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

const text = new TextDecoder();

function toInt(v: bigint): number {
  // int32/int64 negatives are ten-byte two's complement varints.
  return Number(BigInt.asIntN(64, v));
}

/** The raw fields of one message: field number → list of (wire type, value). */
function fields(buf: Uint8Array): Map<number, { wire: number; v: bigint | Uint8Array }[]> {
  const r = new Reader(buf);
  const out = new Map<number, { wire: number; v: bigint | Uint8Array }[]>();
  while (!r.done) {
    const tag = Number(r.varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    let v: bigint | Uint8Array;
    if (wire === 0) v = r.varint();
    else if (wire === 2) v = r.bytes();
    else {
      r.skip(wire);
      continue;
    }
    const arr = out.get(no) ?? [];
    arr.push({ wire, v });
    out.set(no, arr);
  }
  return out;
}

/** Quantity is message { string string = 1 }. */
function quantity(buf: Uint8Array): string {
  const v = fields(buf).get(1)?.at(-1)?.v;
  if (typeof v === 'bigint') throw new Error('field string: expected length-delimited data');
  return v ? text.decode(v) : '';
}

type PrimitiveDecoder = (raw: bigint | Uint8Array, bytes: () => Uint8Array) => unknown;
const varint = (raw: bigint | Uint8Array): number => (typeof raw === 'bigint' ? toInt(raw) : 0);

/** How each primitive reads off the wire; undefined where no numbered field has one (number is a fixed64 double, object raw JSON). */
const PRIMITIVE_DECODERS: Record<PrimitiveType, PrimitiveDecoder | undefined> = {
  string: (_raw, bytes) => text.decode(bytes()),
  bytes: (_raw, bytes) => Buffer.from(bytes()).toString('base64'),
  int32: varint,
  int64: varint,
  boolean: (raw) => (typeof raw === 'bigint' ? raw !== 0n : false),
  number: undefined,
  object: undefined,
};

/** One value of a field of type `type` (a single item for a list). */
function decodeValue(field: WireField, type: string, raw: bigint | Uint8Array): unknown {
  const bytes = (): Uint8Array => {
    if (typeof raw === 'bigint') throw new Error(`field ${field.name}: expected length-delimited data`);
    return raw;
  };
  const primitive = isPrimitiveType(type) ? PRIMITIVE_DECODERS[type] : undefined;
  if (primitive) return primitive(raw, bytes);
  switch (type) {
    case 'Time': {
      const fs = fields(bytes());
      const s = fs.get(1)?.[0]?.v;
      const seconds = typeof s === 'bigint' ? toInt(s) : 0;
      return seconds ? formatTime(seconds * 1000) : undefined;
    }
    case 'MicroTime': {
      // RFC 3339 with six fractional digits, as Go's MicroTime prints.
      const fs = fields(bytes());
      const s = fs.get(1)?.[0]?.v;
      const n = fs.get(2)?.[0]?.v;
      const seconds = typeof s === 'bigint' ? toInt(s) : 0;
      if (!seconds) return undefined;
      const micros = String(Math.floor((typeof n === 'bigint' ? toInt(n) : 0) / 1000)).padStart(6, '0');
      return `${formatTime(seconds * 1000).slice(0, -1)}.${micros}Z`;
    }
    case 'object':
      return freeForm(field, bytes());
    case 'Quantity':
      return quantity(bytes());
    case 'IntOrString': {
      const fs = fields(bytes());
      const t = fs.get(1)?.[0]?.v;
      if (t === 1n) {
        const s = fs.get(3)?.[0]?.v;
        return s instanceof Uint8Array ? text.decode(s) : '';
      }
      const i = fs.get(2)?.[0]?.v;
      return typeof i === 'bigint' ? toInt(i) : 0;
    }
  }
  if (structOf(type)) return decodeMessage(bytes(), type);
  throw new Error(`field ${field.name}: the decoder does not read ${type}`);
}

/** The free-form fields with a known message: FieldsV1 {1 raw JSON}; the rest are not read. */
function freeForm(field: WireField, buf: Uint8Array): unknown {
  // FieldsV1 and RawExtension (a ControllerRevision's data): {1 raw JSON}.
  if (field.name !== 'fieldsV1' && field.name !== 'data') return undefined;
  const raw = fields(buf).get(1)?.[0]?.v;
  return raw instanceof Uint8Array ? (JSON.parse(text.decode(raw)) as unknown) : undefined;
}

/** map<string, ExtraValue {1 repeated string}> (a user's extra attributes). */
function decodeExtra(values: { v: bigint | Uint8Array }[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const { v } of values) {
    if (!(v instanceof Uint8Array)) continue;
    const entry = fields(v);
    const k = entry.get(1)?.[0]?.v;
    const val = entry.get(2)?.[0]?.v;
    const items = val instanceof Uint8Array ? (fields(val).get(1) ?? []) : [];
    map[k instanceof Uint8Array ? text.decode(k) : ''] = items.flatMap(({ v: i }) => (i instanceof Uint8Array ? [text.decode(i)] : []));
  }
  return map;
}

/** A map<string, V> field: repeated entries { key = 1, value = 2 }. */
function decodeMap(field: WireField, values: { v: bigint | Uint8Array }[]): Record<string, unknown> {
  const valueType = elementType(field.type);
  const map: Record<string, unknown> = {};
  for (const { v } of values) {
    if (!(v instanceof Uint8Array)) continue;
    const entry = fields(v);
    const k = entry.get(1)?.[0]?.v;
    const val = entry.get(2)?.[0]?.v;
    const key = k instanceof Uint8Array ? text.decode(k) : '';
    if (!(val instanceof Uint8Array)) map[key] = '';
    else if (valueType === 'bytes') map[key] = Buffer.from(val).toString('base64');
    else if (valueType === 'Quantity') map[key] = quantity(val);
    else if (valueType === 'string') map[key] = text.decode(val);
    else if (valueType === 'Time') map[key] = decodeValue(field, 'Time', val) ?? null;
    else throw new Error(`field ${field.name}: the decoder does not read maps of ${valueType}`);
  }
  return map;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

/** A message of schema type `typeName`, as its JSON form: zero values dropped unless the field keeps them. */
function decodeMessage(buf: Uint8Array, typeName: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  decodeFields(buf, protobufFields(typeName), out);
  return out;
}

/** The fields of one message into `out`; an embedded struct's message adds its fields to the same object. */
function decodeFields(buf: Uint8Array, schema: Map<number, WireField>, out: Record<string, unknown>): void {
  for (const [no, values] of fields(buf)) {
    const field = schema.get(no);
    if (!field) continue;
    if (field.embedded) {
      for (const { v } of values) if (v instanceof Uint8Array) decodeFields(v, field.embedded, out);
      continue;
    }
    if (field.type === 'object' && field.name === 'extra') {
      const map = decodeExtra(values);
      if (Object.keys(map).length) out[field.name] = map;
      continue;
    }
    if (field.type.startsWith('map[string]')) {
      const map = decodeMap(field, values);
      if (Object.keys(map).length) out[field.name] = map;
      continue;
    }
    if (field.type.startsWith('[]')) {
      const items = values.map(({ v }) => decodeValue(field, elementType(field.type), v));
      if (items.length) out[field.name] = items;
      continue;
    }
    const v = decodeValue(field, field.type, values[values.length - 1]!.v);
    if (field.keepZero ? v !== undefined : !isEmpty(v)) out[field.name] = v;
  }
}

/**
 * Decodes a kubernetes protobuf body into the JSON object it stands for.
 * Throws 415 for a kind this decoder does not know, 400 for a malformed body.
 */
export function decodeProtobuf(body: Uint8Array): KubeObject {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b)) {
    throw badRequest('the protobuf body does not start with the kubernetes magic number "k8s\\x00"');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array | undefined;
  try {
    const unknown = fields(body.subarray(4));
    const tm = unknown.get(1)?.[0]?.v;
    if (tm instanceof Uint8Array) {
      const t = fields(tm);
      const av = t.get(1)?.[0]?.v;
      const k = t.get(2)?.[0]?.v;
      apiVersion = av instanceof Uint8Array ? text.decode(av) : '';
      kind = k instanceof Uint8Array ? text.decode(k) : '';
    }
    const r = unknown.get(2)?.[0]?.v;
    raw = r instanceof Uint8Array ? r : undefined;
  } catch (e) {
    throw badRequest(`unable to decode the protobuf body: ${(e as Error).message}`);
  }
  // The schema type by version as well as kind: autoscaling/v1 and v2 HorizontalPodAutoscalers differ on the wire.
  const served = lookupKind(apiVersion, kind);
  const typeName = served ? schemaTypeOf(served) : kind;
  if (!PROTOBUF_KINDS.includes(typeName)) throw unsupportedMediaType(['application/json', 'application/yaml']);
  try {
    const obj = raw ? decodeMessage(raw, typeName) : {};
    return { apiVersion, kind, ...obj, metadata: (obj.metadata as KubeObject['metadata']) ?? {} } as KubeObject;
  } catch (e) {
    throw badRequest(`unable to decode the protobuf body of ${kind}: ${(e as Error).message}`);
  }
}
