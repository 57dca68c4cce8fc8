// OTLP trace export requests (opentelemetry-proto v1, collector/trace/v1) →
// the dashboard's spans. Protobuf bodies are decoded by protobufjs (already
// in the workspace: @kubelab/proto loads the CRI protos with it) against the
// message definitions below, written from the OTLP specification's field
// numbers; @opentelemetry/otlp-transformer, which the components' exporter
// uses, only encodes requests. JSON bodies follow the OTLP/JSON mapping:
// lowerCamelCase keys, trace and span ids as hex strings, 64-bit integers as
// numbers or decimal strings, enums as integers.
//
// What cannot be read at all is an OtlpError (HTTP 400 / gRPC
// INVALID_ARGUMENT); a readable request whose single spans are invalid (an
// all-zero trace id, say) has those spans rejected as OTLP's partial success.

import protobuf from 'protobufjs';
import { SPAN_KINDS, type SpanStatus, type StoredSpan } from './trace-model.js';

export type { StoredSpan };

const SCHEMA = `
syntax = "proto3";
package otlp;
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  fixed32 flags = 16;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Status { string message = 2; int32 code = 3; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message Any { string type_url = 1; bytes value = 2; }
message RpcStatus { int32 code = 1; string message = 2; repeated Any details = 3; }
`;

const root = protobuf.parse(SCHEMA, { keepCase: false }).root;
const RequestType = root.lookupType('otlp.ExportTraceServiceRequest');
const ResponseType = root.lookupType('otlp.ExportTraceServiceResponse');
const RpcStatusType = root.lookupType('otlp.RpcStatus');

const STATUS_CODES: readonly SpanStatus[] = ['UNSET', 'OK', 'ERROR'];

/** How much of one span is kept (the store's memory bound is its span count times these). */
export const SPAN_LIMITS = { attributes: 32, valueChars: 256, nameChars: 200, events: 16 } as const;

/** A request that cannot be read as an ExportTraceServiceRequest. */
export class OtlpError extends Error {
  override name = 'OtlpError';
}

