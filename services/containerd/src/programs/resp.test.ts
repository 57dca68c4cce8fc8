import { describe, expect, it } from 'vitest';
import { RequestReader, array, bulk, decodeReply, encode, encodeCommand, error, formatRaw, formatTty, integer, simple } from './resp.js';

describe('RESP requests', () => {
  it('reads arrays of bulk strings split across chunks, and inline commands', () => {
    const r = new RequestReader();
    const wire = encodeCommand(['SET', 'k', 'a b']) + 'PING\r\n';
    r.push(Buffer.from(wire.slice(0, 10)));
    expect(r.next()).toBeUndefined();
    r.push(Buffer.from(wire.slice(10)));
    expect([r.next(), r.next(), r.next()]).toEqual([['SET', 'k', 'a b'], ['PING'], undefined]);
  });

  it('rejects a bulk string without its $ header', () => {
    const r = new RequestReader();
    r.push(Buffer.from('*1\r\n:1\r\n'));
    expect(() => r.next()).toThrow("Protocol error: expected '$', got ':'");
  });
});

describe('RESP replies', () => {
  it.each([
    [simple('OK'), '+OK\r\n', 'OK\n', 'OK\n'],
    [error('ERR nope'), '-ERR nope\r\n', 'ERR nope\n', '(error) ERR nope\n'],
    [integer(3), ':3\r\n', '3\n', '(integer) 3\n'],
    [bulk('v'), '$1\r\nv\r\n', 'v\n', '"v"\n'],
    [bulk(null), '$-1\r\n', '\n', '(nil)\n'],
    [array([bulk('a'), bulk('b')]), '*2\r\n$1\r\na\r\n$1\r\nb\r\n', 'a\nb\n', '1) "a"\n2) "b"\n'],
    [array([]), '*0\r\n', '', '(empty array)\n'],
  ])('%j', (value, wire, raw, tty) => {
    expect(encode(value)).toBe(wire);
    expect(decodeReply(Buffer.from(wire))).toEqual({ value, end: Buffer.byteLength(wire) });
    expect(formatRaw(value)).toBe(raw);
    expect(formatTty(value)).toBe(tty);
  });

  it('waits for a bulk string that has not fully arrived', () => {
    expect(decodeReply(Buffer.from('$5\r\nab'))).toBeUndefined();
  });
});
