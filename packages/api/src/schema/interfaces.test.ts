import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SCHEMA, isPrimitiveType, type FieldDef, type Group, type PrimitiveType } from './index.js';

// The TypeScript interfaces of @kubelab/api (the JSON shapes of k8s.io/api's
// Go structs), read with the compiler API, against the schema: every schema
// field is a property of the interface of the same name with a compatible
// type, and every property is a schema field. Read from the sources rather
// than checked at compile time so that a difference reads as a list of
// `Type.field: why` lines, not a type-level puzzle.
//
// What "compatible" allows: Quantity is a string (as it marshals); an
// `object` field (free-form) may have any type but `any`; a struct the
// interfaces write inline or under another name (CoreV1EndpointPort) is
// compared field by field. `any` fits nowhere: it is assignable to every
// type, so it would pass every check while checking nothing.

const MODULE_OF: Record<Group, string> = {
  meta: '../meta/types.ts',
  intstr: '../meta/types.ts',
  resource: '../meta/types.ts',
  core: '../core/v1/types.ts',
  apps: '../apps/v1/types.ts',
  discovery: '../discovery/v1/types.ts',
  coordination: '../coordination/v1/types.ts',
  autoscaling: '../autoscaling/v1/types.ts',
  policy: '../policy/v1/types.ts',
  rbac: '../rbac/v1/types.ts',
  authorization: '../authorization/v1/types.ts',
  authentication: '../authentication/v1/types.ts',
  certificates: '../certificates/v1/types.ts',
  events: '../events/v1/types.ts',
  apiextensions: '../apiextensions/v1/types.ts',
  apiregistration: '../apiregistration/v1/types.ts',
  batch: '../batch/v1/types.ts',
  storage: '../storage/v1/types.ts',
  scheduling: '../scheduling/v1/types.ts',
  flowcontrol: '../flowcontrol/v1/types.ts',
  autoscalingv2: '../autoscaling/v2/types.ts',
  networking: '../networking/v1/types.ts',
};

const files = [...new Set(Object.values(MODULE_OF))].map((m) => fileURLToPath(new URL(m, import.meta.url)));
const program = ts.createProgram(files, { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [] });
const checker = program.getTypeChecker();

function exportsOf(group: Group): Map<string, ts.Symbol> {
  const sf = program.getSourceFile(fileURLToPath(new URL(MODULE_OF[group], import.meta.url)))!;
  return new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!).map((s) => [s.name, s]));
}

const isA = (t: ts.Type, target: ts.Type) => checker.isTypeAssignableTo(t, target);
const nameOf = (t: ts.Type): string | undefined => t.aliasSymbol?.name ?? t.getSymbol()?.name;

const isString = (t: ts.Type) => isA(t, checker.getStringType());
const isNumber = (t: ts.Type) => isA(t, checker.getNumberType());

/** What property type each primitive field type takes. */
const PRIMITIVE_FITS: Record<PrimitiveType, (t: ts.Type) => boolean> = {
  string: isString,
  bytes: isString,
  int32: isNumber,
  int64: isNumber,
  number: isNumber,
  boolean: (t) => isA(t, checker.getBooleanType()),
  object: () => true,
};

/** The primitive aliases the schema describes (they have no fields): the JSON they marshal as. */
const ALIAS_FITS: Record<string, (t: ts.Type) => boolean> = {
  Time: isString,
  MicroTime: isString,
  Quantity: isString, // resource.Quantity marshals as a string
  IntOrString: (t) => isA(checker.getStringType(), t) && isA(checker.getNumberType(), t),
};

/** Schema types checked so far, by name or in place. */
const checked = new Set<string>();

/** The ways a property type of `path` does not fit the schema type. */
function misfits(type: ts.Type, schemaType: string, path: string): string[] {
  const t = checker.getNonNullableType(type);
  if (t.flags & ts.TypeFlags.Any) return [`${path}: any is not ${schemaType}`];
  if (schemaType.startsWith('[]')) {
    if (!checker.isArrayType(t)) return [`${path}: ${checker.typeToString(t)} is not a list`];
    return misfits(checker.getTypeArguments(t as ts.TypeReference)[0]!, schemaType.slice(2), path);
  }
  if (schemaType.startsWith('map[string]')) {
    const value = checker.getIndexTypeOfType(t, ts.IndexKind.String);
    return value ? misfits(value, schemaType.slice('map[string]'.length), path) : [`${path}: ${checker.typeToString(t)} is not a map`];
  }
  const fit = isPrimitiveType(schemaType) ? PRIMITIVE_FITS[schemaType] : ALIAS_FITS[schemaType];
  if (fit) return fit(t) ? [] : [`${path}: ${checker.typeToString(t)} is not ${schemaType}`];
  const def = SCHEMA[schemaType];
  if (!def?.fields) return [`${path}: the schema does not describe ${schemaType}`];
  // The interface of that name is checked on its own; an inline or
  // differently named type is checked here, field by field.
  if (nameOf(t) === (def.name ?? schemaType) && exportsOf(def.group).has(nameOf(t)!)) return [];
  checked.add(schemaType);
  return structMisfits(t, def.fields, path);
}

function structMisfits(type: ts.Type, fields: Record<string, FieldDef>, path: string): string[] {
  const out: string[] = [];
  const props = new Map(checker.getPropertiesOfType(type).map((p) => [p.name, p]));
  for (const [field, [schemaType]] of Object.entries(fields)) {
    const prop = props.get(field);
    if (!prop) out.push(`${path}.${field}: not in the interface`);
    else out.push(...misfits(checker.getTypeOfSymbolAtLocation(prop, prop.valueDeclaration ?? prop.declarations![0]!), schemaType, `${path}.${field}`));
  }
  for (const p of props.keys()) if (!(p in fields)) out.push(`${path}.${p}: not in the schema`);
  return out;
}

function mismatches(): string[] {
  const out: string[] = [];
  for (const [key, def] of Object.entries(SCHEMA)) {
    const symbol = exportsOf(def.group).get(def.name ?? key);
    if (!def.fields || !symbol) continue;
    checked.add(key);
    out.push(...structMisfits(checker.getDeclaredTypeOfSymbol(symbol), def.fields, key));
  }
  for (const [key, def] of Object.entries(SCHEMA)) if (def.fields && !checked.has(key)) out.push(`${key}: no interface, and no field holds it`);
  return out;
}

/** Differences that are on purpose: each line as mismatches() prints it (`Type.field: why`) → the reason it stays. None today. */
const KNOWN_EXCEPTIONS: Record<string, string> = {};

describe('the TypeScript interfaces agree with the schema', () => {
  it('every field, both ways, but the known exceptions', () => {
    expect(mismatches()).toEqual(Object.keys(KNOWN_EXCEPTIONS));
  });
});
