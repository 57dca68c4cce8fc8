// A custom object against its CRD's structural schema: validation with
// upstream's field errors (kube-openapi's validate, as the apiextensions
// apiserver reports it), pruning of fields the schema does not know
// (apiextensions structural/pruning) and `default` values
// (structural/defaulting). Pure functions over plain JSON.

import type { FieldError, JSONSchemaProps } from '@kubelab/api';

type J = Record<string, unknown>;

const isObject = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON type name of a value as the OpenAPI validator names it. */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  return typeof v === 'object' ? 'object' : typeof v;
}

function typeMatches(want: string, v: unknown): boolean {
  const got = typeOf(v);
  return got === want || (want === 'number' && got === 'integer');
}

/** Go's %v of a JSON value in a field error's detail (quoted strings, as kube-openapi prints them). */
function shown(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

/** Child paths as upstream's field.Path prints them: `.name` for properties, `[i]` for items, `[key]` for map values. */
const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Field errors of `value` against `schema` at `path` (the root call passes
 * the whole object and path ''; metadata, apiVersion and kind are the
 * apiserver's to check and are skipped at the root).
 */
export function validateValue(schema: JSONSchemaProps, value: unknown, path = ''): FieldError[] {
  const errs: FieldError[] = [];
  visit(schema, value, path, errs, path === '');
  return errs;
}

function visit(s: JSONSchemaProps, v: unknown, path: string, errs: FieldError[], root: boolean): void {
  const where = path || '<root>';
  if (v === null) {
    if (s.nullable || (s['x-kubernetes-preserve-unknown-fields'] && !s.type)) return;
    if (s.type) errs.push({ type: 'FieldValueTypeInvalid', field: where, badValue: 'null', detail: `${where} in body must be of type ${s.type}: "null"` });
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) {
      errs.push({ type: 'FieldValueTypeInvalid', field: where, badValue: typeOf(v), detail: `${where} in body must be of type integer,string: "${typeOf(v)}"` });
      return;
    }
  } else if (s.type && !typeMatches(s.type, v)) {
    errs.push({ type: 'FieldValueTypeInvalid', field: where, badValue: typeOf(v), detail: `${where} in body must be of type ${s.type}: "${typeOf(v)}"` });
    return;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errs.push({ type: 'FieldValueNotSupported', field: where, badValue: v, detail: `supported values: ${s.enum.map(shown).join(', ')}` });
  }
  if (typeof v === 'number') numberChecks(s, v, where, errs);
  if (typeof v === 'string') stringChecks(s, v, where, errs);
  if (Array.isArray(v)) {
    if (s.maxItems !== undefined && v.length > s.maxItems) errs.push({ type: 'FieldValueTooMany', field: where, badValue: v.length, detail: `must have at most ${s.maxItems} items` });
    if (s.minItems !== undefined && v.length < s.minItems)
      errs.push({ type: 'FieldValueInvalid', field: where, badValue: v.length, detail: `${where} in body should have at least ${s.minItems} items` });
    if (s.items) v.forEach((x, i) => visit(s.items!, x, `${path}[${i}]`, errs, false));
  }
  if (isObject(v)) {
    // The embedded object's apiVersion, kind and metadata are checked as the apiserver's own (upstream: x-kubernetes-embedded-resource).
    if (s['x-kubernetes-embedded-resource']) {
      if (typeof v.apiVersion !== 'string' || v.apiVersion === '') errs.push({ type: 'FieldValueRequired', field: child(path, 'apiVersion'), detail: 'must not be empty' });
      if (typeof v.kind !== 'string' || v.kind === '') errs.push({ type: 'FieldValueRequired', field: child(path, 'kind'), detail: 'must not be empty' });
    }
    const props = s.properties ?? {};
    for (const r of s.required ?? []) {
      if (!(r in v) && !(root && (r === 'metadata' || r === 'apiVersion' || r === 'kind'))) errs.push({ type: 'FieldValueRequired', field: child(path, r) });
    }
    const keys = Object.keys(v);
    if (s.maxProperties !== undefined && keys.length > s.maxProperties)
      errs.push({ type: 'FieldValueTooMany', field: where, badValue: keys.length, detail: `must have at most ${s.maxProperties} items` });
    if (s.minProperties !== undefined && keys.length < s.minProperties)
      errs.push({ type: 'FieldValueInvalid', field: where, badValue: keys.length, detail: `${where} in body should have at least ${s.minProperties} properties` });
    for (const k of keys) {
      if (root && (k === 'metadata' || k === 'apiVersion' || k === 'kind')) continue;
      const p = props[k];
      if (p) visit(p, v[k], child(path, k), errs, false);
      else if (isObject(s.additionalProperties)) visit(s.additionalProperties, v[k], `${path}[${k}]`, errs, false);
    }
  }
}

function numberChecks(s: JSONSchemaProps, v: number, where: string, errs: FieldError[]): void {
  if (s.maximum !== undefined && (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)) {
    errs.push({ type: 'FieldValueInvalid', field: where, badValue: v, detail: `${where} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}` });
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)) {
    errs.push({ type: 'FieldValueInvalid', field: where, badValue: v, detail: `${where} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}` });
  }
  if (s.multipleOf !== undefined && s.multipleOf > 0 && !Number.isInteger(v / s.multipleOf)) {
    errs.push({ type: 'FieldValueInvalid', field: where, badValue: v, detail: `${where} in body should be a multiple of ${s.multipleOf}` });
  }
}

