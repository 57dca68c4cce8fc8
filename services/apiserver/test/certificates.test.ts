// CertificateSigningRequests through the real apiserver: the requestor is
// recorded from the authenticated user (here a bootstrap token, as a joining
// kubelet sends), the request's signature is checked, and each write path —
// the object, `approval`, `status` — changes only what it is for.

import type { CertificateSigningRequest, KubeObject } from '@kubelab/api';
import { createCsr, generateKeyPair } from '@kubelab/pki';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTokenSecret } from '@kubelab/serviceaccount';
import { api, gvr, rpcError, startTestCluster, type TestCluster } from '../src/testing/index.js';

const CSR = gvr('certificatesigningrequests', 'certificates.k8s.io');
const TOKEN = 'abcdef.0123456789abcdef';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const withStatus = (csr: CertificateSigningRequest, status: CertificateSigningRequest['status']): CertificateSigningRequest => ({ ...csr, ...(status ? { status } : {}) });
async function kubeletCsr(name: string, extra: Partial<CertificateSigningRequest['spec']> = {}): Promise<CertificateSigningRequest> {
  const pem = await createCsr({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }, await generateKeyPair('ECDSA-P256'));
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: b64(pem), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], ...extra },
  };
}

describe('certificatesigningrequests', { timeout: 30_000 }, () => {
  let c: TestCluster;
  let k: ReturnType<typeof api>;
  const asBootstrap = (method: string, path: string, body?: unknown) =>
    c.rest(path, { method, as: 'anonymous', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

  beforeAll(async () => {
    // As kubeadm: bootstrap tokens on, authorization Node,RBAC with kubeadm's bindings.
    c = await startTestCluster({ rest: true, serviceAccount: { enableBootstrapTokenAuth: true }, authorizationModes: ['Node', 'RBAC'] });
    k = api(c.client());
    await k.create(gvr('secrets'), 'kube-system', bootstrapTokenSecret('abcdef', '0123456789abcdef'));
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it('create records the requesting user in spec and starts with an empty status', async () => {
    const csr = await kubeletCsr('node-csr-one', { username: 'system:admin', groups: ['system:masters'] });
    const r = await asBootstrap('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', csr);
    expect(r.status).toBe(201);
    const created = JSON.parse(r.body) as CertificateSigningRequest;
    expect(created.spec).toMatchObject({ username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] });
    expect(created.status).toEqual({});
  });

  it("kubeadm's bindings let the bootstrap token's group be auto-approved (nodeclient) and nodes renew (selfnodeclient)", async () => {
    const sar = (user: string, groups: string[], subresource: string) =>
      k.create<KubeObject & { status?: { allowed?: boolean } }>(gvr('subjectaccessreviews', 'authorization.k8s.io'), '', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user, groups, resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', subresource, verb: 'create' } },
      });
    const bootstrapGroups = ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'];
    expect((await sar('system:bootstrap:abcdef', bootstrapGroups, 'nodeclient')).status?.allowed).toBe(true);
    expect((await sar('system:node:node-1', ['system:nodes', 'system:authenticated'], 'selfnodeclient')).status?.allowed).toBe(true);
    expect((await sar('jane', ['system:authenticated'], 'nodeclient')).status?.allowed).toBe(false);
  });

  it('a request whose signature does not verify is refused with the field error', async () => {
    const csr = await kubeletCsr('node-csr-tampered');
    const der = Buffer.from(
      Buffer.from(csr.spec.request, 'base64')
        .toString()
        .replace(/-----[^-]+-----|\s/g, ''),
      'base64',
    );
    der[der.length - 3]! ^= 0xff;
    csr.spec.request = b64(`-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
    const r = await asBootstrap('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', csr);
    expect(r.status).toBe(422);
    const status = JSON.parse(r.body) as { message: string; details: { causes: { field: string; message: string }[] } };
    expect(status.message).toMatch(
      /^CertificateSigningRequest\.certificates\.k8s\.io "node-csr-tampered" is invalid: spec\.request: Invalid value: \[\]byte\{0x2d, 0x2d, .*\}: x509: ECDSA verification failure$/,
    );
  });

  it('the object itself cannot approve; approval adds the condition with server timestamps; status issues; Approved stays', async () => {
    const created = await k.create<CertificateSigningRequest>(CSR, '', await kubeletCsr('node-csr-two'));
    expect(created.spec.username).toBe('kubelab-test-admin');
    // An update of the object keeps status as stored (no Approved).
    const sneaky = await k.update<CertificateSigningRequest>(CSR, '', withStatus(created, { conditions: [{ type: 'Approved', status: 'True' }] }));
    expect(sneaky.status).toEqual({});

    const approved = await k.patch<CertificateSigningRequest>(
      CSR,
      '',
      'node-csr-two',
      { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' }] } },
      'application/merge-patch+json',
      'approval',
    );
    const cond = approved.status!.conditions![0]!;
    expect(cond).toMatchObject({ type: 'Approved', status: 'True', reason: 'AutoApproved' });
    expect(cond.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(cond.lastTransitionTime).toBe(cond.lastUpdateTime);

    const cert = b64((await c.pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] })).cert);
    // A status write that alters Approved keeps the stored instance; one that drops it is refused.
    const issued = await k.updateStatus<CertificateSigningRequest>(CSR, '', withStatus(approved, { conditions: [{ ...cond, message: 'changed' }], certificate: cert }));
    expect(issued.status).toEqual({ conditions: [cond], certificate: cert });
    const dropped = await rpcError(k.updateStatus(CSR, '', withStatus(issued, { certificate: cert })));
    expect(dropped.status.message).toBe('CertificateSigningRequest.certificates.k8s.io "node-csr-two" is invalid: status.conditions: Forbidden: updates may not remove a condition of type "Approved"');

    const again = await rpcError(k.updateStatus(CSR, '', withStatus(issued, { ...issued.status, certificate: b64('x') })));
    expect(again.status.message).toContain('status.certificate: Forbidden: updates may not modify existing certificate content');
  });

  it('approval over REST as kubectl certificate approve sends it; Denied after Approved is refused', async () => {
    const created = await k.create<CertificateSigningRequest>(CSR, '', await kubeletCsr('node-csr-three'));
    const withApproved = { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' }] } };
    const put = await c.rest('/apis/certificates.k8s.io/v1/certificatesigningrequests/node-csr-three/approval', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(withApproved),
    });
    expect(put.status).toBe(200);
    const stored = JSON.parse(put.body) as CertificateSigningRequest;
    expect(stored.status!.conditions!.map((x) => x.type)).toEqual(['Approved']);
    const both = { ...stored, status: { conditions: [...stored.status!.conditions!, { type: 'Denied', status: 'True' }] } };
    const r = await c.rest('/apis/certificates.k8s.io/v1/certificatesigningrequests/node-csr-three/approval', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(both),
    });
    expect(r.status).toBe(422);
    expect((JSON.parse(r.body) as { message: string }).message).toContain('status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive');
  });

  it('lists by spec.signerName', async () => {
    await k.create(CSR, '', await kubeletCsr('serving-one', { signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }));
    const list = await k.list<CertificateSigningRequest>(CSR, '', { fieldSelector: 'spec.signerName=kubernetes.io/kubelet-serving' });
    expect(list.items.map((x) => x.metadata.name)).toEqual(['serving-one']);
  });

  it('approving and signing need approve and sign on the signer (CertificateApproval, CertificateSigning)', async () => {
    // jane may write approval and status, as the certificate controller's role lets it, but holds no signer.
    const G = 'rbac.authorization.k8s.io';
    await k.create(gvr('clusterroles', G), '', {
      metadata: { name: 'csr-writer' },
      rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['update', 'patch'] }],
    });
    await k.create(gvr('clusterrolebindings', G), '', {
      metadata: { name: 'jane-csr-writer' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'csr-writer' },
      subjects: [{ apiGroup: G, kind: 'User', name: 'jane' }],
    });
    const jane = await c.pki.client({ commonName: 'jane' });
    const created = await k.create<CertificateSigningRequest>(CSR, '', await kubeletCsr('node-csr-four'));
    const put = (sub: string, body: unknown) =>
      c.rest(`/apis/certificates.k8s.io/v1/certificatesigningrequests/node-csr-four/${sub}`, { method: 'PUT', as: jane, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const approve = await put('approval', withStatus(created, { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }] }));
    expect([approve.status, (JSON.parse(approve.body) as { message: string }).message]).toEqual([
      403,
      'certificatesigningrequests.certificates.k8s.io "node-csr-four" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client-kubelet"',
    ]);
    const cert = b64((await c.pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] })).cert);
    const sign = await put('status', withStatus(created, { certificate: cert }));
    expect([sign.status, (JSON.parse(sign.body) as { message: string }).message]).toEqual([
      403,
      'certificatesigningrequests.certificates.k8s.io "node-csr-four" is forbidden: user not permitted to sign requests with signerName "kubernetes.io/kube-apiserver-client-kubelet"',
    ]);
    // Granted approve on every kubernetes.io signer, she approves.
    await k.create(gvr('clusterroles', G), '', {
      metadata: { name: 'k8s-approver' },
      rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/*'], verbs: ['approve'] }],
    });
    await k.create(gvr('clusterrolebindings', G), '', {
      metadata: { name: 'jane-approver' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'k8s-approver' },
      subjects: [{ apiGroup: G, kind: 'User', name: 'jane' }],
    });
    expect((await put('approval', withStatus(created, { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }] }))).status).toBe(200);
  });

  it('refuses a kube-apiserver-client request for system:masters, even from the admin (CertificateSubjectRestriction)', async () => {
    const pem = await createCsr({ commonName: 'mallory', organizations: ['system:masters'] }, await generateKeyPair('ECDSA-P256'));
    const r = await c.rest('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'mallory' }, spec: { request: b64(pem), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] } }),
    });
    expect([r.status, (JSON.parse(r.body) as { message: string }).message]).toEqual([
      403,
      'certificatesigningrequests.certificates.k8s.io "mallory" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    ]);
  });
});
