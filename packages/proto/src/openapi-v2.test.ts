import { describe, expect, it } from 'vitest';
import { decodeOpenApiV2, encodeOpenApiV2, type GnosticDocument } from './openapi-v2.js';

const doc: GnosticDocument = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.32.4' },
  paths: {
    path: [
      {
        name: '/api/v1/namespaces/{namespace}/pods/{name}',
        value: {
          patch: {
            operation_id: 'patchNamespacedPod',
            parameters: [{ parameter: { non_body_parameter: { query_parameter_sub_schema: { name: 'fieldValidation', in: 'query', type: 'string', unique_items: true } } } }],
            vendor_extension: [{ name: 'x-kubernetes-group-version-kind', value: { yaml: 'group: ""\nkind: Pod\nversion: v1\n' } }],
          },
        },
      },
    ],
  },
  definitions: {
    additional_properties: [
      {
        name: 'io.k8s.api.core.v1.PodSpec',
        value: {
          type: { value: ['object'] },
          required: ['containers'],
          properties: { additional_properties: [{ name: 'containers', value: { type: { value: ['array'] }, items: { schema: [{ _ref: '#/definitions/io.k8s.api.core.v1.Container' }] } } }] },
        },
      },
    ],
  },
};

describe('OpenAPI v2 protobuf (gnostic Document)', () => {
  it('decodes what it encodes, keeping the order of named lists', () => {
    expect(decodeOpenApiV2(encodeOpenApiV2(doc))).toEqual(doc);
  });

  it('puts swagger in field 1 and info in field 2 as upstream numbers them', () => {
    const bytes = encodeOpenApiV2(doc);
    // Tag 0x0a = field 1, length-delimited; then "2.0".
    expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 3, 0x32, 0x2e, 0x30]);
    expect(bytes[5]).toBe(0x12);
  });

  it('refuses bytes that are not a Document', () => {
    expect(() => decodeOpenApiV2(Uint8Array.from([0x0a, 0x7f]))).toThrow();
  });
});
