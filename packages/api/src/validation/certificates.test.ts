import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../index.js';
import { validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';
import { decodePemBlocks, validateSignerName } from './certificates.js';

// A kubelet's client CSR (CN system:node:node-1, O system:nodes) and a certificate: public data only, no keys.
const CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHvMIGWAgEAMDQxFTATBgNVBAoTDHN5c3RlbTpub2RlczEbMBkGA1UEAxMSc3lz
dGVtOm5vZGU6bm9kZS0xMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE3Pn2ouwZ
y9lWMsscR5kMh7Z2POARr+zn2D6Ym6L0WDUCP1crrsH1alAhsf4EHkOs6hcVoLhF
9Tf87gRWUjrtSKAAMAoGCCqGSM49BAMCA0gAMEUCIQCc6zOcD9FID5EZahJZ+KNb
tNa564v/8fkL2ECAU/8BUwIgNO/R9a3idj1ZG8s9LgEvK5vdDgy4+iagekUo00kJ
UzI=
-----END CERTIFICATE REQUEST-----
`;
const CERT_PEM = `-----BEGIN CERTIFICATE-----
MIIBnTCCAUOgAwIBAgIQKI5wPYXoV8H/yjY0Sg7wNzAKBggqhkjOPQQDAjAVMRMw
EQYDVQQDEwprdWJlcm5ldGVzMB4XDTI2MTIwMTE4MTMwOVoXDTI3MTIwMTE4MTgw
OVowNDEVMBMGA1UEChMMc3lzdGVtOm5vZGVzMRswGQYDVQQDExJzeXN0ZW06bm9k
ZTpub2RlLTEwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASROVUqa9j6y2DlN4NA
k42VATAzswuphg1hxO2S5Egl3qms6tNzuZA00KR8TSonMYvNWPpTMCj6Sv3TvfDi
SKj3o1YwVDAMBgNVHRMBAf8EAjAAMA4GA1UdDwEB/wQEAwIFoDATBgNVHSUEDDAK
BggrBgEFBQcDAjAfBgNVHSMEGDAWgBQRmgcyJhgZ0dncMbWuC9uKAGRTMzAKBggq
hkjOPQQDAgNIADBFAiEA2xyJN1QLz8K0F9LhVXwdvqNl4DdzF9m31XXhJZjMMvsC
IH8Ik6EcOb2F/k36RUARkMYLadPwDJsPiq2G6C8wsB4B
-----END CERTIFICATE-----
`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function csr(spec: Partial<CertificateSigningRequest['spec']> = {}, status?: CertificateSigningRequest['status']): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'node-csr-abc', resourceVersion: '5' },
    spec: { request: b64(CSR_PEM), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], ...spec },
    ...(status ? { status } : {}),
  };
}
const approved = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'ok' } as const;
const denied = { type: 'Denied', status: 'True', reason: 'No' } as const;
const messages = (obj: CertificateSigningRequest, old?: CertificateSigningRequest, sub?: string): string[] => validateObject(obj, old, sub).map((e) => `${e.field}: ${fieldErrorMessage(e)}`);

describe('CertificateSigningRequest validation (pkg/apis/certificates/validation)', () => {
  it.each<[string, CertificateSigningRequest, string[]]>([
    ['a kubelet client request', csr(), []],
    ['any name, even one that is no DNS name', { ...csr(), metadata: { name: 'node-csr-Ab_c:1' } }, []],
    ['request not PEM', csr({ request: b64('hello') }), ['spec.request: Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}: PEM block type must be CERTIFICATE REQUEST']],
    [
      'a certificate where the request belongs',
      csr({ request: b64(CERT_PEM) }),
      [expect.stringMatching(/^spec\.request: Invalid value: \[\]byte\{0x2d, .*\}: PEM block type must be CERTIFICATE REQUEST$/) as unknown as string],
    ],
    ['no usages', csr({ usages: [] }), ['spec.usages: Required value']],
    [
      'an unknown usage',
      csr({ usages: ['client auth', 'flying'] }),
      [
        'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      ],
    ],
    ['a duplicate usage', csr({ usages: ['client auth', 'client auth'] }), ['spec.usages[1]: Duplicate value: "client auth"']],
    ['no signerName', csr({ signerName: '' }), ['spec.signerName: Required value']],
    [
      'the legacy signer',
      csr({ signerName: 'kubernetes.io/legacy-unknown' }),
      ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version'],
    ],
    [
      'a signer without a path',
      csr({ signerName: 'example.com' }),
      ['spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form \'example.com/signer-name\''],
    ],
    ['a signer domain without dots', csr({ signerName: 'example/signer' }), ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']],
    ['ten minutes at least', csr({ expirationSeconds: 599 }), ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']],
    ['ten minutes is fine', csr({ expirationSeconds: 600 }), []],
    ['Approved and Denied', csr({}, { conditions: [approved, denied] }), ['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']],
    ['Approved may only be True', csr({}, { conditions: [{ type: 'Approved', status: 'False' }] }), ['status.conditions[0].status: Unsupported value: "False": supported values: "True"']],
    [
      'a condition twice',
      csr(
        {},
        {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'Ready', status: 'False' },
          ],
        },
      ),
      ['status.conditions[1].type: Duplicate value: "Ready"'],
    ],
    [
      'a certificate that is not one',
      csr({}, { certificate: b64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n') }),
      ['status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"'],
    ],
    ['certificate text without a block', csr({}, { certificate: b64('hello') }), ['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']],
  ])('create: %s', (_name, obj, want) => {
    expect(messages(obj)).toEqual(want);
  });

  describe('updates: each write path changes only what it is for', () => {
    const old = csr();
    const issued = csr({}, { conditions: [approved], certificate: b64(CERT_PEM) });
    it.each<[string, CertificateSigningRequest, CertificateSigningRequest, string | undefined, string[]]>([
      ['approval adds Approved', old, csr({}, { conditions: [approved] }), 'approval', []],
      ['the object itself may not add Approved', old, csr({}, { conditions: [approved] }), undefined, ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']],
      ['status may not add Denied', old, csr({}, { conditions: [denied] }), 'status', ['status.conditions: Forbidden: updates may not add a condition of type "Denied"']],
      ['status sets the certificate', csr({}, { conditions: [approved] }), issued, 'status', []],
      ['status adds Failed', csr({}, { conditions: [approved] }), csr({}, { conditions: [approved, { type: 'Failed', status: 'True', reason: 'SignerValidationFailure' }] }), 'status', []],
      ['approval may not set the certificate', csr({}, { conditions: [approved] }), issued, 'approval', ['status.certificate: Forbidden: updates may not set certificate content']],
      [
        'the certificate is set once',
        issued,
        csr({}, { conditions: [approved], certificate: b64(CERT_PEM + CERT_PEM) }),
        'status',
        ['status.certificate: Forbidden: updates may not modify existing certificate content'],
      ],
      ['Approved is never removed', csr({}, { conditions: [approved] }), old, 'approval', ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']],
    ])('%s', (_name, before, after, sub, want) => {
      expect(messages(after, before, sub)).toEqual(want);
    });

    it('modifying Approved outside approval prints the difference', () => {
      const m = messages(csr({}, { conditions: [{ ...approved, message: 'changed' }] }), csr({}, { conditions: [approved] }), 'status');
      expect(m).toEqual(['status.conditions: Forbidden: updates may not modify a condition of type "Approved"\n- [0].message: "ok"\n+ [0].message: "changed"']);
    });
  });

  it('signer names: labels and subdomains with upstream messages', () => {
    expect(validateSignerName('spec.signerName', 'Example.com/x').map((e) => fieldErrorMessage(e))).toEqual([
      expect.stringMatching(/^Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label must consist of/),
    ]);
    expect(validateSignerName('spec.signerName', 'example.com/a/b').map((e) => fieldErrorMessage(e))).toEqual([
      'Invalid value: "example.com/a/b": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
    ]);
  });

  it('PEM blocks: type, headers and bytes; text around them is skipped', () => {
    const blocks = decodePemBlocks(`intro\n${CSR_PEM}between\n-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n\nAAEC\n-----END X-----\n`);
    expect(blocks.map((b) => [b.type, b.headers, b.bytes.length])).toEqual([
      ['CERTIFICATE REQUEST', false, 242],
      ['X', true, 3],
    ]);
  });
});