function stringChecks(s: JSONSchemaProps, v: string, where: string, errs: FieldError[]): void {
  const len = [...v].length;
  if (s.maxLength !== undefined && len > s.maxLength) errs.push({ type: 'FieldValueTooLong', field: where, badValue: v, detail: `may not be more than ${s.maxLength} bytes` });
  if (s.minLength !== undefined && len < s.minLength) errs.push({ type: 'FieldValueInvalid', field: where, badValue: v, detail: `${where} in body should be at least ${s.minLength} chars long` });
  if (s.pattern !== undefined && !safeRegExp(s.pattern)?.test(v)) errs.push({ type: 'FieldValueInvalid', field: where, badValue: v, detail: `${where} in body should match '${s.pattern}'` });
}

/** A schema's pattern as a RegExp (ECMA 262, as the OpenAPI spec says); undefined when it does not compile (the CRD's validation refused it). */
export function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * Removes, in place, every field the schema does not specify, except under
 * x-kubernetes-preserve-unknown-fields (upstream: structural pruning), and
 * returns their paths. At the root apiVersion, kind and metadata stay; an
 * embedded resource keeps its own.
 */
export function prune(schema: JSONSchemaProps, value: unknown, path = '', root = true): string[] {
  const removed: string[] = [];
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((x, i) => removed.push(...prune(schema.items!, x, `${path}[${i}]`, false)));
    return removed;
  }
  if (!isObject(value)) return removed;
  const keep = root || schema['x-kubernetes-embedded-resource'] ? ['apiVersion', 'kind', 'metadata'] : [];
  const props = schema.properties;
  const extra = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  for (const k of Object.keys(value)) {
    if (keep.includes(k)) continue;
    const p = props?.[k];
    if (p) removed.push(...prune(p, value[k], child(path, k), false));
    else if (extra) removed.push(...prune(extra, value[k], child(path, k), false));
    else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) {
      delete value[k];
      removed.push(child(path, k));
    }
  }
  return removed;
}

/** Fills, in place, absent fields that have a `default` (upstream: structural defaulting, applied before pruning). */
export function applyDefaults(schema: JSONSchemaProps, value: unknown): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const x of value) applyDefaults(schema.items, x);
    return;
  }
  if (!isObject(value)) return;
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    if (value[k] === undefined && p.default !== undefined) value[k] = structuredClone(p.default);
    if (value[k] !== undefined) applyDefaults(p, value[k]);
  }
  if (isObject(schema.additionalProperties)) for (const k of Object.keys(value)) if (!schema.properties?.[k]) applyDefaults(schema.additionalProperties, value[k]);
}
