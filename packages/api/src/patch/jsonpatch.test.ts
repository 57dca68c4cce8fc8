import { describe, expect, it } from 'vitest';
import { applyPatch } from './index.js';
import { StatusError } from '../meta/status.js';

const JP = 'application/json-patch+json';
const doc = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'a' }, { name: 'b' }] } };

describe('json patch (RFC 6902)', () => {
  it.each([
    ['add a map key', [{ op: 'add', path: '/metadata/labels/tier', value: 'front' }], { ...doc, metadata: { name: 'web', labels: { app: 'web', tier: 'front' } } }],
    ['add at end of list', [{ op: 'add', path: '/spec/containers/-', value: { name: 'c' } }], { ...doc, spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } }],
    ['add inserts at index', [{ op: 'add', path: '/spec/containers/0', value: { name: 'z' } }], { ...doc, spec: { containers: [{ name: 'z' }, { name: 'a' }, { name: 'b' }] } }],
    ['remove a list item', [{ op: 'remove', path: '/spec/containers/0' }], { ...doc, spec: { containers: [{ name: 'b' }] } }],
    ['replace a value', [{ op: 'replace', path: '/metadata/name', value: 'x' }], { ...doc, metadata: { name: 'x', labels: { app: 'web' } } }],
    ['escaped pointer', [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'w' }], { ...doc, metadata: { name: 'web', labels: { app: 'web', 'app.kubernetes.io/name': 'w' } } }],
    ['move', [{ op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/role' }], { ...doc, metadata: { name: 'web', labels: { role: 'web' } } }],
    ['copy', [{ op: 'copy', from: '/metadata/name', path: '/metadata/labels/n' }], { ...doc, metadata: { name: 'web', labels: { app: 'web', n: 'web' } } }],
    ['test passes', [{ op: 'test', path: '/metadata/name', value: 'web' }], doc],
  ])('%s', (_name, patch, want) => {
    expect(applyPatch(JP, doc, patch)).toEqual(want);
  });

  it('never mutates the original', () => {
    const before = JSON.stringify(doc);
    applyPatch(JP, doc, [{ op: 'remove', path: '/metadata/labels/app' }]);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it.each([
    ['failed test is 422', [{ op: 'test', path: '/metadata/name', value: 'x' }], 422, 'testing value /metadata/name failed: test failed'],
    ['missing parent is 422', [{ op: 'add', path: '/spec/foo/bar', value: 1 }], 422, 'add operation does not apply: doc is missing path: "/spec/foo/bar": missing value'],
    ['remove missing key is 422', [{ op: 'remove', path: '/metadata/annotations' }], 422, 'remove operation does not apply: doc is missing path: "/metadata/annotations": missing value'],
    ['unknown op is 400', [{ op: 'frob', path: '/a' }], 400, 'Unexpected kind: frob'],
    ['not a list is 400', { op: 'add' }, 400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
  ])('%s', (_name, patch, code, message) => {
    try {
      applyPatch(JP, doc, patch);
      expect.fail('patch applied');
    } catch (e) {
      expect(StatusError.isInstance(e)).toBe(true);
      expect((e as StatusError).status).toMatchObject({ code, message });
    }
  });
});
