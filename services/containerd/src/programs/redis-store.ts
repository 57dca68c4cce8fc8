// The keyspace of the simulated redis-server and the commands a lab uses,
// with Redis' own replies and error texts. Pure apart from the clock it is
// given, so it is tested with tables.

import { OK, array, bulk, error, integer, simple, type RespValue } from './resp.js';

type Entry = { kind: 'string'; value: string } | { kind: 'list'; value: string[] } | { kind: 'hash'; value: Map<string, string> };

/** The keyspace's bound: a learner's loop cannot grow the runtime without end (Redis' maxmemory with noeviction). */
export const MAX_DATA_BYTES = 32 * 1024 * 1024;

const WRONGTYPE = error('WRONGTYPE Operation against a key holding the wrong kind of value');
const NOT_INTEGER = error('ERR value is not an integer or out of range');
const SYNTAX = error('ERR syntax error');

export interface ServerInfo {
  version: string;
  port: number;
  startedAtMs: number;
  connectedClients: () => number;
}

/** Redis' glob (KEYS): `*`, `?`, `[abc]`, `[^a]`, `\x`. */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '\\' && i + 1 < pattern.length) re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        let set = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (set.startsWith('^')) set = `^${set.slice(1)}`;
        re += `[${set}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

function humanBytes(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(2)}K`;
  return `${(n / 1024 / 1024).toFixed(2)}M`;
}

