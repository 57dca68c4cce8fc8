import { describe, expect, it } from 'vitest';
import { REMOTECOMMAND_SPDY_PROTOCOLS, headerValues, negotiateStreamProtocol, tunneledSpdyProtocols } from './httpstream.js';

describe('negotiateStreamProtocol', () => {
  it.each([
    ['kubectl 1.27 exec', ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'], { ok: true, protocol: 'v4.channel.k8s.io' }],
    ['an old client', ['channel.k8s.io'], { ok: true, protocol: 'channel.k8s.io' }],
    ['the client’s order wins', ['v2.channel.k8s.io', 'v4.channel.k8s.io'], { ok: true, protocol: 'v2.channel.k8s.io' }],
    ['no header', [], { ok: false, code: 400, message: 'unable to upgrade: X-Stream-Protocol-Version is required' }],
    [
      'nothing in common',
      ['v5.channel.k8s.io'],
      {
        ok: false,
        code: 403,
        message: 'unable to upgrade: unable to negotiate protocol: client supports [v5.channel.k8s.io], server accepts [v4.channel.k8s.io v3.channel.k8s.io v2.channel.k8s.io channel.k8s.io]',
        accepted: REMOTECOMMAND_SPDY_PROTOCOLS,
      },
    ],
  ])('%s', (_n, offered, want) => {
    expect(negotiateStreamProtocol(offered, REMOTECOMMAND_SPDY_PROTOCOLS)).toEqual(want);
  });

  it.each([
    [undefined, []],
    ['a, b', ['a', 'b']],
    [
      ['a', 'b,c'],
      ['a', 'b', 'c'],
    ],
  ])('headerValues(%j)', (v, want) => expect(headerValues(v)).toEqual(want));

  it('reads the SPDY protocols a tunnelling WebSocket asks for', () => {
    expect(tunneledSpdyProtocols(['SPDY/3.1+portforward.k8s.io', 'v4.channel.k8s.io'])).toEqual(['portforward.k8s.io']);
  });
});
