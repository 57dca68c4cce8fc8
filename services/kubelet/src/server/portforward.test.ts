import { describe, expect, it } from 'vitest';
import { portForwardPorts } from './portforward.js';

describe('portForwardPorts (upstream portforward.NewV4Options)', () => {
  it.each([
    ['a SPDY request names its ports per stream', '', false, { ok: true, ports: [] }],
    ['one port', 'port=80', true, { ok: true, ports: [80] }],
    ['repeated and comma-separated', 'port=80,8080&port=9090', true, { ok: true, ports: [80, 8080, 9090] }],
    ['none', '', true, { ok: false, message: 'query parameter "port" is required' }],
    ['empty', 'port=', true, { ok: false, message: 'query parameter "port" cannot be empty' }],
    ['not a number', 'port=http', true, { ok: false, message: 'unable to parse "http" as a port: strconv.ParseUint: parsing "http": invalid syntax' }],
    ['too big', 'port=70000', true, { ok: false, message: 'unable to parse "70000" as a port: strconv.ParseUint: parsing "70000": value out of range' }],
    ['zero', 'port=0', true, { ok: false, message: 'port "0" must be > 0' }],
  ])('%s', (_n, query, websocket, want) => expect(portForwardPorts(new URLSearchParams(query), websocket)).toEqual(want));
});