export interface DecodedExport {
  spans: StoredSpan[];
  rejected: number;
  /** Why the first rejected span was rejected. */
  rejectReason?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
const list = (v: unknown, what: string): unknown[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpError(`${what}: an array is required`);
  return v;
};
/** One field of either spelling: OTLP/JSON is lowerCamelCase; snake_case is accepted as protobuf's JSON parsers do. */
const field = (o: Obj, camel: string): unknown => {
  if (camel in o) return o[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return o[snake];
};

const HEX = /^[0-9a-f]*$/;
function hexId(v: unknown, bytes: number, what: string): string {
  let hex: string;
  if (v instanceof Uint8Array) hex = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
  else if (typeof v === 'string') hex = v.toLowerCase();
  else if (v === undefined || v === null) hex = '';
  else throw new SpanRejected(`${what}: a hex string is required`);
  if (hex === '') return '';
  if (hex.length !== bytes * 2 || !HEX.test(hex)) throw new SpanRejected(`${what}: ${bytes} bytes are required, got ${JSON.stringify(typeof v === 'string' ? v.slice(0, 40) : hex.slice(0, 40))}`);
  if (/^0+$/.test(hex)) return '';
  return hex;
}

class SpanRejected extends Error {}

/** A 64-bit nanosecond time (protobufjs Long or number, a JSON number or decimal string) → ms. */
function nanosToMs(v: unknown, what: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v / 1e6;
  if (typeof v === 'string') {
    if (!/^\d{1,20}$/.test(v)) throw new SpanRejected(`${what}: a decimal number is required, got ${JSON.stringify(v.slice(0, 40))}`);
    const n = BigInt(v);
    return Number(n / 1000n) / 1000;
  }
  if (isObj(v) && typeof v.low === 'number' && typeof v.high === 'number') return (v.high >>> 0) * 4294.967296 + (v.low >>> 0) / 1e6;
  throw new SpanRejected(`${what}: a number is required`);
}

function enumIndex(v: unknown, names: readonly string[], prefix: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v >= 0 && v < names.length ? v : 0;
  if (typeof v === 'string') {
    const i = names.indexOf(v.replace(prefix, ''));
    return i < 0 ? 0 : i;
  }
  return 0;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function anyValue(v: unknown, depth = 0): string {
  if (!isObj(v) || depth > 4) return '';
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || x === null) continue;
    switch (k) {
      case 'stringValue':
      case 'string_value':
        return String(x);
      case 'boolValue':
      case 'bool_value':
        return String(!!x);
      case 'intValue':
      case 'int_value':
        return String(x);
      case 'doubleValue':
      case 'double_value':
        return String(x);
      case 'arrayValue':
      case 'array_value':
        return `[${list(isObj(x) ? x.values : undefined, 'arrayValue.values')
          .map((e) => anyValue(e, depth + 1))
          .join(', ')}]`;
      case 'kvlistValue':
      case 'kvlist_value':
        return `{${list(isObj(x) ? x.values : undefined, 'kvlistValue.values')
          .map((kv) => (isObj(kv) ? `${String(kv.key)}=${anyValue(kv.value, depth + 1)}` : ''))
          .join(', ')}}`;
      case 'bytesValue':
      case 'bytes_value':
        return x instanceof Uint8Array ? Buffer.from(x).toString('base64') : String(x);
      default:
        continue;
    }
  }
  return '';
}

function attributes(v: unknown, what: string, into: Record<string, string> = {}, max: number = SPAN_LIMITS.attributes): Record<string, string> {
  let n = Object.keys(into).length;
  for (const kv of list(v, what)) {
    if (!isObj(kv) || typeof kv.key !== 'string') throw new OtlpError(`${what}: each attribute needs a string key`);
    if (n >= max) break;
    into[clip(kv.key, SPAN_LIMITS.nameChars)] = clip(anyValue(kv.value), SPAN_LIMITS.valueChars);
    n++;
  }
  return into;
}

/** The request as protobufjs or JSON.parse gave it → spans. Throws OtlpError when its structure is wrong. */
export function spansFromRequest(req: unknown): DecodedExport {
  if (!isObj(req)) throw new OtlpError('the body must be an ExportTraceServiceRequest object');
  const out: DecodedExport = { spans: [], rejected: 0 };
  for (const rs of list(field(req, 'resourceSpans'), 'resourceSpans')) {
    if (!isObj(rs)) throw new OtlpError('resourceSpans: each item must be an object');
    const resource = field(rs, 'resource');
    const res = attributes(isObj(resource) ? resource.attributes : undefined, 'resource.attributes', {}, 64);
    const service = res['service.name'] || 'unknown_service';
    const node = res['k8s.node.name'];
    for (const ss of list(field(rs, 'scopeSpans'), 'scopeSpans')) {
      if (!isObj(ss)) throw new OtlpError('scopeSpans: each item must be an object');
      for (const s of list(ss.spans, 'spans')) {
        if (!isObj(s)) throw new OtlpError('spans: each item must be an object');
        try {
          out.spans.push(span(s, service, node));
        } catch (e) {
          if (!(e instanceof SpanRejected)) throw e;
          out.rejected++;
          out.rejectReason ??= e.message;
        }
      }
    }
  }
  return out;
}

function span(s: Obj, service: string, node: string | undefined): StoredSpan {
  const traceId = hexId(field(s, 'traceId'), 16, 'traceId');
  const spanId = hexId(field(s, 'spanId'), 8, 'spanId');
  if (!traceId) throw new SpanRejected('traceId: a span needs a non-zero trace id');
  if (!spanId) throw new SpanRejected('spanId: a span needs a non-zero span id');
  const parentSpanId = hexId(field(s, 'parentSpanId'), 8, 'parentSpanId');
  const startMs = nanosToMs(field(s, 'startTimeUnixNano'), 'startTimeUnixNano');
  const endMs = nanosToMs(field(s, 'endTimeUnixNano'), 'endTimeUnixNano');
  const status = field(s, 'status');
  const statusIdx = isObj(status) ? enumIndex(status.code, STATUS_CODES, 'STATUS_CODE_') : 0;
  const statusMessage = isObj(status) && typeof status.message === 'string' && status.message ? clip(status.message, SPAN_LIMITS.valueChars) : undefined;
  const events: StoredSpan['events'] = [];
  for (const e of list(s.events, 'events')) {
    if (events.length >= SPAN_LIMITS.events) break;
    if (!isObj(e)) continue;
    events.push({ name: clip(typeof e.name === 'string' ? e.name : '', SPAN_LIMITS.nameChars), atMs: nanosToMs(field(e, 'timeUnixNano'), 'events.timeUnixNano') });
  }
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: clip(typeof s.name === 'string' && s.name ? s.name : '(unnamed)', SPAN_LIMITS.nameChars),
    kind: SPAN_KINDS[enumIndex(s.kind, SPAN_KINDS, 'SPAN_KIND_')]!,
    service: clip(service, SPAN_LIMITS.nameChars),
    ...(node ? { node } : {}),
    startMs,
    durationMs: Math.max(0, endMs - startMs),
    status: STATUS_CODES[statusIdx]!,
    ...(statusMessage ? { statusMessage } : {}),
    attributes: attributes(s.attributes, 'attributes'),
    events,
  };
}

