// kubectl 1.32 against CertificateSigningRequests: api-resources, create,
// `kubectl get csr` (AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION,
// CONDITION), `kubectl certificate approve|deny` (a protobuf PUT to the
// approval subresource) and the Approved,Issued row once a certificate is set.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateSigningRequest, KubeObject } from '@kubelab/api';
import { createCsr, generateKeyPair, verifyCsr } from '@kubelab/pki';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

async function csrYaml(name: string, commonName: string, organizations: string[], extra = ''): Promise<string> {
  const pem = await createCsr({ commonName, organizations }, await generateKeyPair('ECDSA-P256'));
  return `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${Buffer.from(pem).toString('base64')}
  signerName: kubernetes.io/kube-apiserver-client
  usages: ["digital signature", "client auth"]
${extra}`;
}

describe.skipIf(!run)('kubectl 1.32: certificatesigningrequests', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists csr', async () => {
    const lines = squash((await c.kubectl(['api-resources', '--api-group=certificates.k8s.io'])).stdout);
    expect(lines).toEqual(['NAME SHORTNAMES APIVERSION NAMESPACED KIND', 'certificatesigningrequests csr certificates.k8s.io/v1 false CertificateSigningRequest']);
  });

  it('create, get csr (Pending), approve and deny through the approval subresource, then Approved,Issued', async () => {
    const created = await c.kubectl(['create', '-f', '-'], { stdin: await csrYaml('jane', 'jane', ['dev'], '  expirationSeconds: 86400\n') });
    expect(created.stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/jane created');
    await c.kubectl(['create', '-f', '-'], { stdin: await csrYaml('joe', 'joe', []) });

    expect(squash((await c.kubectl(['get', 'csr'])).stdout)).toEqual([
      'NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION',
      expect.stringMatching(/^jane \d+s kubernetes\.io\/kube-apiserver-client kubelab-test-admin 24h Pending$/),
      expect.stringMatching(/^joe \d+s kubernetes\.io\/kube-apiserver-client kubelab-test-admin <none> Pending$/),
    ]);

    const approve = await c.kubectl(['certificate', 'approve', 'jane']);
    expect(approve).toMatchObject({ code: 0, stdout: 'certificatesigningrequest.certificates.k8s.io/jane approved\n' });
    const deny = await c.kubectl(['certificate', 'deny', 'joe']);
    expect(deny).toMatchObject({ code: 0, stdout: 'certificatesigningrequest.certificates.k8s.io/joe denied\n' });
    const jane = (await c.get('certificatesigningrequests', undefined, 'jane', 'certificates.k8s.io')) as CertificateSigningRequest;
    expect(jane.status!.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' }),
    ]);

    // The signer's part (the controller-manager's csrsigning), done here with the cluster CA.
    const pem = await c.pki.pki.ca.signRequest(verifyCsr(Buffer.from(jane.spec.request, 'base64').toString()), { usages: ['digital signature', 'client auth'], ttlMs: 86400_000 });
    const store = c.api.registry.store('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
    await store.update(undefined, 'jane', { ...structuredClone(jane), status: { ...jane.status, certificate: Buffer.from(pem).toString('base64') } } as KubeObject, {}, 'status');

    const lines = squash((await c.kubectl(['get', 'csr'])).stdout);
    expect(lines.slice(1).map((l) => [l.split(' ')[0], l.split(' ').at(-1)])).toEqual([
      ['jane', 'Approved,Issued'],
      ['joe', 'Denied'],
    ]);
    const issued = await c.kubectl(['get', 'csr', 'jane', '-o', 'jsonpath={.status.certificate}']);
    expect(Buffer.from(issued.stdout, 'base64').toString()).toBe(pem);
  });

  it('a request that is no CSR is refused with the field error', async () => {
    const bad = `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: bad
spec:
  request: ${Buffer.from('hello').toString('base64')}
  signerName: kubernetes.io/kube-apiserver-client
  usages: ["client auth"]
`;
    const r = await c.kubectl(['create', '-f', '-'], { stdin: bad });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('The CertificateSigningRequest "bad" is invalid: spec.request: Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}: PEM block type must be CERTIFICATE REQUEST');
  });
});
