import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { decodeOpenApiV2, type GnosticOperation, type GnosticSchema, type NamedAny, type ParametersItem } from '@kubelab/proto';
import { swaggerDocument, toSwaggerSchema } from './swagger.js';
import { toGnosticDocument } from './gnostic.js';
import { etagMatches, negotiateOpenApiV2, openapiV2 } from './v2.js';

type Schema = { $ref?: string; description?: string; type?: string; items?: Schema; properties?: Record<string, Schema>; [x: string]: unknown };
type Operation = { parameters: { name: string; in: string; type?: string; schema?: Schema }[]; responses: Record<string, { schema?: Schema }>; [x: string]: unknown };
type Swagger = {
  swagger: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation> & { parameters?: { name: string; in: string }[] }>;
  definitions: Record<string, Schema>;
};

const doc = swaggerDocument() as unknown as Swagger;
const POD_PATH = '/api/v1/namespaces/{namespace}/pods/{name}';

describe('the Swagger 2.0 document', () => {
  it('has the header and the definitions kubectl looks up by upstream name', () => {
    expect(doc.swagger).toBe('2.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: 'v1.32.4' });
    expect(Object.keys(doc.definitions)).toEqual(expect.arrayContaining(['io.k8s.api.core.v1.Pod', 'io.k8s.api.apps.v1.Deployment', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']));
  });

  it('a typed field is a $ref into #/definitions beside its description', () => {
    const spec = doc.definitions['io.k8s.api.core.v1.Pod']!.properties!.spec!;
    expect(spec.$ref).toBe('#/definitions/io.k8s.api.core.v1.PodSpec');
    expect(spec.description).toEqual(expect.any(String));
    expect(spec).not.toHaveProperty('allOf');
  });

  it('keeps the strategic-merge metadata and the GVK of top-level kinds', () => {
    const podSpec = doc.definitions['io.k8s.api.core.v1.PodSpec']!;
    expect(podSpec.properties!.containers).toMatchObject({
      type: 'array',
      items: { $ref: '#/definitions/io.k8s.api.core.v1.Container' },
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']!['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  });

  it('every $ref resolves to a definition and none points into OpenAPI v3 components', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('#/components/');
    const refs = [...text.matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((r) => !(r in doc.definitions))).toEqual([]);
  });

  it('has no oneOf (Swagger 2.0 lacks it): int-or-string and quantities are strings', () => {
    expect(JSON.stringify(doc)).not.toContain('"oneOf"');
    expect(doc.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ type: 'string', format: 'int-or-string' });
    expect(doc.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({ type: 'string' });
  });

  it('describes the operations with their action, GVK, body and query parameters', () => {
    const item = doc.paths[POD_PATH]!;
    expect(item.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(['path:name', 'path:namespace']);
    const patch = item.patch!;
    expect(patch['x-kubernetes-action']).toBe('patch');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(patch.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['body:body', 'query:dryRun', 'query:fieldManager', 'query:fieldValidation', 'query:force']);
    expect(patch.parameters.find((p) => p.name === 'fieldValidation')).toMatchObject({ type: 'string' });
    expect(patch.parameters.find((p) => p.name === 'fieldValidation')).not.toHaveProperty('schema');
    expect(item.put!.parameters[0]).toEqual({ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.core.v1.Pod' } });
    expect(item.get!.responses['200']!.schema).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.Pod' });
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments']!.get!['x-kubernetes-action']).toBe('list');
  });
});

describe('toSwaggerSchema', () => {
  it.each([
    ['a ref field', { description: 'd', allOf: [{ $ref: '#/components/schemas/X' }] }, { description: 'd', $ref: '#/definitions/X' }],
    ['an item with a default', { type: 'array', items: { default: {}, allOf: [{ $ref: '#/components/schemas/X' }] } }, { type: 'array', items: { $ref: '#/definitions/X' } }],
    ['a map', { type: 'object', additionalProperties: { type: 'string', default: '' } }, { type: 'object', additionalProperties: { type: 'string', default: '' } }],
    ['a oneOf', { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] }, { format: 'int-or-string', type: 'string' }],
  ])('%s', (_what, v3, v2) => {
    expect(toSwaggerSchema(v3)).toEqual(v2);
  });
});

/** The vendor extensions of a message as values (their YAML parsed, as kubectl reads them). */
const ext = (v: NamedAny[] | undefined): Record<string, unknown> => Object.fromEntries((v ?? []).map((e) => [e.name, parse(e.value.yaml) as unknown]));
const prop = (s: GnosticSchema | undefined, name: string) => s?.properties?.additional_properties.find((p) => p.name === name)?.value;
const queryName = (p: ParametersItem): string | undefined => {
  const nb = 'parameter' in p && 'non_body_parameter' in p.parameter ? p.parameter.non_body_parameter : undefined;
  return nb && 'query_parameter_sub_schema' in nb ? nb.query_parameter_sub_schema.name : undefined;
};

describe('the protobuf Document', () => {
  const decoded = decodeOpenApiV2(openapiV2().protobuf);

  it('decodes to the same header, paths and definitions, in order', () => {
    expect(decoded.swagger).toBe('2.0');
    expect(decoded.info).toEqual({ title: 'Kubernetes', version: 'v1.32.4' });
    expect(decoded.paths.path.map((p) => p.name)).toEqual(Object.keys(doc.paths));
    expect(decoded.definitions.additional_properties.map((d) => d.name)).toEqual(Object.keys(doc.definitions));
  });

  it('carries a definition with its $ref fields, list metadata and GVK as kubectl reads them', () => {
    const def = (n: string) => decoded.definitions.additional_properties.find((d) => d.name === n)?.value;
    const containers = prop(def('io.k8s.api.core.v1.PodSpec'), 'containers')!;
    expect(containers.type).toEqual({ value: ['array'] });
    expect(containers.items!.schema[0]!._ref).toBe('#/definitions/io.k8s.api.core.v1.Container');
    expect(ext(containers.vendor_extension)).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
    expect(prop(def('io.k8s.api.core.v1.Pod'), 'spec')!._ref).toBe('#/definitions/io.k8s.api.core.v1.PodSpec');
    expect(ext(def('io.k8s.api.core.v1.Pod')!.vendor_extension)['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(def('io.k8s.api.core.v1.PodSpec')!.required).toEqual(['containers']);
  });

  it('carries the patch operation kubectl checks for fieldValidation', () => {
    const patch: GnosticOperation = decoded.paths.path.find((p) => p.name === POD_PATH)!.value.patch!;
    expect(ext(patch.vendor_extension)).toEqual({ 'x-kubernetes-action': 'patch', 'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'Pod' } });
    expect(patch.parameters!.map(queryName)).toContain('fieldValidation');
    expect(patch.parameters![0]).toMatchObject({ parameter: { body_parameter: { name: 'body', in: 'body', required: true } } });
  });

  it('refuses a schema keyword gnostic cannot carry rather than dropping it', () => {
    const bad = { swagger: '2.0', info: { title: 'T', version: 'v' }, paths: {}, definitions: { X: { properties: { a: { oneOf: [{ type: 'string' }] } } } } };
    expect(() => toGnosticDocument(bad)).toThrow("openapi v2: X.a has oneOf, which gnostic's Schema does not carry");
  });
});

describe('negotiateOpenApiV2', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    ['application/json;q=0.5, application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
    ['*/*;q=0.1, application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
    ['text/html, application/*;q=0.9', 'json'],
    ['text/html', undefined],
    ['application/json;q=0', undefined],
    ['application/yaml', undefined],
  ])('%s → %s', (accept, format) => {
    expect(negotiateOpenApiV2(accept)).toBe(format);
  });
});

describe('etagMatches', () => {
  it.each([
    [undefined, false],
    ['"AB"', true],
    ['W/"AB"', true],
    ['"XY", "AB"', true],
    ['*', true],
    ['"XY"', false],
    ['AB', false],
  ])('If-None-Match %s → %s', (header, match) => {
    expect(etagMatches(header, '"AB"')).toBe(match);
  });
});
