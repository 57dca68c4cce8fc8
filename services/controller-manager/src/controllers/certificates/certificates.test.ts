import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { CertificateAuthority, certificateInfo, createCsr, generateKeyPair } from '@kubelab/pki';
import { waitFor } from '@kubelab/testing';
import { fakeEnv } from '../../testing/fakes.js';
import { CsrApprovingController, type SubjectAccessReviewSpec } from './approver/csr-approving-controller.js';
import { approvalPermissions, isSettled, NODE_CLIENT, SELF_NODE_CLIENT } from './approver/decisions.js';
import { kubeletClientCsrError, type RequestSubject } from './requests.js';
import { CsrSigningController } from './signer/csr-signing-controller.js';
import { certificateTtlMs, signerValidation, wantsSigning } from './signer/decisions.js';

const subject = (s: Partial<RequestSubject> = {}): RequestSubject => ({
  commonName: 'system:node:node-1',
  organizations: ['system:nodes'],
  dnsNames: [],
  ipAddresses: [],
  emailAddresses: [],
  uris: [],
  ...s,
});
const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
function csr(spec: Partial<CertificateSigningRequest['spec']> = {}, status?: CertificateSigningRequest['status'], name = 'node-csr-a'): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: '',
      signerName: KUBELET_CLIENT,
      usages: ['digital signature', 'client auth'],
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}
const approved = { type: 'Approved', status: 'True' } as const;

describe('kubelet client requests (ValidateKubeletClientCSR)', () => {
  it.each<[string, RequestSubject, string[], string | undefined]>([
    ['CN system:node:<name>, O system:nodes, client usages', subject(), ['digital signature', 'client auth'], undefined],
    ['key encipherment may be added (RSA)', subject(), ['key encipherment', 'digital signature', 'client auth'], undefined],
    ['another organization', subject({ organizations: ['system:masters'] }), ['digital signature', 'client auth'], 'subject organization is not system:nodes'],
    ['a second organization', subject({ organizations: ['system:nodes', 'x'] }), ['digital signature', 'client auth'], 'subject organization is not system:nodes'],
    ['a DNS name', subject({ dnsNames: ['node-1'] }), ['digital signature', 'client auth'], 'DNS subjectAltNames are not allowed'],
    ['an IP address', subject({ ipAddresses: ['10.0.0.1'] }), ['digital signature', 'client auth'], 'IP subjectAltNames are not allowed'],
    ['not a node', subject({ commonName: 'jane' }), ['digital signature', 'client auth'], 'subject common name does not begin with system:node:'],
    ['server auth', subject(), ['digital signature', 'server auth'], 'usages did not match [client auth digital signature key encipherment]'],
  ])('%s', (_n, s, usages, want) => {
    expect(kubeletClientCsrError(s, usages)).toBe(want);
  });
});

describe('approver decisions (sarapprove recognizers)', () => {
  it.each<[string, CertificateSigningRequest, RequestSubject, string[]]>([
    ['a bootstrap token asks for a node client certificate: nodeclient', csr(), subject(), ['nodeclient']],
    ['the node renews its own: selfnodeclient, then nodeclient', csr({ username: 'system:node:node-1' }), subject(), ['selfnodeclient', 'nodeclient']],
    ['node-2 asking for node-1: nodeclient only', csr({ username: 'system:node:node-2' }), subject(), ['nodeclient']],
    ['another signer: not ours', csr({ signerName: 'kubernetes.io/kube-apiserver-client' }), subject(), []],
    ['a serving request under the client signer: not ours', csr({ usages: ['digital signature', 'server auth'] }), subject(), []],
    ['wrong organization: not ours', csr(), subject({ organizations: ['system:masters'] }), []],
  ])('%s', (_n, c, s, want) => {
    expect(approvalPermissions(c, s).map((p) => p.subresource)).toEqual(want);
  });
  it('messages as upstream', () => {
    expect(NODE_CLIENT.message).toBe('Auto approving kubelet client certificate after SubjectAccessReview.');
    expect(SELF_NODE_CLIENT.message).toBe('Auto approving self kubelet client certificate after SubjectAccessReview.');
  });
  it.each<[string, CertificateSigningRequest, boolean]>([
    ['pending', csr(), false],
    ['approved', csr({}, { conditions: [approved] }), true],
    ['denied', csr({}, { conditions: [{ type: 'Denied', status: 'True' }] }), true],
    ['issued', csr({}, { certificate: 'AA==' }), true],
  ])('settled: %s', (_n, c, want) => expect(isSettled(c)).toBe(want));
});

