import { CertificateAuthority } from '@kubelab/pki';
import { computeDetachedSignature } from '@kubelab/serviceaccount';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterInfoConfigMap } from './bootstrap-token.js';
import { caCertHash, parseCaCertHash, validateClusterInfo } from './discovery.js';

const TOKEN = 'abcdef.0123456789abcdef';
/** A P-256 CA made with openssl; its hash computed with openssl. */
const FIXED_CA = `-----BEGIN CERTIFICATE-----
MIIBfzCCASWgAwIBAgIUPjXdz5OsAKRnoZdyRW+zqLwJJmAwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKa3ViZXJuZXRlczAeFw0yNjEyMDMxMDE2MTFaFw0zNjExMzAx
MDE2MTFaMBUxEzARBgNVBAMMCmt1YmVybmV0ZXMwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATmVwBOvlCdN645McVTW7G9GyOn1F2mamDRkHxVBzrezW5BxtXV3NtG
EEE53e3g/Lgs5UkVqt/owYmUKWNXleCKo1MwUTAdBgNVHQ4EFgQUv4FWCwLB8Qp5
clTiq46rcDwOV2cwHwYDVR0jBBgwFoAUv4FWCwLB8Qp5clTiq46rcDwOV2cwDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEA6A6kKgYVeZxh880Kqsxw
HCwIRCYCmn/x89/hO5VBgywCIBwFE0evE4NjKPvwbDOjPqvw2plCg7EPrP2Zduus
BDSK
-----END CERTIFICATE-----
`;

describe('token discovery', () => {
  let ca: CertificateAuthority;
  let other: CertificateAuthority;
  let data: Record<string, string>;
  let pin: string;
  beforeAll(async () => {
    ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    other = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const kubeconfig = clusterInfoConfigMap('https://10.0.0.1:6443', ca.certPem).data!.kubeconfig!;
    data = { kubeconfig, 'jws-kubeconfig-abcdef': computeDetachedSignature(kubeconfig, 'abcdef', '0123456789abcdef') };
    pin = caCertHash(ca.certPem).slice('sha256:'.length);
  }, 30_000);

  it("hashes the CA's DER SubjectPublicKeyInfo as kubeadm's docs do with openssl (x509 -pubkey | pkey -pubin -outform der | dgst -sha256)", () => {
    expect(caCertHash(FIXED_CA)).toBe('sha256:49f880e8afc95b575d22863bedb6d6e76cee0332d57c89e6e819986a74ddbd4d');
  });

  it('answers the server and CA of a signed cluster-info whose CA is pinned', () => {
    expect(validateClusterInfo(data, TOKEN, [pin])).toEqual({ server: 'https://10.0.0.1:6443', caPem: ca.certPem });
  });

  it.each([
    ['a wrong token secret', () => [data, 'abcdef.ffffffffffffffff', [pin]], "failed to verify JWS signature of received cluster info object, can't trust this API Server"],
    [
      'a token without a signature',
      () => [data, 'zzzzzz.0123456789abcdef', [pin]],
      'token id "zzzzzz" is invalid for this cluster or it has expired. Use "kubeadm token create" on the control-plane node to create a new valid token',
    ],
    ['no kubeconfig', () => [{}, TOKEN, [pin]], "there is no kubeconfig key in the cluster-info ConfigMap. This API Server isn't set up for token bootstrapping, can't connect"],
    ['another CA pinned', () => [data, TOKEN, [caCertHash(other.certPem).slice(7)]], `cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "sha256:`],
    ['a changed kubeconfig', () => [{ ...data, kubeconfig: data.kubeconfig + ' ' }, TOKEN, [pin]], "failed to verify JWS signature of received cluster info object, can't trust this API Server"],
  ] as const)('refuses %s', (_name, input, message) => {
    const [d, token, pins] = input() as [Record<string, string>, string, string[]];
    expect(() => validateClusterInfo(d, token, pins)).toThrow(message);
  });

  it.each([
    ['sha256:' + 'AB'.repeat(32), 'ab'.repeat(32)],
    ['sha256:abc', 'invalid discovery token CA certificate hash: invalid hash "sha256:abc", expected a 32 byte SHA-256 hash, found 1 bytes'],
    ['md5:' + 'ab'.repeat(32), 'invalid discovery token CA certificate hash: unknown hash format "md5". Known format(s) are: sha256'],
    ['ab'.repeat(32), 'invalid discovery token CA certificate hash: invalid hash, expected "format:hex-value". Known format(s) are: sha256'],
    ['sha256:' + 'zz'.repeat(32), 'could not decode SHA-256 from hex'],
  ])('pin %s', (input, want) => {
    if (/^[0-9a-f]{64}$/.test(want)) expect(parseCaCertHash(input)).toBe(want);
    else expect(() => parseCaCertHash(input)).toThrow(want);
  });
});