export class RedisStore {
  private readonly data = new Map<string, Entry>();
  private readonly expires = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly info: ServerInfo) {}

  /** Bytes the keyspace holds (stats count them as the server's memory). */
  get usedBytes(): number {
    return this.bytes;
  }

  /** Runs one command; `nowMs` is the container clock. */
  exec(args: readonly string[], nowMs: number): RespValue {
    const [rawName, ...a] = args;
    if (rawName === undefined) return error('ERR empty command');
    const name = rawName.toLowerCase();
    const arity = ARITY[name];
    if (arity === undefined) {
      const shown = a.map((x) => `'${x}' `).join('');
      return error(`ERR unknown command '${rawName}', with args beginning with: ${shown}`);
    }
    if (arity >= 0 ? a.length + 1 !== arity : a.length + 1 < -arity) return error(`ERR wrong number of arguments for '${name}' command`);
    this.expire(nowMs);
    const before = this.bytes;
    const reply = this.run(name, a, nowMs);
    if (this.bytes > MAX_DATA_BYTES && this.bytes > before) {
      // noeviction: the write that crossed the bound is undone by dropping the key it wrote.
      if (a[0] !== undefined) this.delete(a[0]);
      return error("OOM command not allowed when used memory > 'maxmemory'.");
    }
    return reply;
  }

  private run(name: string, a: string[], now: number): RespValue {
    switch (name) {
      case 'ping':
        return a.length ? bulk(a[0]!) : simple('PONG');
      case 'echo':
        return bulk(a[0]!);
      case 'select':
        return a[0] === '0' ? OK : error('ERR DB index is out of range');
      case 'client':
      case 'config':
        return name === 'config' && a[0]?.toLowerCase() === 'get' ? array([]) : OK;
      case 'command':
        return array([]);
      case 'set':
        return this.set(a, now);
      case 'get': {
        const e = this.data.get(a[0]!);
        if (!e) return bulk(null);
        return e.kind === 'string' ? bulk(e.value) : WRONGTYPE;
      }
      case 'mset':
        if (a.length % 2 !== 0) return error("ERR wrong number of arguments for 'mset' command");
        for (let i = 0; i < a.length; i += 2) this.put(a[i]!, { kind: 'string', value: a[i + 1]! });
        return OK;
      case 'mget':
        return array(a.map((k) => this.data.get(k)).map((e) => bulk(e?.kind === 'string' ? e.value : null)));
      case 'append': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'string') return WRONGTYPE;
        const value = (e?.value ?? '') + a[1]!;
        this.put(a[0]!, { kind: 'string', value }, true);
        return integer(Buffer.byteLength(value));
      }
      case 'strlen': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'string') return WRONGTYPE;
        return integer(e ? Buffer.byteLength(e.value) : 0);
      }
      case 'incr':
      case 'decr':
      case 'incrby':
      case 'decrby': {
        const step = name.endsWith('by') ? Number(a[1]) : 1;
        if (!Number.isSafeInteger(step)) return NOT_INTEGER;
        return this.incr(a[0]!, name.startsWith('decr') ? -step : step);
      }
      case 'del':
      case 'unlink':
        return integer(a.filter((k) => this.delete(k)).length);
      case 'exists':
        return integer(a.filter((k) => this.data.has(k)).length);
      case 'type': {
        const e = this.data.get(a[0]!);
        return simple(e ? e.kind : 'none');
      }
      case 'keys': {
        const re = globToRegExp(a[0]!);
        return array([...this.data.keys()].filter((k) => re.test(k)).map((k) => bulk(k)));
      }
      case 'dbsize':
        return integer(this.data.size);
      case 'flushall':
      case 'flushdb':
        this.data.clear();
        this.expires.clear();
        this.bytes = 0;
        return OK;
      case 'expire': {
        const secs = Number(a[1]);
        if (!Number.isSafeInteger(secs)) return NOT_INTEGER;
        if (!this.data.has(a[0]!)) return integer(0);
        this.expires.set(a[0]!, now + secs * 1000);
        return integer(1);
      }
      case 'persist':
        return integer(this.expires.delete(a[0]!) ? 1 : 0);
      case 'ttl':
      case 'pttl': {
        if (!this.data.has(a[0]!)) return integer(-2);
        const at = this.expires.get(a[0]!);
        if (at === undefined) return integer(-1);
        return integer(name === 'ttl' ? Math.ceil((at - now) / 1000) : at - now);
      }
      case 'lpush':
      case 'rpush': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'list') return WRONGTYPE;
        const list = e?.value ?? [];
        for (const v of a.slice(1)) {
          if (name === 'lpush') list.unshift(v);
          else list.push(v);
        }
        this.put(a[0]!, { kind: 'list', value: list }, true);
        return integer(list.length);
      }
      case 'lpop':
      case 'rpop': {
        const e = this.data.get(a[0]!);
        if (!e) return bulk(null);
        if (e.kind !== 'list') return WRONGTYPE;
        const v = name === 'lpop' ? e.value.shift() : e.value.pop();
        if (e.value.length === 0) this.delete(a[0]!);
        else this.put(a[0]!, e, true);
        return bulk(v ?? null);
      }
      case 'llen': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'list') return WRONGTYPE;
        return integer(e?.value.length ?? 0);
      }
      case 'lrange': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'list') return WRONGTYPE;
        const list = e?.value ?? [];
        let start = Number(a[1]);
        let stop = Number(a[2]);
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(stop)) return NOT_INTEGER;
        if (start < 0) start = Math.max(0, list.length + start);
        if (stop < 0) stop = list.length + stop;
        return array(list.slice(start, stop + 1).map((v) => bulk(v)));
      }
      case 'hset': {
        if ((a.length - 1) % 2 !== 0) return error("ERR wrong number of arguments for 'hset' command");
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'hash') return WRONGTYPE;
        const hash = e?.value ?? new Map<string, string>();
        let added = 0;
        for (let i = 1; i < a.length; i += 2) {
          if (!hash.has(a[i]!)) added++;
          hash.set(a[i]!, a[i + 1]!);
        }
        this.put(a[0]!, { kind: 'hash', value: hash }, true);
        return integer(added);
      }
      case 'hget': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'hash') return WRONGTYPE;
        return bulk(e?.value.get(a[1]!) ?? null);
      }
      case 'hgetall': {
        const e = this.data.get(a[0]!);
        if (e && e.kind !== 'hash') return WRONGTYPE;
        return array([...(e?.value ?? new Map<string, string>())].flatMap(([k, v]) => [bulk(k), bulk(v)]));
      }
      case 'info':
        return bulk(this.infoText(a[0]?.toLowerCase(), now));
      default:
        return error(`ERR unknown command '${name}'`);
    }
  }

  private set(a: string[], now: number): RespValue {
    const [key, value, ...opts] = a as [string, string, ...string[]];
    let ttlMs: number | undefined;
    let nx = false;
    let xx = false;
    for (let i = 0; i < opts.length; i++) {
      const o = opts[i]!.toUpperCase();
      if (o === 'NX') nx = true;
      else if (o === 'XX') xx = true;
      else if (o === 'EX' || o === 'PX') {
        const n = Number(opts[++i]);
        if (!Number.isSafeInteger(n)) return NOT_INTEGER;
        if (n <= 0) return error("ERR invalid expire time in 'set' command");
        ttlMs = o === 'EX' ? n * 1000 : n;
      } else return SYNTAX;
    }
    if (nx && xx) return SYNTAX;
    const exists = this.data.has(key);
    if ((nx && exists) || (xx && !exists)) return bulk(null);
    this.put(key, { kind: 'string', value });
    if (ttlMs !== undefined) this.expires.set(key, now + ttlMs);
    return OK;
  }

  private incr(key: string, by: number): RespValue {
    const e = this.data.get(key);
    if (e && e.kind !== 'string') return WRONGTYPE;
    const current = e ? Number(e.value) : 0;
    if (e && (!/^-?\d+$/.test(e.value) || !Number.isSafeInteger(current))) return NOT_INTEGER;
    const next = current + by;
    if (!Number.isSafeInteger(next)) return error('ERR increment or decrement would overflow');
    this.put(key, { kind: 'string', value: String(next) }, true);
    return integer(next);
  }

  /** Stores `entry`; `keepTtl` keeps an expiry (in-place updates), else SET semantics drop it. */
  private put(key: string, entry: Entry, keepTtl = false): void {
    this.bytes -= this.sizeOf(key);
    this.data.set(key, entry);
    this.bytes += this.sizeOf(key);
    if (!keepTtl) this.expires.delete(key);
  }

  private delete(key: string): boolean {
    if (!this.data.has(key)) return false;
    this.bytes -= this.sizeOf(key);
    this.data.delete(key);
    this.expires.delete(key);
    return true;
  }

  private sizeOf(key: string): number {
    const e = this.data.get(key);
    if (!e) return 0;
    const len = (s: string) => Buffer.byteLength(s);
    const body = e.kind === 'string' ? len(e.value) : e.kind === 'list' ? e.value.reduce((n, v) => n + len(v) + 16, 0) : [...e.value].reduce((n, [k, v]) => n + len(k) + len(v) + 32, 0);
    return len(key) + body + 48;
  }

  private expire(now: number): void {
    for (const [key, at] of this.expires) if (at <= now) this.delete(key);
  }

  private infoText(section: string | undefined, now: number): string {
    const all = section === undefined || section === 'all' || section === 'everything' || section === 'default';
    const sections: [string, string[]][] = [
      [
        'Server',
        [
          `redis_version:${this.info.version}`,
          'redis_mode:standalone',
          'os:Linux 6.1.0-28-amd64 x86_64',
          'arch_bits:64',
          'process_id:1',
          `tcp_port:${this.info.port}`,
          `uptime_in_seconds:${Math.floor((now - this.info.startedAtMs) / 1000)}`,
          'executable:/data/redis-server',
          'config_file:',
        ],
      ],
      ['Clients', [`connected_clients:${this.info.connectedClients()}`, 'blocked_clients:0']],
      ['Memory', [`used_memory:${this.bytes + 900_000}`, `used_memory_human:${humanBytes(this.bytes + 900_000)}`, 'maxmemory:0', 'maxmemory_human:0B', 'maxmemory_policy:noeviction']],
      ['Keyspace', this.data.size ? [`db0:keys=${this.data.size},expires=${this.expires.size},avg_ttl=0,subexpiry=0`] : []],
    ];
    return sections
      .filter(([name]) => all || name.toLowerCase() === section)
      .map(([name, lines]) => [`# ${name}`, ...lines].join('\r\n'))
      .join('\r\n\r\n')
      .concat('\r\n');
  }
}

/** Redis' arity per command: n exact (name included), -n at least n. */
const ARITY: Record<string, number> = {
  ping: -1,
  echo: 2,
  select: 2,
  client: -2,
  config: -2,
  command: -1,
  set: -3,
  get: 2,
  mset: -3,
  mget: -2,
  append: 3,
  strlen: 2,
  incr: 2,
  decr: 2,
  incrby: 3,
  decrby: 3,
  del: -2,
  unlink: -2,
  exists: -2,
  type: 2,
  keys: 2,
  dbsize: 1,
  flushall: -1,
  flushdb: -1,
  expire: 3,
  persist: 2,
  ttl: 2,
  pttl: 2,
  lpush: -3,
  rpush: -3,
  lpop: 2,
  rpop: 2,
  llen: 2,
  lrange: 4,
  hset: -4,
  hget: 3,
  hgetall: 2,
  info: -1,
  quit: 1,
};
