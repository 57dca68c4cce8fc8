// CoreDNS's cache plugin: replies kept by question for at most the
// configured TTL (and never longer than their own records' TTL), positive
// ("success") and negative ("denial") entries in two bounded maps of
// CoreDNS's default capacity. Pure: the clock is an argument.

import type { Answer } from 'dns-packet';
import type { Reply } from './records.js';

/** CoreDNS's default capacity of each of the success and denial caches. */
export const CACHE_CAPACITY = 9984;

/** A reply as kept: any rcode, and whether it was authoritative (the AA bit is kept with it). */
export type CachedReply = Omit<Reply, 'rcode'> & { rcode: string; aa?: boolean };

interface Entry {
  reply: CachedReply;
  storedMs: number;
  ttl: number;
}

export type CacheKind = 'success' | 'denial';

const kindOf = (r: CachedReply): CacheKind => (r.rcode === 'NXDOMAIN' || r.answers.length === 0 ? 'denial' : 'success');
const ttls = (r: CachedReply) => [...r.answers, ...r.authority, ...r.additionals].map((a) => ('ttl' in a && a.ttl !== undefined ? a.ttl : 0));

export class DnsCache {
  private readonly maps: Record<CacheKind, Map<string, Entry>> = { success: new Map(), denial: new Map() };
  constructor(
    private readonly maxTtl: number,
    private readonly capacity = CACHE_CAPACITY,
  ) {}

  size(kind: CacheKind): number {
    return this.maps[kind].size;
  }

  /** A kept reply with its TTLs counted down, or undefined (a miss); an expired entry is dropped. */
  get(key: string, nowMs: number): { reply: CachedReply; kind: CacheKind } | undefined {
    for (const kind of ['success', 'denial'] as const) {
      const e = this.maps[kind].get(key);
      if (!e) continue;
      const age = Math.floor((nowMs - e.storedMs) / 1000);
      if (age >= e.ttl) {
        this.maps[kind].delete(key);
        return undefined;
      }
      const left = (a: Answer): Answer => ('ttl' in a ? { ...a, ttl: Math.max(0, Math.min(a.ttl ?? 0, e.ttl) - age) } : a);
      return { kind, reply: { ...e.reply, answers: e.reply.answers.map(left), authority: e.reply.authority.map(left), additionals: e.reply.additionals.map(left) } };
    }
    return undefined;
  }

  /** Keeps a NOERROR or NXDOMAIN reply (SERVFAIL and others are not kept); the oldest entry goes when full. */
  set(key: string, reply: CachedReply, nowMs: number): void {
    if (reply.rcode !== 'NOERROR' && reply.rcode !== 'NXDOMAIN') return;
    const ttl = Math.min(this.maxTtl, ...ttls(reply));
    if (ttl <= 0) return;
    const map = this.maps[kindOf(reply)];
    map.delete(key);
    map.set(key, { reply, storedMs: nowMs, ttl });
    if (map.size > this.capacity) map.delete(map.keys().next().value!);
  }
}
