// Decoding a request body into an object the way the apiserver's JSON
// decoder does: wrong types fail with the Go decoder's message, unknown
// fields are dropped and, per fieldValidation, reported as a strict decoding
// error (Strict) or as warnings (Warn, the default) (upstream:
// apimachinery's serializer/json strict mode and handlers' fieldValidation).
// Below the REST handlers, the registry and the gRPC server, which all use it.

import { badRequest, invalid, isPrimitiveType, SCHEMA, schemaTypeOf, type KubeObject, type PrimitiveType, type ResourceInfo } from '@kubelab/api';
import { objectFieldErrors, type DuplicateField } from './json-keys.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function parseFieldValidation(v: string | null): FieldValidation {
  if (v === null || v === '' || v === 'Warn') return 'Warn';
  if (v === 'Strict' || v === 'Ignore') return v;
  throw badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict" but got ${v}`);
}

interface Walk {
  unknown: string[];
  typeError?: string;
  /** Leave unknown fields in place (checking an already-stored object). */
  keepUnknown?: boolean;
}

type J = Record<string, unknown>;

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

const GO_PRIMITIVE: Record<PrimitiveType, string> = { string: 'string', int32: 'int32', int64: 'int64', boolean: 'bool', number: 'float64', bytes: '[]uint8', object: 'runtime.RawExtension' };

function goType(t: string): string {
  if (t.startsWith('[]')) return `[]${goType(t.slice(2))}`;
  if (t.startsWith('map[string]')) return `map[string]${goType(t.slice(11))}`;
  if (isPrimitiveType(t)) return GO_PRIMITIVE[t];
  if (t === 'IntOrString') return 'intstr.IntOrString';
  if (t === 'Quantity') return 'resource.Quantity';
  return `v1.${SCHEMA[t]?.name ?? t}`;
}

/** Whether `value` fits scalar schema type `t` (the Go decoder's rules); undefined when `t` is not a scalar type. */
function scalarFits(t: string, value: unknown): boolean | undefined {
  switch (t) {
    case 'string':
    case 'bytes':
    case 'Time':
    case 'MicroTime':
      return typeof value === 'string';
    case 'int32':
      return typeof value === 'number' && Number.isInteger(value) && value <= 2147483647 && value >= -2147483648;
    case 'int64':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'IntOrString':
    case 'Quantity':
      return typeof value === 'string' || typeof value === 'number';
    case 'object':
      return true;
    default:
      return undefined;
  }
}

/**
 * Walks `value` of schema type `t`, pruning unknown fields in place and
 * recording them (with list indexes, as upstream prints them) and the first
 * type error (`cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`).
 */
function walk(value: unknown, t: string, path: string, goPath: string, owner: string, w: Walk): void {
  if (value === null || value === undefined || w.typeError) return;
  const fail = (v = jsonKind(value)) => {
    w.typeError ??= `json: cannot unmarshal ${v} into Go struct field ${owner}.${goPath} of type ${goType(t)}`;
  };
  if (t.startsWith('[]')) {
    if (!Array.isArray(value)) return fail();
    value.forEach((x, i) => walk(x, t.slice(2), `${path}[${i}]`, goPath, owner, w));
    return;
  }
  if (t.startsWith('map[string]')) {
    if (typeof value !== 'object' || Array.isArray(value)) return fail();
    for (const [k, x] of Object.entries(value as J)) walk(x, t.slice(11), `${path}.${k}`, goPath, owner, w);
    return;
  }
  const fits = scalarFits(t, value);
  if (fits !== undefined) {
    // An integer type's wrong number is named with its value, as Go's decoder does (`number 1.5`).
    if (!fits) fail(typeof value === 'number' && (t === 'int32' || t === 'int64') ? `number ${value}` : undefined);
    return;
  }
  const def = SCHEMA[t];
  if (!def?.fields) return;
  if (typeof value !== 'object' || Array.isArray(value)) return fail();
  const obj = value as J;
  for (const key of Object.keys(obj)) {
    const f = def.fields[key];
    const sub = path ? `${path}.${key}` : key;
    if (!f) {
      w.unknown.push(sub);
      if (!w.keepUnknown) delete obj[key];
      continue;
    }
    walk(obj[key], f[0], sub, goPath ? `${goPath}.${key}` : key, def.name ?? t, w);
  }
}

/** A list's or map's element type, remembered (the walk of every request would slice the same names again). */
const elementTypes = new Map<string, string>();
function elementType(t: string, prefixLength: number): string {
  let e = elementTypes.get(t);
  if (e === undefined) elementTypes.set(t, (e = t.slice(prefixLength)));
  return e;
}

/**
 * Whether `value` fits schema type `t` with nothing to report: no wrong
 * type and (unless `unknownOk`) no unknown field. Builds no paths or
 * messages: the usual body passes here, and only one that does not is
 * walked again by `walk` for its messages.
 */
function conforms(value: unknown, t: string, unknownOk: boolean): boolean {
  if (value === null || value === undefined) return true;
  if (t.charCodeAt(0) === 91 /* [ */ && t.startsWith('[]')) {
    if (!Array.isArray(value)) return false;
    const e = elementType(t, 2);
    for (const x of value) if (!conforms(x, e, unknownOk)) return false;
    return true;
  }
  if (t.charCodeAt(0) === 109 /* m */ && t.startsWith('map[string]')) {
    if (typeof value !== 'object' || Array.isArray(value)) return false;
    const e = elementType(t, 11);
    for (const k in value as J) if (!conforms((value as J)[k], e, unknownOk)) return false;
    return true;
  }
  const fits = scalarFits(t, value);
  if (fits !== undefined) return fits;
  const def = SCHEMA[t];
  if (!def?.fields) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  const fields = def.fields;
  for (const key in value as J) {
    const f = fields[key];
    if (!f) {
      if (unknownOk) continue;
      return false;
    }
    if (!conforms((value as J)[key], f[0], unknownOk)) return false;
  }
  return true;
}

