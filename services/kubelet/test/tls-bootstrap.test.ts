// TLS bootstrap and client-certificate rotation against a real apiserver and
// the controller-manager's CSR controllers: the kubelet asks with a bootstrap
// token (a kube-system Secret, as `kubeadm token create` writes) over REST,
// csrapproving approves after the apiserver's SubjectAccessReview (recorded
// on the way) and csrsigning issues with the cluster CA; the stored pair
// then authenticates the kubelet as system:node:node-1 over gRPC, and a
// rotation asks again as the node itself.

import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '@kubelab/api';
import { startTestCluster, type TestCluster } from '@kubelab/apiserver/testing';
import { clientTlsFromKubeconfig, createClientset, realClock, type Clientset } from '@kubelab/client';
import {
  ControllerRegistry,
  CsrApprovingController,
  CsrSigningController,
  apiserverSubjectAccessReviewer,
  startControllerManager,
  type RunningControllerManager,
  type SubjectAccessReviewSpec,
} from '@kubelab/controller-manager';
import { bootstrapTokenSecret } from '@kubelab/serviceaccount';
import { buildKubeconfig, certificateInfo } from '@kubelab/pki';
import { waitFor } from '@kubelab/testing';
import { loadClientCert } from '../src/certificate/bootstrap.js';
import { clientsetCsrClient } from '../src/certificate/request.js';
import { ClientCertificateManager } from '../src/certificate/rotation.js';
import { CertificateFileStore } from '../src/certificate/store.js';
import { quiet } from './harness.js';

const TOKEN = '07401b.f395accd246ae52d';

