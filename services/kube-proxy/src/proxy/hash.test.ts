import { describe, expect, it } from 'vitest';
import { base32 } from './hash.js';
import { serviceExternalChainName, servicePortChainName, servicePortEndpointChainName } from './iptables/chains.js';
import { servicePortChainNameBase, servicePortEndpointChainNameBase } from './nftables/renderer.js';

describe('chain name hashes', () => {
  it('encodes base32 as Go base32.StdEncoding (RFC 4648 vectors, unpadded)', () => {
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32(Buffer.from('fo'))).toBe('MZXQ');
  });

  // The names upstream's proxier_test expects for ns1/svc1:p80 → 10.180.0.1:80.
  it.each([
    ['KUBE-SVC', servicePortChainName('ns1/svc1:p80', 'tcp'), 'KUBE-SVC-XPGD46QRK7WJZT7O'],
    ['KUBE-EXT', serviceExternalChainName('ns1/svc1:p80', 'tcp'), 'KUBE-EXT-XPGD46QRK7WJZT7O'],
    ['KUBE-SEP', servicePortEndpointChainName('ns1/svc1:p80', 'tcp', '10.180.0.1:80'), 'KUBE-SEP-SXIVWICOYRO3J4NJ'],
    ['nft service', servicePortChainNameBase({ namespace: 'ns1', service: 'svc1', portName: 'p80' }, 'tcp'), 'ULMVA6XW-ns1/svc1/tcp/p80'],
    ['nft endpoint', servicePortEndpointChainNameBase({ namespace: 'ns1', service: 'svc1', portName: 'p80' }, 'tcp', '10.180.0.1:80'), '5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80'],
  ])('%s chain name matches upstream', (_what, got, want) => {
    expect(got).toBe(want);
  });
});
