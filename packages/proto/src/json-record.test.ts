import { describe, expect, it } from 'vitest';
import { parseJsonObject } from './json-record.js';

describe('lenient JSON records', () => {
  it.each<[string, string, Record<string, unknown> | undefined]>([
    ['an object', '{"a":1}', { a: 1 }],
    ['not JSON', 'nope', undefined],
    ['an array', '[1]', undefined],
    ['null', 'null', undefined],
    ['a string', '"x"', undefined],
  ])('%s', (_name, data, want) => expect(parseJsonObject(data)).toEqual(want));
});