describe('kubelet TLS bootstrap', { timeout: 60_000 }, () => {
  let cluster: TestCluster;
  let cm: RunningControllerManager;
  let dir: string;
  let admin: Clientset;
  const reviews: SubjectAccessReviewSpec[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubelab-tls-bootstrap-'));
    cluster = await startTestCluster({ rest: true, serviceAccount: { enableBootstrapTokenAuth: true } });
    writeFileSync(join(dir, 'ca.crt'), cluster.pki.ca.certPem);
    writeFileSync(join(dir, 'ca.key'), cluster.pki.ca.keyPem, { mode: 0o600 });
    // The two CSR controllers; the approver's SubjectAccessReviews go to the apiserver, recorded on the way.
    const registry = new ControllerRegistry()
      .register({
        name: 'certificatesigningrequest-approving-controller',
        aliases: [],
        workers: () => 1,
        create: (ctx) => {
          const sar = apiserverSubjectAccessReviewer(ctx.clientset);
          return new CsrApprovingController(ctx, { allowed: (spec) => (reviews.push(spec), sar.allowed(spec)) });
        },
      })
      .register({ name: 'certificatesigningrequest-signing-controller', aliases: [], workers: () => 1, create: (ctx) => new CsrSigningController(ctx) });
    cm = await startControllerManager({
      apiserverAddress: cluster.grpcAddress,
      apiserverTls: (await cluster.clientConfigFor({ commonName: 'system:kube-controller-manager' })).tls,
      bindAddress: '127.0.0.1',
      securePort: 0,
      leaderElect: false,
      logger: quiet('kube-controller-manager'),
      registry,
      config: { clusterSigningCertFile: join(dir, 'ca.crt'), clusterSigningKeyFile: join(dir, 'ca.key') },
    });
    admin = createClientset({ ...cluster.clientConfig, component: 'test' });
    await admin.core.secrets('kube-system').create(bootstrapTokenSecret('07401b', 'f395accd246ae52d'));
    writeFileSync(
      join(dir, 'bootstrap-kubelet.conf'),
      buildKubeconfig({ clusterName: 'kubernetes', server: `https://127.0.0.1:${cluster.apiserver.restPort}`, caPem: cluster.pki.caPem, userName: 'tls-bootstrap-token-user', token: TOKEN }),
    );
  });

  afterAll(async () => {
    admin?.close();
    await cm?.stop();
    await cluster?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const csrs = async () => (await admin.certificates.certificateSigningRequests().list()).items;
  const certDir = () => join(dir, 'pki');
  const kubeconfig = () => join(dir, 'kubelet.conf');

  it('no kubeconfig: a node-csr request with the bootstrap token, approved and issued; the pair stored and a kubeconfig written', async () => {
    await loadClientCert({ kubeconfigPath: kubeconfig(), bootstrapKubeconfigPath: join(dir, 'bootstrap-kubelet.conf'), certDir: certDir(), nodeName: 'node-1', log: quiet('kubelet') });

    const [csr] = (await csrs()) as [CertificateSigningRequest];
    expect(csr.metadata.name).toMatch(/^node-csr-[A-Za-z0-9_-]{43}$/);
    expect(csr.spec).toMatchObject({ signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], username: 'system:bootstrap:07401b' });
    expect(csr.status!.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' }),
    ]);
    expect(reviews.map((r) => [r.user, r.resourceAttributes.subresource])).toEqual([['system:bootstrap:07401b', 'nodeclient']]);

    // The certificate store: a dated pair and the current symlink to it.
    const current = join(certDir(), 'kubelet-client-current.pem');
    expect(lstatSync(current).isSymbolicLink()).toBe(true);
    expect(readlinkSync(current)).toMatch(/^kubelet-client-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.pem$/);
    const pem = readFileSync(current, 'utf8');
    expect(pem).toContain('-----BEGIN CERTIFICATE-----');
    expect(pem).toContain('-----BEGIN EC PRIVATE KEY-----');
    expect(certificateInfo(pem)).toMatchObject({ commonName: 'system:node:node-1', organizations: ['system:nodes'], issuerCommonName: 'kubernetes' });
    const conf = readFileSync(kubeconfig(), 'utf8');
    expect(conf).toContain(`client-certificate: ${current}`);
    expect(conf).toContain(`client-key: ${current}`);
    expect(conf).toContain('current-context: default-context');
  });

  it('the kubeconfig is the node over gRPC; a second start does not ask again', async () => {
    const cs = createClientset({ address: cluster.grpcAddress, tls: clientTlsFromKubeconfig(kubeconfig()), component: 'kubelet' });
    try {
      const mine = await cs.certificates.certificateSigningRequests().create({
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'whoami' },
        spec: (await csrs())[0]!.spec,
      });
      expect(mine.spec).toMatchObject({ username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] });
      await admin.certificates.certificateSigningRequests().delete('whoami');
    } finally {
      cs.close();
    }
    await loadClientCert({ kubeconfigPath: kubeconfig(), bootstrapKubeconfigPath: join(dir, 'bootstrap-kubelet.conf'), certDir: certDir(), nodeName: 'node-1', log: quiet('kubelet') });
    expect((await csrs()).length).toBe(1);
  });

  it('rotation: a new key and certificate requested as the node itself (selfnodeclient), and the clientset reconnects with it', async () => {
    const store = new CertificateFileStore(certDir());
    const before = store.current()!;
    const tls = clientTlsFromKubeconfig(kubeconfig());
    const cs = createClientset({ address: cluster.grpcAddress, tls, component: 'kubelet' });
    const rotated: string[] = [];
    const manager = new ClientCertificateManager({
      store,
      nodeName: 'node-1',
      client: clientsetCsrClient(cs),
      clock: realClock,
      log: quiet('kubelet'),
      onRotated: (pair) => {
        rotated.push(pair.certPem);
        cs.connection.setTls({ ...tls, certPem: pair.certPem, keyPem: pair.keyPem });
      },
    });
    try {
      await manager.rotate();
      manager.stop();
      expect(rotated.length).toBe(1);
      const renewal = (await csrs()).find((c) => c.metadata.name!.startsWith('csr-'))!;
      expect(renewal.spec.username).toBe('system:node:node-1');
      expect(renewal.status!.conditions![0]).toMatchObject({ reason: 'AutoApproved', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' });
      expect(reviews.at(-1)).toMatchObject({ user: 'system:node:node-1', resourceAttributes: { subresource: 'selfnodeclient' } });
      const after = store.current()!;
      expect(new X509Certificate(after.certPem).serialNumber).not.toBe(new X509Certificate(before.certPem).serialNumber);
      expect(after.keyPem).not.toBe(before.keyPem);
      // The swapped channel works, as the node.
      await waitFor('a call over the new channel', async () => (await cs.certificates.certificateSigningRequests().get(renewal.metadata.name!)).metadata.name === renewal.metadata.name);
    } finally {
      manager.stop();
      cs.close();
    }
  });
});