/** An OTLP/HTTP or OTLP/gRPC protobuf body → spans. */
export function decodeOtlpProtobuf(body: Uint8Array): DecodedExport {
  let msg: protobuf.Message;
  try {
    msg = RequestType.decode(body);
  } catch (e) {
    throw new OtlpError(`cannot decode the body as an ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  return spansFromRequest(RequestType.toObject(msg, { longs: String, bytes: Buffer, defaults: false, arrays: true, oneofs: false }));
}

/** An OTLP/HTTP JSON body → spans. */
export function decodeOtlpJson(body: string): DecodedExport {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    throw new OtlpError(`cannot parse the body as JSON: ${(e as Error).message}`);
  }
  return spansFromRequest(v);
}

function partial(d: Pick<DecodedExport, 'rejected' | 'rejectReason'>) {
  return d.rejected > 0 ? { partialSuccess: { rejectedSpans: d.rejected, errorMessage: d.rejectReason ?? '' } } : {};
}

/** ExportTraceServiceResponse: empty on full success, partial_success when spans were rejected. */
export function encodeExportResponse(d: Pick<DecodedExport, 'rejected' | 'rejectReason'>): Uint8Array {
  return ResponseType.encode(ResponseType.fromObject(partial(d))).finish();
}

export function exportResponseJson(d: Pick<DecodedExport, 'rejected' | 'rejectReason'>): string {
  return JSON.stringify(d.rejected > 0 ? { partialSuccess: { rejectedSpans: String(d.rejected), errorMessage: d.rejectReason ?? '' } } : {});
}

/** google.rpc.Status, the body of an OTLP/HTTP error response (code: a gRPC code, 3 = INVALID_ARGUMENT). */
export function encodeRpcStatus(code: number, message: string): Uint8Array {
  return RpcStatusType.encode(RpcStatusType.fromObject({ code, message })).finish();
}

export function decodeRpcStatus(body: Uint8Array): { code: number; message: string } {
  const o = RpcStatusType.toObject(RpcStatusType.decode(body), { defaults: true }) as { code: number; message: string };
  return { code: o.code, message: o.message };
}

/** For tests and tools: an ExportTraceServiceResponse's partial success. */
export function decodeExportResponse(body: Uint8Array): { rejectedSpans: number; errorMessage: string } | undefined {
  const o = ResponseType.toObject(ResponseType.decode(body), { longs: Number }) as { partialSuccess?: { rejectedSpans?: number; errorMessage?: string } };
  return o.partialSuccess ? { rejectedSpans: o.partialSuccess.rejectedSpans ?? 0, errorMessage: o.partialSuccess.errorMessage ?? '' } : undefined;
}
