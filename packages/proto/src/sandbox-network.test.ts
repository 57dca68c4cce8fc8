import { describe, expect, it } from 'vitest';
import { SANDBOX_NETWORK_INFO_KEY, decodeSandboxNetwork, encodeSandboxNetwork, sandboxPortKey, type SandboxNetwork } from './sandbox-network.js';

describe('sandbox network note', () => {
  it.each([
    ['a number', 80, '80/TCP'],
    ['a string', '8080', '8080/TCP'],
  ])('port key from %s', (_name, port, want) => expect(sandboxPortKey(port)).toBe(want));

  it.each<[string, SandboxNetwork]>([
    ['loopback with a port', { mode: 'loopback', podIP: '10.244.1.2', note: 'simulated', ports: { '80/TCP': '127.0.0.1:40001' } }],
    ['pod-ip without ports or note', { mode: 'pod-ip', podIP: '127.10.0.2', ports: {} }],
  ])('%s reads back whole', (_name, net) => expect(decodeSandboxNetwork(encodeSandboxNetwork(net))).toEqual(net));

  it('is written under its info key', () => expect(Object.keys(encodeSandboxNetwork({ mode: 'loopback', podIP: '', ports: {} }))).toEqual([SANDBOX_NETWORK_INFO_KEY]));

  it.each<[string, Record<string, string> | undefined, SandboxNetwork | undefined]>([
    ['no info map', undefined, undefined],
    ['no network entry', { info: '{}' }, undefined],
    ['not JSON', { [SANDBOX_NETWORK_INFO_KEY]: 'nope' }, undefined],
    ['an array', { [SANDBOX_NETWORK_INFO_KEY]: '[]' }, undefined],
    ['wrong-typed fields get their defaults', { [SANDBOX_NETWORK_INFO_KEY]: '{"mode":1,"podIP":null,"ports":"x"}' }, { mode: '', podIP: '', ports: {} }],
    [
      'non-string addresses are left out',
      { [SANDBOX_NETWORK_INFO_KEY]: '{"mode":"loopback","podIP":"p","ports":{"80/TCP":"a:1","81/TCP":81}}' },
      { mode: 'loopback', podIP: 'p', ports: { '80/TCP': 'a:1' } },
    ],
  ])('decode: %s', (_name, info, want) => expect(decodeSandboxNetwork(info)).toEqual(want));
});
