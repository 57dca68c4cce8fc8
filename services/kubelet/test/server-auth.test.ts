// The kubelet API's authentication and authorization (issue #16): HTTPS on
// the kubelet port with a self-signed serving certificate kept across
// restarts, client certificates from the cluster CA, 401/403 in upstream's
// words, SubjectAccessReviews for every request. The reviews are answered by
// a stub first (cluster admins allowed, as kubeadm's RBAC binding does),
// then by the real apiserver's RBAC.

import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateInfo } from '@kubelab/pki';
import { parseSigningKey } from '@kubelab/serviceaccount';
import { TestPki } from '@kubelab/pki/testing';
import type { SubjectAccessReview } from '@kubelab/api';
import { WebhookAuthorizer } from '@kubelab/component-base';
import { waitFor } from '@kubelab/testing';
import { POLL, startCluster, type Cluster, type ClientCertificate } from './harness.js';

/** The certificate a TLS client sees on the port. */
function servedCertificate(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const cert = s.getPeerX509Certificate();
      s.end();
      if (cert) resolve(cert);
      else reject(new Error('no certificate'));
    });
    s.on('error', reject);
  });
}

const asCert = async (pki: TestPki, commonName: string, organizations: string[] = []): Promise<ClientCertificate> => {
  const p = await pki.client({ commonName, organizations });
  return { certPem: p.cert, keyPem: p.key };
};

describe('the kubelet API (reviews answered by a stub RBAC)', () => {
  let c: Cluster;
  const reviews: SubjectAccessReview['spec'][] = [];
  let jane: ClientCertificate;

  beforeAll(async () => {
    const authorizer = new WebhookAuthorizer({
      create: (r) => {
        reviews.push(r.spec);
        return Promise.resolve({ ...r, status: { allowed: (r.spec.groups ?? []).includes('kubeadm:cluster-admins') } });
      },
    });
    c = await startCluster({ kubelet: { authorizationMode: 'Webhook', authorizer } });
    jane = await asCert(c.pki.pki, 'jane', ['dev']);
  }, 30_000);
  afterAll(() => c?.dispose());

  it('refuses an anonymous request with 401 Unauthorized', async () => {
    expect(await c.kubeletGet('/pods', 'anonymous')).toEqual({ status: 401, text: 'Unauthorized' });
  });

  it('refuses a client certificate from another CA with 401, even for a name the cluster trusts', async () => {
    const other = await TestPki.create();
    expect(await c.kubeletGet('/pods', await asCert(other, 'kube-apiserver-kubelet-client', ['kubeadm:cluster-admins']))).toEqual({ status: 401, text: 'Unauthorized' });
  });

  it('refuses a bearer token the apiserver does not vouch for (its TokenReview) with 401', async () => {
    expect(await c.kubeletGet('/pods', { token: 'not-a-token' })).toEqual({ status: 401, text: 'Unauthorized' });
  });

  it("forbids an identity without nodes/proxy with 403 in the kubelet's words, after asking a SubjectAccessReview", async () => {
    expect(await c.kubeletGet('/pods', jane)).toEqual({ status: 403, text: 'Forbidden (user=jane, verb=get, resource=nodes, subresource=proxy)' });
    expect(await c.kubeletGet('/metrics', jane)).toEqual({ status: 403, text: 'Forbidden (user=jane, verb=get, resource=nodes, subresource=metrics)' });
    expect(reviews.filter((r) => r.user === 'jane')).toEqual([
      { user: 'jane', groups: ['dev', 'system:authenticated'], resourceAttributes: { namespace: '', verb: 'get', group: '', version: 'v1', resource: 'nodes', subresource: 'proxy', name: 'node-1' } },
      {
        user: 'jane',
        groups: ['dev', 'system:authenticated'],
        resourceAttributes: { namespace: '', verb: 'get', group: '', version: 'v1', resource: 'nodes', subresource: 'metrics', name: 'node-1' },
      },
    ]);
  });

  it('serves the apiserver (apiserver-kubelet-client, kubeadm:cluster-admins)', async () => {
    const pods = await c.kubeletGet('/pods');
    expect(pods.status).toBe(200);
    expect(JSON.parse(pods.text)).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
    expect(await c.kubeletGet('/healthz')).toEqual({ status: 200, text: 'ok' });
    expect(reviews.filter((r) => r.user === 'kube-apiserver-kubelet-client').map((r) => r.resourceAttributes?.subresource)).toEqual(['proxy']);
  });

  it('keeps /healthz on the healthz port plain HTTP and open, as upstream', async () => {
    const r = await fetch(`http://127.0.0.1:${c.kubelet.healthzPort}/healthz`);
    expect([r.status, await r.text()]).toEqual([200, 'ok']);
  });

  it('serves a self-signed certificate for the node from <root-dir>/pki/kubelet.crt, the same after a restart', async () => {
    const before = await servedCertificate(c.kubelet.port);
    const onDisk = readFileSync(join(c.dir, 'kubelet', 'pki', 'kubelet.crt'), 'utf8');
    expect(certificateInfo(onDisk)).toMatchObject({ dnsNames: ['node-1'] });
    expect(certificateInfo(onDisk).commonName).toMatch(/^node-1@\d+$/);
    expect(before.fingerprint256).toBe(new X509Certificate(onDisk).fingerprint256);
    await c.stopKubelet();
    await c.startKubelet({ authorizationMode: 'AlwaysAllow' });
    expect((await servedCertificate(c.kubelet.port)).fingerprint256).toBe(before.fingerprint256);
  }, 30_000);
});