export interface Decoded {
  object: KubeObject;
  /** Warning texts for the `Warning` response header (fieldValidation=Warn). */
  warnings: string[];
}

/**
 * Checks a decoded body against the kind's schema: the object comes back
 * with unknown fields removed; a wrong type always fails, unknown fields fail
 * under Strict (400 BadRequest, upstream's text).
 */
export function decodeObject(
  info: Pick<ResourceInfo, 'kind' | 'version'>,
  body: unknown,
  validation: FieldValidation,
  schemaType = info.kind,
  /** Where the body came from: its repeated keys are reported beside unknown fields, as upstream's strict decoders do. */
  source?: { json: { text: string; duplicates: readonly DuplicateField[] } } | { yaml: { duplicates: readonly string[] } },
): Decoded {
  const fail = (why: string) => badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${why}`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail(`json: cannot unmarshal ${jsonKind(body)} into Go value of type ${goType(schemaType)}`);
  }
  const w: Walk = { unknown: [] };
  if (SCHEMA[schemaType] && !conforms(body, schemaType, false)) walk(body, schemaType, '', '', schemaType, w);
  if (w.typeError) throw fail(w.typeError);
  const obj = body as KubeObject;
  obj.metadata ??= {};
  if (validation === 'Ignore') return { object: obj, warnings: [] };
  if (source && 'yaml' in source) {
    // go-yaml's errors come first as one "unmarshal errors" list, then the unknown fields of the converted (key-sorted) JSON.
    const unknown = [...w.unknown].sort().map((f) => `unknown field "${f}"`);
    const yaml = source.yaml.duplicates;
    if (validation === 'Strict' && (yaml.length || unknown.length)) {
      throw fail(`strict decoding error: ${[...(yaml.length ? [`yaml: unmarshal errors:\n  ${yaml.join('\n  ')}`] : []), ...unknown].join(', ')}`);
    }
    return { object: obj, warnings: [...yaml, ...unknown] };
  }
  const errors = objectFieldErrors(source?.json.text, w.unknown, source?.json.duplicates ?? []);
  if (validation === 'Strict' && errors.length) throw fail(`strict decoding error: ${errors.join(', ')}`);
  return { object: obj, warnings: errors };
}

/**
 * The same check for a patch body: keys starting with `$` (strategic merge
 * directives) and null values (deletions) are allowed; unknown fields are
 * removed or, under Strict, rejected.
 */
export function checkPatchFields(info: Pick<ResourceInfo, 'kind' | 'version' | 'schemaType'>, patch: unknown, validation: FieldValidation, duplicates: readonly DuplicateField[] = []): string[] {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return [];
  const unknown: string[] = [];
  const visit = (v: unknown, t: string, path: string) => {
    if (v === null || typeof v !== 'object') return;
    if (t.startsWith('[]')) {
      if (Array.isArray(v)) v.forEach((x, i) => visit(x, t.slice(2), `${path}[${i}]`));
      return;
    }
    if (t.startsWith('map[string]') || Array.isArray(v)) return;
    const def = SCHEMA[t];
    if (!def?.fields) return;
    for (const key of Object.keys(v as J)) {
      if (key.startsWith('$')) continue;
      const f = def.fields[key];
      const sub = path ? `${path}.${key}` : key;
      if (!f) {
        unknown.push(sub);
        delete (v as J)[key];
        continue;
      }
      visit((v as J)[key], f[0], sub);
    }
  };
  visit(patch, schemaTypeOf(info), '');
  // Upstream reports the patch's repeated keys (decoding it into a map) before the patched object's unknown fields, which come sorted (a map's keys).
  const errors = [...duplicates.map((d) => `duplicate field "${d.path}"`), ...unknown.sort().map((f) => `unknown field "${f}"`)];
  if (validation === 'Strict' && errors.length) {
    throw badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${errors.join(', ')}`);
  }
  return validation === 'Warn' ? errors : [];
}

/**
 * The decode of a patched object (upstream decodes the patch result into the
 * Go type): a wrong type is a 422 Invalid on the field `patch`, carrying the
 * patched JSON, as kubectl prints it ("The request is invalid: patch: ...").
 */
export function checkPatchedTypes(info: Pick<ResourceInfo, 'kind'>, patched: KubeObject): void {
  const typeError = typeErrorOf(info.kind, patched);
  if (typeError) throw invalid('', '', '', [{ type: 'FieldValueInvalid', field: 'patch', badValue: JSON.stringify(patched), detail: typeError }]);
}

/** The Go decoder's message for the first wrong type in `obj` (unknown fields are left alone), or undefined. */
export function typeErrorOf(kind: string, obj: unknown): string | undefined {
  if (!SCHEMA[kind] || conforms(obj, kind, true)) return undefined;
  const w: Walk = { unknown: [], keepUnknown: true };
  walk(obj, kind, '', '', kind, w);
  return w.typeError;
}
