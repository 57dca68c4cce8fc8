import { describe, expect, it } from 'vitest';
import { MAX_SHAPE_LENGTH, shapeOf } from './shape.js';

type O = Record<string, unknown>;
const cm = (data: O, meta: O = {}): O => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', ...meta }, data });

describe('shapeOf: objects whose field sets may differ have different shapes', () => {
  it.each<[string, O, O]>([
    ['another key', cm({ a: '1' }), cm({ b: '1' })],
    ['one more key', cm({ a: '1' }), cm({ a: '1', b: '2' })],
    ['an empty map and a map with members', cm({}), cm({ a: '1' })],
    ['an object and a scalar', { spec: { replicas: 1 } }, { spec: 'x' }],
    ['an empty list and a list with items', { spec: { finalizers: [] } }, { spec: { finalizers: ['a'] } }],
    ['a set list value', { metadata: { finalizers: ['a'] } }, { metadata: { finalizers: ['b'] } }],
    ['a map list key', { spec: { containers: [{ name: 'web' }] } }, { spec: { containers: [{ name: 'db' }] } }],
    ['a key of another type', { spec: { ports: [{ port: 80 }] } }, { spec: { ports: [{ port: '80' }] } }],
    ['names that would run together', { ab: { c: 1 } }, { a: { bc: 1 } }],
    ['a name holding the marks', { 'a.}{': 1 }, { a: { '}': 1 } }],
    ['null and a string inside a list', { l: [null] }, { l: ['null'] }],
  ])('%s', (_name, a, b) => {
    expect(shapeOf(a)).not.toBe(shapeOf(b));
  });
});

describe('shapeOf: objects of the same field set', () => {
  it.each<[string, O, O]>([
    ['other scalar values', cm({ a: '1' }, { name: 'x', uid: 'u1' }), cm({ a: '22' }, { name: 'y', uid: 'u2' })],
    ['scalars of other types', { spec: { replicas: 1 } }, { spec: { replicas: null } }],
    ['an undefined member is absent', { spec: { a: 1, b: undefined } }, { spec: { a: 1 } }],
  ])('%s', (_name, a, b) => {
    expect(shapeOf(a)).toBe(shapeOf(b));
  });
});

describe('shapeOf: too long to remember', () => {
  it.each<[string, O]>([
    ['many keys', { data: Object.fromEntries(Array.from({ length: MAX_SHAPE_LENGTH }, (_, i) => [`k${i}`, 'v'])) }],
    ['a long list', { l: Array.from({ length: MAX_SHAPE_LENGTH }, (_, i) => i) }],
    ['deep nesting (no stack overflow)', Array.from({ length: 100_000 }).reduce<O>((inner) => ({ a: inner }), {})],
  ])('%s', (_name, o) => {
    expect(shapeOf(o)).toBeUndefined();
  });
});