describe('the kubelet API against the apiserver (Node,RBAC as kubeadm)', () => {
  let c: Cluster;
  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signingKey = parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
    c = await startCluster({ apiserver: { authorizationModes: ['Node', 'RBAC'], serviceAccount: { signingKey } } });
  }, 30_000);
  afterAll(() => c?.dispose());

  it('allows the apiserver through kubeadm:cluster-admins and forbids jane until a binding grants nodes/proxy', async () => {
    expect((await c.kubeletGet('/pods')).status).toBe(200);
    expect(await c.kubeletGet('/pods', await asCert(c.pki.pki, 'jane'))).toEqual({ status: 403, text: 'Forbidden (user=jane, verb=get, resource=nodes, subresource=proxy)' });
    expect(await c.kubeletGet('/pods', 'anonymous')).toEqual({ status: 401, text: 'Unauthorized' });
    // upstream's system:kubelet-api-admin grants nodes/proxy, log, stats, metrics; bound to joe, joe gets through.
    await c.cs.rbac.clusterRoleBindings().create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'joe-kubelet-api' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:kubelet-api-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'joe' }],
    });
    const joe = await asCert(c.pki.pki, 'joe');
    expect(await waitFor('joe allowed', async () => ((await c.kubeletGet('/pods', joe)).status === 200 ? true : undefined), POLL)).toBe(true);
  });

  it('authenticates a ServiceAccount token through a TokenReview: 200 with nodes/proxy, 403 without, 401 tampered', async () => {
    const tokenFor = async (name: string) => {
      await c.cs.core.serviceAccounts('default').create({ metadata: { name } });
      const tr = await c.cs.core.serviceAccounts('default').createToken(name, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: [] } });
      return tr.status!.token;
    };
    const robot = await tokenFor('robot');
    const nobody = await tokenFor('nobody');
    await c.cs.rbac.clusterRoleBindings().create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'robot-kubelet-api' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:kubelet-api-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'default' }],
    });
    const pods = await waitFor(
      'robot allowed',
      async () => {
        const r = await c.kubeletGet('/pods', { token: robot });
        return r.status === 200 ? r : undefined;
      },
      POLL,
    );
    expect(JSON.parse(pods.text)).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
    expect(await c.kubeletGet('/pods', { token: nobody })).toEqual({ status: 403, text: 'Forbidden (user=system:serviceaccount:default:nobody, verb=get, resource=nodes, subresource=proxy)' });
    // The signature's last character changed: the apiserver's TokenReview says not authenticated.
    // One signature character changed well inside it: the last one's low bits are base64url padding, which decoders drop.
    const at = robot.length - 10;
    const tampered = robot.slice(0, at) + (robot[at] === 'A' ? 'B' : 'A') + robot.slice(at + 1);
    expect(await c.kubeletGet('/pods', { token: tampered })).toEqual({ status: 401, text: 'Unauthorized' });
    expect(await c.kubeletGet('/pods', { token: 'not-a-token' })).toEqual({ status: 401, text: 'Unauthorized' });
  });
});
