import { describe, expect, it } from 'vitest';
import { MAX_DATA_BYTES, RedisStore, globToRegExp } from './redis-store.js';
import { encode } from './resp.js';

const store = () => new RedisStore({ version: '7.4.1', port: 6379, startedAtMs: 0, connectedClients: () => 1 });

/** Runs commands in order on one store; the wire form of each reply. */
function run(...cmds: [number, ...string[]][]): string[] {
  const s = store();
  return cmds.map(([now, ...args]) => encode(s.exec(args, now)));
}

describe('redis-server commands', () => {
  it.each<[string, [number, ...string[]][], string[]]>([
    [
      'PING',
      [
        [0, 'PING'],
        [0, 'ping', 'hi'],
      ],
      ['+PONG\r\n', '$2\r\nhi\r\n'],
    ],
    [
      'SET and GET',
      [
        [0, 'SET', 'k', 'v'],
        [0, 'GET', 'k'],
        [0, 'GET', 'missing'],
      ],
      ['+OK\r\n', '$1\r\nv\r\n', '$-1\r\n'],
    ],
    [
      'INCR',
      [
        [0, 'INCR', 'n'],
        [0, 'INCRBY', 'n', '5'],
        [0, 'DECR', 'n'],
        [0, 'SET', 's', 'x'],
        [0, 'INCR', 's'],
      ],
      [':1\r\n', ':6\r\n', ':5\r\n', '+OK\r\n', '-ERR value is not an integer or out of range\r\n'],
    ],
    [
      'KEYS',
      [
        [0, 'MSET', 'user:1', 'a', 'user:2', 'b', 'other', 'c'],
        [0, 'KEYS', 'user:*'],
      ],
      ['+OK\r\n', '*2\r\n$6\r\nuser:1\r\n$6\r\nuser:2\r\n'],
    ],
    [
      'expiry in container time',
      [
        [0, 'SET', 'k', 'v', 'EX', '10'],
        [5_000, 'TTL', 'k'],
        [10_000, 'GET', 'k'],
        [10_000, 'TTL', 'k'],
      ],
      ['+OK\r\n', ':5\r\n', '$-1\r\n', ':-2\r\n'],
    ],
    [
      'NX',
      [
        [0, 'SET', 'k', 'v', 'NX'],
        [0, 'SET', 'k', 'w', 'NX'],
        [0, 'GET', 'k'],
      ],
      ['+OK\r\n', '$-1\r\n', '$1\r\nv\r\n'],
    ],
    [
      'lists',
      [
        [0, 'RPUSH', 'q', 'a', 'b'],
        [0, 'LPUSH', 'q', 'z'],
        [0, 'LRANGE', 'q', '0', '-1'],
        [0, 'GET', 'q'],
      ],
      [':2\r\n', ':3\r\n', '*3\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n', '-WRONGTYPE Operation against a key holding the wrong kind of value\r\n'],
    ],
    [
      'hashes',
      [
        [0, 'HSET', 'h', 'f', 'v'],
        [0, 'HGET', 'h', 'f'],
        [0, 'HGETALL', 'h'],
      ],
      [':1\r\n', '$1\r\nv\r\n', '*2\r\n$1\r\nf\r\n$1\r\nv\r\n'],
    ],
    [
      'DEL and EXISTS',
      [
        [0, 'SET', 'a', '1'],
        [0, 'DEL', 'a', 'b'],
        [0, 'EXISTS', 'a'],
      ],
      ['+OK\r\n', ':1\r\n', ':0\r\n'],
    ],
    ['unknown command', [[0, 'FOO', 'a', 'b']], ["-ERR unknown command 'FOO', with args beginning with: 'a' 'b' \r\n"]],
    ['wrong arity', [[0, 'GET']], ["-ERR wrong number of arguments for 'get' command\r\n"]],
  ])('%s', (_name, cmds, replies) => {
    expect(run(...cmds)).toEqual(replies);
  });

  it('reports its keyspace in INFO', () => {
    const s = store();
    s.exec(['SET', 'k', 'v'], 0);
    const info = s.exec(['INFO', 'keyspace'], 0);
    expect(info).toEqual({ type: 'bulk', value: '# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0,subexpiry=0\r\n' });
    expect(String(s.exec(['INFO'], 3000).value)).toContain('redis_version:7.4.1\r\n');
  });

  it('refuses writes past its memory bound and loses nothing else', () => {
    const s = store();
    s.exec(['SET', 'keep', 'v'], 0);
    const big = 'x'.repeat(MAX_DATA_BYTES);
    expect(s.exec(['SET', 'big', big], 0)).toEqual({ type: 'error', value: "OOM command not allowed when used memory > 'maxmemory'." });
    expect(s.exec(['DBSIZE'], 0)).toEqual({ type: 'integer', value: 1 });
    expect(s.usedBytes).toBeLessThan(1024);
  });

  it.each([
    ['user:*', 'user:1', true],
    ['user:?', 'user:12', false],
    ['h[ae]llo', 'hallo', true],
    ['h[^e]llo', 'hello', false],
    ['a\\*b', 'a*b', true],
    ['a.b', 'axb', false],
  ])('glob %s matches %s: %s', (pattern, key, match) => {
    expect(globToRegExp(pattern).test(key)).toBe(match);
  });
});
