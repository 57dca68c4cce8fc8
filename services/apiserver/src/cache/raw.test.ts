// The JSON kept beside an object: written through by the transports, never
// part of the object itself (not serialized, not copied by a spread).
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '@kubelab/api';
import { attachRaw, hasRaw, rawJson, rawText } from './raw.js';

describe('attachRaw', () => {
  it('serves the kept JSON bytes, and stays out of the object', () => {
    const obj = { metadata: { name: 'a', resourceVersion: '7' } };
    const buf = Buffer.from('{"kept":"bytes"}');
    attachRaw(obj, { buf });
    deepFreeze(obj);
    expect([rawText(obj), rawJson(obj) === buf]).toEqual(['{"kept":"bytes"}', true]);
    expect(JSON.stringify(obj)).toBe('{"metadata":{"name":"a","resourceVersion":"7"}}');
    expect(Object.keys(obj)).toEqual(['metadata']);
    const copy = { ...obj };
    expect([hasRaw(obj), hasRaw(copy), rawText(copy)]).toEqual([true, false, JSON.stringify(obj)]);
  });

  it('keeps the JSON of an object frozen before', () => {
    const obj = Object.freeze({ kind: 'Pod' });
    attachRaw(obj, { buf: Buffer.from('{"kind":"Pod","x":1}') });
    expect([rawJson(obj).toString(), rawText(obj)]).toEqual(['{"kind":"Pod","x":1}', '{"kind":"Pod","x":1}']);
  });

  it('an object without kept JSON is encoded afresh', () => {
    expect([hasRaw({ a: 1 }), rawJson({ a: 1 }).toString()]).toEqual([false, '{"a":1}']);
  });
});
