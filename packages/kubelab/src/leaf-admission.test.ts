import type { CertificateSigningRequest } from '@kubelab/api';
import { CertificateAuthority } from '@kubelab/pki';
import { describe, expect, it } from 'vitest';
import { issuedNodes } from './leaf-admission.js';

async function csr(ca: CertificateAuthority, commonName: string, signerName = 'kubernetes.io/kube-apiserver-client-kubelet', organizations = ['system:nodes']): Promise<CertificateSigningRequest> {
  const { cert } = await ca.issue({ commonName, organizations, usages: ['client'] }, { algorithm: 'ECDSA-P256' });
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: commonName },
    spec: { request: '', signerName, usages: [] },
    status: { certificate: Buffer.from(cert).toString('base64') },
  };
}

describe('leaf admission', () => {
  it("admits the nodes holding an issued kubelet client certificate, not the runner's own", async () => {
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const pending: CertificateSigningRequest = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'p' },
      spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: [] },
    };
    const list = [
      await csr(ca, 'system:node:far-2'),
      await csr(ca, 'system:node:far-1'),
      await csr(ca, 'system:node:node-1'),
      await csr(ca, 'system:node:far-1'),
      await csr(ca, 'system:node:other', 'kubernetes.io/kube-apiserver-client'),
      await csr(ca, 'system:node:nogroup', undefined, []),
      await csr(ca, 'jane'),
      pending,
    ];
    expect(issuedNodes(list, new Set(['control-plane', 'node-1']))).toEqual(['far-1', 'far-2']);
  }, 30_000);
});
