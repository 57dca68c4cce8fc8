import { describe, expect, it } from 'vitest';
import { field, key, pathString, value } from './path.js';
import { difference, FieldSet, fromFieldsV1, intersection, toFieldsV1, union } from './set.js';

const set = (...paths: string[][]) => paths.reduce((s, p) => s.insert(p), new FieldSet());
const f = field;

describe('FieldsV1 encoding', () => {
  it.each([
    ['a leaf', set([f('spec'), f('replicas')]), { 'f:spec': { 'f:replicas': {} } }],
    ['a member with children carries "."', set([f('metadata'), f('labels')], [f('metadata'), f('labels'), f('app')]), { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }],
    [
      'keyed items and set values',
      set([f('spec'), f('containers'), key({ name: 'web' })], [f('spec'), f('containers'), key({ name: 'web' }), f('image')], [f('metadata'), f('finalizers'), value('a')]),
      { 'f:metadata': { 'f:finalizers': { 'v:"a"': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } },
    ],
    ['key fields sorted by name', set([f('ports'), key({ protocol: 'TCP', containerPort: 80 })]), { 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} } }],
    ['the empty set', new FieldSet(), {}],
  ])('%s', (_name, s, json) => {
    expect(toFieldsV1(s)).toEqual(json);
    expect(fromFieldsV1(json).equals(s)).toBe(true);
  });

  it.each([
    ['not an object', [], 'expected an object'],
    ['an unknown element', { 'x:spec': {} }, 'parsing JSON: unknown path element "x:spec"'],
    ['a key that is not a JSON object', { 'k:[1]': {} }, 'parsing JSON: unknown path element "k:[1]"'],
  ])('refuses %s', (_name, json, message) => {
    expect(() => fromFieldsV1(json)).toThrow(message);
  });
});

describe('paths as conflicts print them', () => {
  it.each([
    [[f('spec'), f('replicas')], '.spec.replicas'],
    [[f('spec'), f('containers'), key({ name: 'web' }), f('image')], '.spec.containers[name="web"].image'],
    [[f('ports'), key({ containerPort: 80, protocol: 'TCP' })], '.ports[containerPort=80,protocol="TCP"]'],
    [[f('metadata'), f('finalizers'), value('a')], '.metadata.finalizers[="a"]'],
    [[f('metadata'), f('labels'), f('app.kubernetes.io/name')], '.metadata.labels.app.kubernetes.io/name'],
  ])('%j is %s', (path, text) => {
    expect(pathString(path)).toBe(text);
  });
});

describe('set algebra', () => {
  const a = set([f('spec'), f('replicas')], [f('spec'), f('paused')], [f('metadata'), f('labels'), f('app')]);
  const b = set([f('spec'), f('replicas')], [f('metadata'), f('labels'), f('tier')]);
  it.each([
    ['union', union(a, b), set([f('spec'), f('replicas')], [f('spec'), f('paused')], [f('metadata'), f('labels'), f('app')], [f('metadata'), f('labels'), f('tier')])],
    ['difference', difference(a, b), set([f('spec'), f('paused')], [f('metadata'), f('labels'), f('app')])],
    ['intersection', intersection(a, b), set([f('spec'), f('replicas')])],
    ['difference with itself', difference(a, a), new FieldSet()],
  ])('%s', (_name, got, want) => {
    expect(toFieldsV1(got)).toEqual(toFieldsV1(want));
    expect(got.equals(want)).toBe(true);
  });

  it('a difference that removes nothing is the set itself (no copy)', () => {
    expect(difference(a, set([f('status')]))).toBe(a);
  });

  it('lists members depth first, in upstream element order', () => {
    const s = set([f('b')], [f('a'), key({ name: 'x' })], [f('a'), key({ name: 'x' }), f('image')], [f('a'), value(1)]);
    expect(s.paths().map(pathString)).toEqual(['.a[name="x"]', '.a[name="x"].image', '.a[=1]', '.b']);
  });
});
