import { fieldErrorMessage, type FieldError, type JSONSchemaProps } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { applyDefaults, prune, validateValue } from './structural.js';

const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });
const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}) => obj({ spec: obj(properties, extra) });
const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);

describe('validateValue: upstream field errors', () => {
  it.each<[string, JSONSchemaProps, unknown, string[]]>([
    ['a wrong type', spec({ replicas: { type: 'integer' } }), { replicas: 'x' }, ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']],
    [
      'a float where an integer belongs',
      spec({ replicas: { type: 'integer' } }),
      { replicas: 1.5 },
      ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
    ],
    ['an integer where a number belongs', spec({ ratio: { type: 'number' } }), { ratio: 2 }, []],
    ['null without nullable', spec({ image: { type: 'string' } }), { image: null }, ['spec.image: Invalid value: "null": spec.image in body must be of type string: "null"']],
    ['null with nullable', spec({ image: { type: 'string', nullable: true } }), { image: null }, []],
    ['a required field missing', spec({ a: { type: 'string' } }, { required: ['a'] }), {}, ['spec.a: Required value']],
    ['a value outside the enum', spec({ p: { type: 'string', enum: ['A', 'B'] } }), { p: 'C' }, ['spec.p: Unsupported value: "C": supported values: "A", "B"']],
    ['above maximum', spec({ n: { type: 'integer', maximum: 3 } }), { n: 4 }, ['spec.n: Invalid value: 4: spec.n in body should be less than or equal to 3']],
    ['below an exclusive minimum', spec({ n: { type: 'integer', minimum: 1, exclusiveMinimum: true } }), { n: 1 }, ['spec.n: Invalid value: 1: spec.n in body should be greater than 1']],
    ['a pattern mismatch', spec({ s: { type: 'string', pattern: '^a+$' } }), { s: 'b' }, ['spec.s: Invalid value: "b": spec.s in body should match \'^a+$\'']],
    ['too long', spec({ s: { type: 'string', maxLength: 2 } }), { s: 'abc' }, ['spec.s: Too long: may not be more than 2 bytes']],
    ['too short', spec({ s: { type: 'string', minLength: 2 } }), { s: 'a' }, ['spec.s: Invalid value: "a": spec.s in body should be at least 2 chars long']],
    ['too many items', spec({ l: { type: 'array', maxItems: 1, items: { type: 'string' } } }), { l: ['a', 'b'] }, ['spec.l: Too many: 2: must have at most 1 items']],
    ['a bad item', spec({ l: { type: 'array', items: { type: 'string' } } }), { l: ['a', 1] }, ['spec.l[1]: Invalid value: "integer": spec.l[1] in body must be of type string: "integer"']],
    [
      'a bad map value',
      spec({ m: { type: 'object', additionalProperties: { type: 'integer' } } }),
      { m: { k: 'v' } },
      ['spec.m[k]: Invalid value: "string": spec.m[k] in body must be of type integer: "string"'],
    ],
    ['int-or-string takes both', spec({ port: { 'x-kubernetes-int-or-string': true } }), { port: 'http' }, []],
    [
      'int-or-string refuses a bool',
      spec({ port: { 'x-kubernetes-int-or-string': true } }),
      { port: true },
      ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"'],
    ],
    [
      'an embedded resource needs apiVersion and kind',
      spec({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
      { template: {} },
      ['spec.template.apiVersion: Required value: must not be empty', 'spec.template.kind: Required value: must not be empty'],
    ],
  ])('%s', (_, schema, specValue, want) => {
    expect(messages(validateValue(schema, { apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a' }, spec: specValue }))).toEqual(want);
  });

  it('the root does not require apiVersion, kind or metadata of the object itself', () => {
    expect(validateValue({ type: 'object', required: ['metadata', 'spec'], properties: { spec: { type: 'object' } } }, { metadata: {} })).toEqual([{ type: 'FieldValueRequired', field: 'spec' }]);
  });
});

describe('prune', () => {
  it.each<[string, JSONSchemaProps, Record<string, unknown>, Record<string, unknown>]>([
    [
      'unknown fields go, the object meta stays',
      spec({ a: { type: 'string' } }),
      { apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, spec: { a: 'x', b: 'y' }, top: 1 },
      { apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, spec: { a: 'x' } },
    ],
    ['preserved subtrees stay', spec({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }), { spec: { free: { deep: { x: 1 } } } }, { spec: { free: { deep: { x: 1 } } } }],
    ['inside lists', spec({ l: { type: 'array', items: obj({ a: { type: 'string' } }) } }), { spec: { l: [{ a: '1', b: 2 }] } }, { spec: { l: [{ a: '1' }] } }],
    [
      'map values by additionalProperties',
      spec({ m: { type: 'object', additionalProperties: obj({ a: { type: 'string' } }) } }),
      { spec: { m: { k: { a: '1', b: 2 } } } },
      { spec: { m: { k: { a: '1' } } } },
    ],
    [
      'an embedded resource keeps its own meta',
      spec({ t: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } } }),
      { spec: { t: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: {}, junk: 1 } } },
      { spec: { t: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: {} } } },
    ],
  ])('%s', (_, schema, value, want) => {
    prune(schema, value);
    expect(value).toEqual(want);
  });
});

describe('applyDefaults', () => {
  it.each<[string, JSONSchemaProps, Record<string, unknown>, Record<string, unknown>]>([
    ['an absent field takes its default', spec({ replicas: { type: 'integer', default: 1 } }), { spec: {} }, { spec: { replicas: 1 } }],
    ['a present field keeps its value', spec({ replicas: { type: 'integer', default: 1 } }), { spec: { replicas: 3 } }, { spec: { replicas: 3 } }],
    ['an absent object is not made to hold a default', spec({ replicas: { type: 'integer', default: 1 } }), {}, {}],
    ['a defaulted object is then defaulted inside', obj({ spec: obj({ n: { type: 'integer', default: 2 } }, { default: {} }) }), {}, { spec: { n: 2 } }],
    ['list items', spec({ l: { type: 'array', items: obj({ p: { type: 'string', default: 'TCP' } }) } }), { spec: { l: [{}, { p: 'UDP' }] } }, { spec: { l: [{ p: 'TCP' }, { p: 'UDP' }] } }],
  ])('%s', (_, schema, value, want) => {
    applyDefaults(schema, value);
    expect(value).toEqual(want);
  });
});
