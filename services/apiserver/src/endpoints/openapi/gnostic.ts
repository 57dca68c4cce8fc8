// The Swagger 2.0 JSON of /openapi/v2 as gnostic's `Document` message, the
// protobuf form kubectl asks for (upstream: kube-openapi's ToProtoBinary,
// gnostic's ParseDocument then proto.Marshal). JSON objects become ordered
// (name, value) lists, `x-` keys vendor extensions whose values are YAML text,
// a parameter one branch of the Parameter oneof. Pure; throws on a shape the
// document should never have, so a schema change cannot vanish from the wire.

import type { GnosticAny, GnosticDocument, GnosticOperation, GnosticPathItem, GnosticResponse, GnosticSchema, HttpMethod, NamedAny, ParametersItem } from '@kubelab/proto';
import { stringify } from 'yaml';
import type { Json } from './build.js';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function expectObject(v: unknown, where: string): Json {
  if (!isObject(v)) throw new Error(`openapi v2: ${where} is not an object`);
  return v;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A value as gnostic's Any: YAML text (kubectl reads extensions by unmarshalling it). */
export const gnosticAny = (v: unknown): GnosticAny => ({ yaml: stringify(v) });

/** The `x-` keys of a JSON object, in order. */
function extensions(o: Json): NamedAny[] | undefined {
  const out = Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, v]) => ({ name, value: gnosticAny(v) }));
  return out.length ? out : undefined;
}

/** Copies the set keys of `o` into a message object (leaving unset fields out of the encoding). */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** JSON Schema's validation keywords gnostic's Schema carries (a CRD's schema uses them), by their JSON names. */
const VALIDATION_KEYS = {
  multipleOf: 'multiple_of',
  maximum: 'maximum',
  exclusiveMaximum: 'exclusive_maximum',
  minimum: 'minimum',
  exclusiveMinimum: 'exclusive_minimum',
  maxLength: 'max_length',
  minLength: 'min_length',
  pattern: 'pattern',
  maxItems: 'max_items',
  minItems: 'min_items',
  uniqueItems: 'unique_items',
  maxProperties: 'max_properties',
  minProperties: 'min_properties',
} as const;

const SCHEMA_KEYS = new Set(['$ref', 'format', 'title', 'description', 'default', 'required', 'enum', 'additionalProperties', 'type', 'items', 'allOf', 'properties', ...Object.keys(VALIDATION_KEYS)]);

function validationFields(s: Json): Partial<GnosticSchema> {
  const out: Record<string, unknown> = {};
  for (const [json, field] of Object.entries(VALIDATION_KEYS)) {
    const v = s[json];
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') out[field] = v;
  }
  return out as Partial<GnosticSchema>;
}

export function gnosticSchema(s: Json, where = 'schema'): GnosticSchema {
  for (const k of Object.keys(s)) {
    if (!k.startsWith('x-') && !SCHEMA_KEYS.has(k)) throw new Error(`openapi v2: ${where} has ${k}, which gnostic's Schema does not carry`);
  }
  const ap = s.additionalProperties;
  return compact<GnosticSchema>({
    _ref: str(s.$ref),
    format: str(s.format),
    title: str(s.title),
    description: str(s.description),
    default: s.default === undefined ? undefined : gnosticAny(s.default),
    ...validationFields(s),
    required: Array.isArray(s.required) ? s.required.map(String) : undefined,
    enum: Array.isArray(s.enum) ? s.enum.map(gnosticAny) : undefined,
    additional_properties:
      ap === undefined ? undefined : typeof ap === 'boolean' ? { boolean: ap } : { schema: gnosticSchema(expectObject(ap, `${where}.additionalProperties`), `${where}.additionalProperties`) },
    type: typeof s.type === 'string' ? { value: [s.type] } : undefined,
    items: s.items === undefined ? undefined : { schema: [gnosticSchema(expectObject(s.items, `${where}.items`), `${where}.items`)] },
    all_of: Array.isArray(s.allOf) ? s.allOf.map((x, i) => gnosticSchema(expectObject(x, `${where}.allOf`), `${where}.allOf[${i}]`)) : undefined,
    properties: isObject(s.properties)
      ? { additional_properties: Object.entries(s.properties).map(([name, p]) => ({ name, value: gnosticSchema(expectObject(p, `${where}.${name}`), `${where}.${name}`) })) }
      : undefined,
    vendor_extension: extensions(s),
  });
}

export function gnosticParameter(p: Json): ParametersItem {
  const where = `parameter ${String(p.name)}`;
  if (typeof p.$ref === 'string') return { json_reference: { _ref: p.$ref } };
  const common = { name: String(p.name), in: String(p.in), description: str(p.description), required: p.required === true ? true : undefined, vendor_extension: extensions(p) };
  if (p.in === 'body') return { parameter: { body_parameter: compact({ ...common, schema: gnosticSchema(expectObject(p.schema, `${where}.schema`), `${where}.schema`) }) } };
  const simple = compact({ ...common, type: str(p.type), format: str(p.format), unique_items: p.uniqueItems === true ? true : undefined });
  if (p.in === 'query') return { parameter: { non_body_parameter: { query_parameter_sub_schema: simple } } };
  if (p.in === 'path') return { parameter: { non_body_parameter: { path_parameter_sub_schema: simple } } };
  throw new Error(`openapi v2: ${where} is in ${String(p.in)}, which kubelab does not declare`);
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);
const parameters = (v: unknown): ParametersItem[] | undefined => (Array.isArray(v) ? v.map((p) => gnosticParameter(expectObject(p, 'parameter'))) : undefined);

export function gnosticOperation(op: Json): GnosticOperation {
  const responses = expectObject(op.responses, `operation ${String(op.operationId)} responses`);
  return compact<GnosticOperation>({
    tags: strings(op.tags),
    summary: str(op.summary),
    description: str(op.description),
    operation_id: str(op.operationId),
    produces: strings(op.produces),
    consumes: strings(op.consumes),
    parameters: parameters(op.parameters),
    responses: {
      response_code: Object.entries(responses).map(([code, r]) => {
        const resp = expectObject(r, `response ${code}`);
        const value: GnosticResponse = compact({ description: String(resp.description ?? ''), schema: isObject(resp.schema) ? { schema: gnosticSchema(resp.schema, `response ${code}`) } : undefined });
        return { name: code, value: { response: value } };
      }),
    },
    schemes: strings(op.schemes),
    deprecated: op.deprecated === true ? true : undefined,
    vendor_extension: extensions(op),
  });
}

const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** The whole document as gnostic's Document message. */
export function toGnosticDocument(doc: Json): GnosticDocument {
  const info = expectObject(doc.info, 'info');
  const path = Object.entries(expectObject(doc.paths, 'paths')).map(([name, raw]) => {
    const item = expectObject(raw, name);
    const value: GnosticPathItem = compact({ parameters: parameters(item.parameters), vendor_extension: extensions(item) });
    for (const m of METHODS) if (isObject(item[m])) value[m] = gnosticOperation(item[m]);
    return { name, value };
  });
  const definitions = Object.entries(expectObject(doc.definitions, 'definitions')).map(([name, s]) => ({ name, value: gnosticSchema(expectObject(s, name), name) }));
  return compact<GnosticDocument>({
    swagger: String(doc.swagger),
    info: compact({ title: String(info.title), version: String(info.version), description: str(info.description) }),
    paths: { path },
    definitions: { additional_properties: definitions },
    vendor_extension: extensions(doc),
  });
}
