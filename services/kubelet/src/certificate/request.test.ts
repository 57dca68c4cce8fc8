import { describe, expect, it } from 'vitest';
import { SIGNER_KUBE_APISERVER_CLIENT_KUBELET, type CertificateSigningRequest } from '@kubelab/api';
import { createCsr, generateKeyPair } from '@kubelab/pki';
import { incompatibility } from './request.js';

const USAGES = ['digital signature', 'client auth'];
const spec = (pem: string, o: Partial<CertificateSigningRequest['spec']> = {}): CertificateSigningRequest['spec'] => ({
  request: Buffer.from(pem).toString('base64'),
  signerName: SIGNER_KUBE_APISERVER_CLIENT_KUBELET,
  usages: USAGES,
  ...o,
});

describe('incompatibility (upstream csr.ensureCompatible)', async () => {
  const node = { commonName: 'system:node:node-1', organizations: ['system:nodes'] };
  const keys = await generateKeyPair('ECDSA-P256');
  const first = await createCsr(node, keys);
  // The same key and subject asked again: ECDSA signs anew, so the bytes differ.
  const again = await createCsr(node, keys);
  const otherKey = await createCsr(node, await generateKeyPair('ECDSA-P256'));
  const otherNode = await createCsr({ commonName: 'system:node:node-2', organizations: ['system:nodes'] }, keys);

  it('the same request made again with the same key is compatible though its bytes differ', () => {
    expect(again).not.toBe(first);
    expect(incompatibility(spec(again), spec(first))).toBeUndefined();
  });
  it.each([
    ['another key', spec(otherKey), spec(first), 'public key of csr does not match private key'],
    ['another subject', spec(otherNode), spec(first), 'csr subjects differ: new CN=system:node:node-2,O=system:nodes, orig: CN=system:node:node-1,O=system:nodes'],
    [
      'another signer',
      spec(again, { signerName: 'kubernetes.io/kube-apiserver-client' }),
      spec(first),
      'csr signerNames differ: new "kubernetes.io/kube-apiserver-client", orig: "kubernetes.io/kube-apiserver-client-kubelet"',
    ],
    ['other usages', spec(again, { usages: ['client auth'] }), spec(first), 'csr usages differ: new [client auth], orig [client auth digital signature]'],
    ['an unreadable stored request', spec(again), spec('not a csr'), 'unable to parse the csr: PEM block type must be CERTIFICATE REQUEST'],
  ])('%s is not', (_n, want, orig, why) => expect(incompatibility(want, orig)).toBe(why));
});
