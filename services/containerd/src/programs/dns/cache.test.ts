import { describe, expect, it } from 'vitest';
import { DnsCache, type CachedReply } from './cache.js';

const a = (ttl: number): CachedReply => ({ rcode: 'NOERROR', aa: true, answers: [{ name: 'web', type: 'A', class: 'IN', ttl, data: '10.96.0.5' }], authority: [], additionals: [] });

describe('DnsCache', () => {
  it('keeps a reply for min(its TTL, the cache TTL), counting TTLs down', () => {
    const c = new DnsCache(30);
    c.set('web/A', a(300), 0);
    expect(c.get('web/A', 10_500)).toEqual({ kind: 'success', reply: { ...a(300), answers: [{ ...a(300).answers[0], ttl: 20 }] } });
    expect(c.get('web/A', 30_000)).toBeUndefined();
    expect(c.size('success')).toBe(0);
  });

  it('puts NXDOMAIN and NODATA in the denial cache; never SERVFAIL', () => {
    const c = new DnsCache(30);
    c.set('nx/A', { rcode: 'NXDOMAIN', answers: [], authority: [{ name: 'cluster.local', type: 'A', ttl: 30, data: '1.2.3.4' }], additionals: [] }, 0);
    c.set('sf/A', { rcode: 'SERVFAIL', answers: [], authority: [], additionals: [] }, 0);
    expect(c.get('nx/A', 1000)?.kind).toBe('denial');
    expect(c.get('sf/A', 1000)).toBeUndefined();
  });

  it('stays within its capacity, dropping the oldest', () => {
    const c = new DnsCache(30, 2);
    for (const k of ['a', 'b', 'c']) c.set(k, a(30), 0);
    expect(c.size('success')).toBe(2);
    expect(c.get('a', 0)).toBeUndefined();
    expect(c.get('c', 0)?.kind).toBe('success');
  });
});
