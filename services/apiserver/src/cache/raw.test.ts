// The JSON kept beside an object: written through by the transports, never
// part of the object itself (not serialized, not copied by a spread).
import { describe, expect, it } from 'vitest';
import { attachRaw, deepFreeze, hasRaw, rawJson, rawText } from './raw.js';

describe('attachRaw', () => {
  it('serves the kept JSON and bytes, and stays out of the object', () => {
    const obj = { metadata: { name: 'a', resourceVersion: '7' } };
    attachRaw(obj, '{"kept":true}', Buffer.from('{"kept":"bytes"}'));
    deepFreeze(obj);
    expect([rawText(obj), rawJson(obj).toString()]).toEqual(['{"kept":true}', '{"kept":"bytes"}']);
    expect(JSON.stringify(obj)).toBe('{"metadata":{"name":"a","resourceVersion":"7"}}');
    expect(Object.keys(obj)).toEqual(['metadata']);
    const copy = { ...obj };
    expect([hasRaw(obj), hasRaw(copy), rawText(copy)]).toEqual([true, false, JSON.stringify(obj)]);
  });

  it('keeps the JSON of an object frozen before (and builds its bytes once)', () => {
    const obj = Object.freeze({ kind: 'Pod' });
    attachRaw(obj, '{"kind":"Pod","x":1}');
    const buf = rawJson(obj);
    expect([buf.toString(), rawJson(obj) === buf, rawText(obj)]).toEqual(['{"kind":"Pod","x":1}', true, '{"kind":"Pod","x":1}']);
  });

  it('an object without kept JSON is encoded afresh', () => {
    expect([hasRaw({ a: 1 }), rawJson({ a: 1 }).toString()]).toEqual([false, '{"a":1}']);
  });
});
