// The protobuf form of GET /openapi/v2: gnostic's OpenAPI v2 `Document`
// (proto/openapi/v2/openapiv2.proto), which client-go's discovery asks for
// first (kubectl 1.27/1.28 apply, explain and diff read it). The types below
// mirror the messages with the .proto's own (snake_case) field names; maps are
// ordered lists of { name, value } as gnostic has them.

import { join } from 'node:path';
import protobuf from 'protobufjs';
import { protoRoot } from './load.js';

/** The media type kubectl sends first (upstream serves its `.v1.0+protobuf` twin too). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** The media type upstream answers with for either protobuf request. */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** A vendor extension or default: its value as YAML text (gnostic's Any). */
export interface GnosticAny {
  yaml: string;
}
export interface NamedAny {
  name: string;
  value: GnosticAny;
}
export interface Named<T> {
  name: string;
  value: T;
}

export interface GnosticSchema {
  _ref?: string;
  format?: string;
  title?: string;
  description?: string;
  default?: GnosticAny;
  multiple_of?: number;
  maximum?: number;
  exclusive_maximum?: boolean;
  minimum?: number;
  exclusive_minimum?: boolean;
  max_length?: number;
  min_length?: number;
  pattern?: string;
  max_items?: number;
  min_items?: number;
  unique_items?: boolean;
  max_properties?: number;
  min_properties?: number;
  required?: string[];
  enum?: GnosticAny[];
  additional_properties?: { schema: GnosticSchema } | { boolean: boolean };
  type?: { value: string[] };
  items?: { schema: GnosticSchema[] };
  all_of?: GnosticSchema[];
  properties?: { additional_properties: Named<GnosticSchema>[] };
  vendor_extension?: NamedAny[];
}

interface SimpleParameter {
  required?: boolean;
  in: string;
  description?: string;
  name: string;
  type?: string;
  format?: string;
  unique_items?: boolean;
  vendor_extension?: NamedAny[];
}
export type QueryParameter = SimpleParameter & { allow_empty_value?: boolean };
export type PathParameter = SimpleParameter;

export interface BodyParameter {
  description?: string;
  name: string;
  in: string;
  required?: boolean;
  schema: GnosticSchema;
  vendor_extension?: NamedAny[];
}

export type ParametersItem =
  | { parameter: { body_parameter: BodyParameter } }
  | { parameter: { non_body_parameter: { query_parameter_sub_schema: QueryParameter } | { path_parameter_sub_schema: PathParameter } } }
  | { json_reference: { _ref: string; description?: string } };

export interface GnosticResponse {
  description: string;
  schema?: { schema: GnosticSchema };
  vendor_extension?: NamedAny[];
}

export interface GnosticOperation {
  tags?: string[];
  summary?: string;
  description?: string;
  operation_id?: string;
  produces?: string[];
  consumes?: string[];
  parameters?: ParametersItem[];
  responses?: { response_code: Named<{ response: GnosticResponse } | { json_reference: { _ref: string } }>[]; vendor_extension?: NamedAny[] };
  schemes?: string[];
  deprecated?: boolean;
  vendor_extension?: NamedAny[];
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';

export type GnosticPathItem = Partial<Record<HttpMethod, GnosticOperation>> & {
  _ref?: string;
  parameters?: ParametersItem[];
  vendor_extension?: NamedAny[];
};

export interface GnosticDocument {
  swagger: string;
  info: { title: string; version: string; description?: string; vendor_extension?: NamedAny[] };
  host?: string;
  base_path?: string;
  schemes?: string[];
  consumes?: string[];
  produces?: string[];
  paths: { vendor_extension?: NamedAny[]; path: Named<GnosticPathItem>[] };
  definitions: { additional_properties: Named<GnosticSchema>[] };
  vendor_extension?: NamedAny[];
}

let documentType: protobuf.Type | undefined;

/** The `openapi.v2.Document` message, loaded once from proto/ (field names as in the .proto). */
function documentMessage(): protobuf.Type {
  if (!documentType) {
    const root = new protobuf.Root().loadSync(join(protoRoot(), 'openapi/v2/openapiv2.proto'), { keepCase: true });
    documentType = root.lookupType('openapi.v2.Document');
  }
  return documentType;
}

/** The wire bytes of a Document (what upstream's proto.Marshal of gnostic's Document gives). */
export function encodeOpenApiV2(doc: GnosticDocument): Uint8Array {
  const t = documentMessage();
  return t.encode(t.fromObject(doc)).finish();
}

/** Reads a Document back (tests; a client's view of the bytes). Throws on malformed input. */
export function decodeOpenApiV2(bytes: Uint8Array): GnosticDocument {
  const t = documentMessage();
  return t.toObject(t.decode(bytes), { defaults: false, arrays: false }) as GnosticDocument;
}
