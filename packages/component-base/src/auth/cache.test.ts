import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './cache.js';

describe('ExpiringCache', () => {
  it('keeps an entry for its own TTL', () => {
    let now = 0;
    const c = new ExpiringCache<string>(10, () => now);
    c.set('allowed', 'yes', 300_000);
    c.set('denied', 'no', 30_000);
    now = 29_999;
    expect([c.get('allowed'), c.get('denied')]).toEqual(['yes', 'no']);
    now = 30_000;
    expect([c.get('allowed'), c.get('denied')]).toEqual(['yes', undefined]);
    now = 300_000;
    expect(c.get('allowed')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('holds at most max entries, dropping the least recently used', () => {
    const c = new ExpiringCache<number>(2, () => 0);
    c.set('a', 1, 1000);
    c.set('b', 2, 1000);
    expect(c.get('a')).toBe(1);
    c.set('c', 3, 1000);
    expect([c.get('a'), c.get('b'), c.get('c'), c.size]).toEqual([1, undefined, 3, 2]);
  });

  it('stores nothing with a zero TTL (caching off)', () => {
    const c = new ExpiringCache<number>(2, () => 0);
    c.set('a', 1, 0);
    expect(c.get('a')).toBeUndefined();
  });
});
