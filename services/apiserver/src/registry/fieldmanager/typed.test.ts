import { describe, expect, it } from 'vitest';
import { kindRef } from './schema.js';
import { toFieldsV1 } from './set.js';
import { compare, merge, removePath, toFieldSet } from './typed.js';
import { field as f, key } from './path.js';

const deployment = kindRef('Deployment');
const pod = kindRef('Pod');
const service = kindRef('Service');

describe('toFieldSet: what an applied configuration specifies', () => {
  it.each([
    ['scalars and granular maps', deployment, { spec: { replicas: 2 }, metadata: { labels: { app: 'web' } } }, { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } }],
    ['an atomic struct (LabelSelector) as one leaf', deployment, { spec: { selector: { matchLabels: { app: 'web' } } } }, { 'f:spec': { 'f:selector': {} } }],
    [
      'a map list by its merge key, the item itself a member',
      pod,
      { spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
    ],
    ['ports keyed by port and the defaulted protocol', service, { spec: { ports: [{ port: 80 }] } }, { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} } } } }],
    ['a set list by value', pod, { metadata: { finalizers: ['a', 'b'] } }, { 'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } } }],
    [
      'an atomic list (command) as one leaf',
      pod,
      { spec: { containers: [{ name: 'c', command: ['sh'] }] } },
      { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:command': {}, 'f:name': {} } } } },
    ],
    ['an atomic map (nodeSelector) as one leaf', pod, { spec: { nodeSelector: { a: 'b' } } }, { 'f:spec': { 'f:nodeSelector': {} } }],
    ['a field the schema does not know: deduced', pod, { spec: { future: { a: 1 } } }, { 'f:spec': { 'f:future': { 'f:a': {} } } }],
    ['an empty object specifies nothing', deployment, { spec: {} }, {}],
  ])('%s', (_name, ref, config, want) => {
    expect(toFieldsV1(toFieldSet(config, ref))).toEqual(want);
  });

  it.each([
    [
      'an item without its key',
      { spec: { containers: [{ image: 'nginx' }] } },
      '.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
    ['two items with one key', { spec: { containers: [{ name: 'a' }, { name: 'a' }] } }, '.spec.containers: duplicate entries for key [name="a"]'],
  ])('refuses %s', (_name, config, message) => {
    expect(() => toFieldSet(config, pod)).toThrow(message);
  });
});

describe('compare: what changed between two objects', () => {
  it.each([
    ['a changed scalar is modified', { spec: { replicas: 1 } }, { spec: { replicas: 2 } }, {}, { 'f:spec': { 'f:replicas': {} } }, {}],
    ['a new map is added with its members ("." )', { metadata: {} }, { metadata: { labels: { a: 'b' } } }, { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }, {}, {}],
    [
      'a new struct adds its leaves, not itself (a Go value struct is always there)',
      { spec: {} },
      { spec: { template: { spec: { restartPolicy: 'Always' } } } },
      { 'f:spec': { 'f:template': { 'f:spec': { 'f:restartPolicy': {} } } } },
      {},
      {},
    ],
    ['a removed member', { spec: { replicas: 1, paused: true } }, { spec: { replicas: 1 } }, {}, {}, { 'f:spec': { 'f:paused': {} } }],
    ['an atomic selector changes as one leaf', { spec: { selector: { matchLabels: { a: 'b' } } } }, { spec: { selector: { matchLabels: { a: 'c' } } } }, {}, { 'f:spec': { 'f:selector': {} } }, {}],
    ['absent and {} differ (a leaf)', { spec: {} }, { spec: { strategy: {} } }, { 'f:spec': { 'f:strategy': {} } }, {}, {}],
    ['unchanged: nothing', { spec: { replicas: 1 } }, { spec: { replicas: 1 } }, {}, {}, {}],
  ])('%s', (_name, lhs, rhs, added, modified, removed) => {
    const c = compare(lhs, rhs, deployment);
    expect([toFieldsV1(c.added), toFieldsV1(c.modified), toFieldsV1(c.removed)]).toEqual([added, modified, removed]);
  });

  it('compares map list items by key, whatever their order', () => {
    const c = compare(
      {
        spec: {
          containers: [
            { name: 'a', image: '1' },
            { name: 'b', image: '1' },
          ],
        },
      },
      { spec: { containers: [{ name: 'b', image: '2' }, { name: 'c' }] } },
      pod,
    );
    expect(toFieldsV1(c.added)).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {} } } } });
    expect(toFieldsV1(c.modified)).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"b"}': { 'f:image': {} } } } });
    expect(toFieldsV1(c.removed)).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });
});

describe('merge: a configuration into a live object', () => {
  it.each([
    ['the configuration wins, the rest stays', { spec: { replicas: 1, paused: true } }, { spec: { replicas: 3 } }, { spec: { replicas: 3, paused: true } }],
    ['maps merge by member', { metadata: { labels: { a: '1' } } }, { metadata: { labels: { b: '2' } } }, { metadata: { labels: { a: '1', b: '2' } } }],
    ['an atomic struct is replaced', { spec: { selector: { matchLabels: { a: '1' } } } }, { spec: { selector: { matchExpressions: [] } } }, { spec: { selector: { matchExpressions: [] } } }],
  ])('%s', (_name, live, config, want) => {
    expect(merge(live, config, deployment)).toEqual(want);
  });

  it('merges map list items by key (live order, new ones after), sets by value', () => {
    const live = { metadata: { finalizers: ['x'] }, spec: { containers: [{ name: 'a', image: '1', tty: true }, { name: 'b' }] } };
    const config = { metadata: { finalizers: ['y', 'x'] }, spec: { containers: [{ name: 'c' }, { name: 'a', image: '2' }] } };
    expect(merge(live, config, pod)).toEqual({ metadata: { finalizers: ['x', 'y'] }, spec: { containers: [{ name: 'a', image: '2', tty: true }, { name: 'b' }, { name: 'c' }] } });
  });
});

describe('removePath', () => {
  it.each([
    ['a scalar', { spec: { replicas: 1, paused: true } }, [f('spec'), f('paused')], { spec: { replicas: 1 } }],
    ['the last label takes the empty map with it', { metadata: { name: 'x', labels: { a: '1' } } }, [f('metadata'), f('labels'), f('a')], { metadata: { name: 'x' } }],
    [
      'a keyed item',
      { spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } } } },
      [f('spec'), f('template'), f('spec'), f('containers'), key({ name: 'a' })],
      { spec: { template: { spec: { containers: [{ name: 'b' }] } } } },
    ],
    [
      'a field of a keyed item',
      { spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } } } },
      [f('spec'), f('template'), f('spec'), f('containers'), key({ name: 'a' }), f('image')],
      { spec: { template: { spec: { containers: [{ name: 'a' }] } } } },
    ],
    ['a path that is not there', { spec: {} }, [f('spec'), f('replicas')], { spec: {} }],
  ])('%s', (_name, obj, path, want) => {
    removePath(obj as Record<string, unknown>, path, deployment);
    expect(obj).toEqual(want);
  });
});
