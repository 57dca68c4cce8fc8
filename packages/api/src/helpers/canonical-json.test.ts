import { describe, expect, it } from 'vitest';
import { canonicalJson, semanticJson } from './canonical-json.js';

describe('canonical JSON', () => {
  it('sorts keys at every depth and leaves out undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: undefined, x: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[{"x":null,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
  it('keeps list order and prints undefined list items and values as null', () => {
    expect(canonicalJson([3, undefined, 1])).toBe('[3,null,1]');
    expect(canonicalJson(undefined)).toBe('null');
  });
  it('as Go decodes: null fields and empty lists equal absent ones, empty objects and null items stay', () => {
    expect(semanticJson({ metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', args: [] }], volumes: [] } })).toBe(
      semanticJson({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } }),
    );
    expect(semanticJson({ a: {}, b: [null] })).toBe('{"a":{},"b":[null]}');
    expect(canonicalJson({ a: null }, { omitNull: true })).toBe('{}');
    expect(canonicalJson({ a: [] }, { omitNull: true })).toBe('{"a":[]}');
  });
  it('prints values with toJSON (quantities) as JSON.stringify does', () => {
    expect(canonicalJson({ q: { toJSON: () => '100m' } })).toBe('{"q":"100m"}');
  });
});
