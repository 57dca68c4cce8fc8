import { describe, expect, it } from 'vitest';
import { applyPatch } from './index.js';

const MP = 'application/merge-patch+json';

describe('merge patch (RFC 7386)', () => {
  // The examples of RFC 7386 appendix A, as object documents.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (orig, patch, want) => {
    expect(applyPatch(MP, orig, patch)).toEqual(want);
  });

  it('kubectl label: adds a label and removes another', () => {
    const pod = { kind: 'Pod', metadata: { name: 'p', labels: { a: '1', b: '2' } } };
    expect(applyPatch(MP, pod, '{"metadata":{"labels":{"b":null,"c":"3"}}}')).toEqual({
      kind: 'Pod',
      metadata: { name: 'p', labels: { a: '1', c: '3' } },
    });
  });

  it('rejects a non-object patch with 400', () => {
    expect(() => applyPatch(MP, {}, '[1]')).toThrow('merge patch: the patch must be a JSON object');
    expect(() => applyPatch(MP, {}, '{bad')).toThrow(/^error decoding patch/);
  });
});
