import { describe, expect, it } from 'vitest';
import { identity, PrefixTransformers, type Transformer } from './transformer.js';

/** A transformer that tags values (`<tag>|`) and refuses others: enough to observe which one ran. */
function tagging(tag: string): Transformer {
  return {
    toStorage: (data) => Buffer.concat([Buffer.from(`${tag}|`), data]),
    fromStorage(data) {
      const s = Buffer.from(data).toString();
      if (!s.startsWith(`${tag}|`)) throw new Error(`${tag}: not mine`);
      return { data: Buffer.from(s.slice(tag.length + 1)), stale: false };
    },
  };
}

const p = (prefix: string, transformer: Transformer) => ({ prefix: Buffer.from(prefix), transformer });
const read = (t: Transformer, s: string) => {
  const r = t.fromStorage(Buffer.from(s), 'k');
  return { data: Buffer.from(r.data).toString(), stale: r.stale };
};

describe('identity', () => {
  it('stores as is and refuses encrypted data with upstream text', () => {
    expect(Buffer.from(identity.toStorage(Buffer.from('{}'), 'k')).toString()).toBe('{}');
    expect(read(identity, '{"a":1}')).toEqual({ data: '{"a":1}', stale: false });
    expect(() => identity.fromStorage(Buffer.from('k8s:enc:aescbc:v1:key1:xyz'), 'k')).toThrow('identity transformer tried to read encrypted data');
  });
});

describe('PrefixTransformers', () => {
  const t = new PrefixTransformers([p('A:', tagging('a')), p('B:', tagging('b')), p('', identity)], 'no matching prefix found');

  it('writes with the first, prefixed', () => {
    expect(Buffer.from(t.toStorage(Buffer.from('x'), 'k')).toString()).toBe('A:a|x');
  });

  it.each([
    ['the first transformer', 'A:a|x', { data: 'x', stale: false }],
    ['a later transformer: stale, rewrite due', 'B:b|x', { data: 'x', stale: true }],
    ['unprefixed data through identity: stale', '{"plain":true}', { data: '{"plain":true}', stale: true }],
  ])('reads with %s', (_name, stored, want) => {
    expect(read(t, stored)).toEqual(want);
  });

  it('keeps looking after a failed match (two providers sharing a prefix while a key rotates in)', () => {
    const shared = new PrefixTransformers([p('S:', tagging('new')), p('S:', tagging('old'))], 'none');
    expect(read(shared, 'S:old|v')).toEqual({ data: 'v', stale: true });
    expect(() => read(shared, 'S:other|v')).toThrow('[new: not mine, old: not mine]');
  });

  it('without identity, unprefixed or unknown data is an error; an identity failure is never reported', () => {
    const noIdentity = new PrefixTransformers([p('A:', tagging('a'))], 'no matching prefix found');
    expect(() => read(noIdentity, '{"plain":true}')).toThrow('no matching prefix found');
    const identityFirst = new PrefixTransformers([p('', identity)], 'no matching prefix found');
    expect(() => read(identityFirst, 'k8s:enc:aescbc:v1:key1:zz')).toThrow('no matching prefix found');
    expect(() => read(noIdentity, 'A:b|x')).toThrow('a: not mine');
    // With identity listed, data a prefixed provider fails on falls through to it, as upstream's does.
    expect(read(t, 'A:b|x')).toEqual({ data: 'A:b|x', stale: true });
  });
});