describe('signer decisions', () => {
  it.each<[string, CertificateSigningRequest, boolean]>([
    ['approved kubelet client', csr({}, { conditions: [approved] }), true],
    ['pending', csr(), false],
    ['approved and denied', csr({}, { conditions: [approved, { type: 'Denied', status: 'True' }] }), false],
    ['failed before', csr({}, { conditions: [approved, { type: 'Failed', status: 'True' }] }), false],
    ['issued', csr({}, { conditions: [approved], certificate: 'AA==' }), false],
    ['a custom signer', csr({ signerName: 'example.com/mine' }, { conditions: [approved] }), false],
  ])('wants signing: %s', (_n, c, want) => expect(wantsSigning(c)).toBe(want));

  it.each<[string, CertificateSigningRequest, RequestSubject, string | undefined]>([
    ['kubelet client fits', csr(), subject(), undefined],
    ['kubelet client for a user', csr(), subject({ commonName: 'jane', organizations: [] }), 'subject organization is not system:nodes'],
    ['kubelet serving without SANs', csr({ signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }), subject(), 'DNS or IP subjectAltName is required'],
    ['kubelet serving with an address', csr({ signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }), subject({ ipAddresses: ['10.0.0.1'] }), undefined],
    ['apiserver client for anyone', csr({ signerName: 'kubernetes.io/kube-apiserver-client' }), subject({ commonName: 'jane', organizations: ['dev'] }), undefined],
    [
      'apiserver client with server auth',
      csr({ signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth', 'server auth'] }),
      subject(),
      'invalid usage for client certificate: server auth',
    ],
    [
      'apiserver client without client auth',
      csr({ signerName: 'kubernetes.io/kube-apiserver-client', usages: ['digital signature'] }),
      subject(),
      'missing required usage for client certificate: client auth',
    ],
  ])('validation: %s', (_n, c, s, want) => {
    const v = signerValidation(c, s);
    expect(v.sign ? undefined : v.message).toBe(want);
  });

  const YEAR = 8760 * 3600_000;
  it.each<[number | undefined, number]>([
    [undefined, YEAR],
    [3600, 3600_000],
    [60, 600_000],
    [10 * 365 * 86400, YEAR],
  ])('ttl for expirationSeconds %s', (exp, want) => expect(certificateTtlMs(YEAR, exp)).toBe(want));
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
async function realCsr(commonName = 'system:node:node-1', organizations = ['system:nodes']): Promise<string> {
  return b64(await createCsr({ commonName, organizations }, await generateKeyPair('ECDSA-P256')));
}

describe('csrapproving controller', () => {
  it('approves a bootstrap request when the SubjectAccessReview allows nodeclient, through the approval subresource', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.certificateSigningRequests, csr({ request: await realCsr() }));
    const asked: SubjectAccessReviewSpec[] = [];
    const c = new CsrApprovingController(env.ctx, { allowed: async (spec) => (asked.push(spec), true) });
    await env.sync();
    await c.sync('node-csr-a');
    expect(asked).toEqual([
      {
        user: 'system:bootstrap:abcdef',
        groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
        resourceAttributes: { group: 'certificates.k8s.io', version: '*', resource: 'certificatesigningrequests', subresource: 'nodeclient', verb: 'create' },
      },
    ]);
    expect(env.fake.actionLines()).toEqual(['update certificatesigningrequests/approval node-csr-a']);
    expect(env.fake.peek<CertificateSigningRequest>(GVR.certificateSigningRequests, '', 'node-csr-a')!.status!.conditions).toEqual([
      { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
    ]);
    await env.stop();
  });

  it('a review that says no leaves the request pending and retries later; settled requests are not reviewed', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.certificateSigningRequests, csr({ request: await realCsr(), username: 'system:node:node-1' }), csr({ request: await realCsr() }, { conditions: [approved] }, 'done'));
    const asked: string[] = [];
    const c = new CsrApprovingController(env.ctx, { allowed: async (spec) => (asked.push(spec.resourceAttributes.subresource), false) });
    await env.sync();
    await expect(c.sync('node-csr-a')).rejects.toThrow('recognized csr "node-csr-a" as [selfnodeclient nodeclient] but subject access review was not approved');
    await c.sync('done');
    expect(asked).toEqual(['selfnodeclient', 'nodeclient']);
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });
});

describe('csrsigning controller', () => {
  it('issues an approved kubelet client request: CN, O, usages and expiry as requested', async () => {
    const env = fakeEnv({ clusterSigningDurationMs: 8760 * 3600_000 });
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    env.fake.seed(GVR.certificateSigningRequests, csr({ request: await realCsr(), expirationSeconds: 3600 }, { conditions: [approved] }), csr({ request: await realCsr() }, undefined, 'pending'));
    const c = new CsrSigningController(env.ctx, async () => ca);
    await env.sync();
    await c.sync('node-csr-a');
    await c.sync('pending');
    expect(env.fake.actionLines()).toEqual(['update certificatesigningrequests/status node-csr-a']);
    const issued = env.fake.peek<CertificateSigningRequest>(GVR.certificateSigningRequests, '', 'node-csr-a')!;
    const pem = Buffer.from(issued.status!.certificate!, 'base64').toString();
    expect(certificateInfo(pem)).toMatchObject({ commonName: 'system:node:node-1', organizations: ['system:nodes'], issuerCommonName: 'kubernetes', isCa: false });
    const x = new X509Certificate(pem);
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(Date.parse(x.validTo)).toBe(env.clock.now() + 3600_000);
    expect(issued.status!.conditions).toEqual([approved]);

    // Issued: the update event re-enqueues it, and the sync leaves it alone.
    await waitFor('the informer to see the certificate', () => Boolean(env.ctx.informers.certificates.certificateSigningRequests().lister().get('node-csr-a')?.status?.certificate));
    env.fake.clearActions();
    await c.sync('node-csr-a');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });

  it('a request that does not fit its signer fails with SignerValidationFailure', async () => {
    const env = fakeEnv();
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    env.fake.seed(GVR.certificateSigningRequests, csr({ request: await realCsr('jane', ['dev']) }, { conditions: [approved] }));
    const c = new CsrSigningController(env.ctx, async () => ca);
    await env.sync();
    await c.sync('node-csr-a');
    expect(env.fake.peek<CertificateSigningRequest>(GVR.certificateSigningRequests, '', 'node-csr-a')!.status).toEqual({
      conditions: [approved, { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'subject organization is not system:nodes', lastUpdateTime: '2026-01-01T00:00:00Z' }],
    });
    await env.stop();
  });
});
