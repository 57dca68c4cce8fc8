import { describe, expect, it } from 'vitest';
import { tcpDialError } from './dial-error.js';

describe('tcpDialError', () => {
  it.each([
    ['10.0.0.5', 10250, 'ECONNREFUSED', 'dial tcp 10.0.0.5:10250: connect: connection refused'],
    ['10.0.0.5', 80, 'EHOSTUNREACH', 'dial tcp 10.0.0.5:80: connect: no route to host'],
    ['fd00::1', 80, 'ENETUNREACH', 'dial tcp [fd00::1]:80: connect: network is unreachable'],
    ['127.0.0.1', 10259, 'ETIMEDOUT', 'dial tcp 127.0.0.1:10259: i/o timeout'],
    ['127.0.0.1', 10259, 'ECONNRESET', undefined],
    ['127.0.0.1', 10259, undefined, undefined],
  ])('%s:%s %s → %s', (host, port, code, want) => {
    expect(tcpDialError(host, port, { code })).toBe(want);
  });
});
