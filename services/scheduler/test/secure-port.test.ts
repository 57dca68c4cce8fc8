// kube-scheduler's --secure-port as upstream serves it (issue #16): HTTPS
// only, with a self-signed certificate for localhost and 127.0.0.1; health
// open to anyone (--authorization-always-allow-paths), /metrics only for
// whom the apiserver's RBAC allows `get` on the path (a SubjectAccessReview),
// client certificates of the cluster CA and ServiceAccount tokens (a
// TokenReview) as identities, 401 and 403 in upstream's words.

import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:tls';
import type { Status } from '@kubelab/api';
import { createClientset, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { startTestCluster, type TestCluster } from '@kubelab/apiserver/testing';
import { certificateInfo } from '@kubelab/pki';
import { TestPki } from '@kubelab/pki/testing';
import { parseSigningKey } from '@kubelab/serviceaccount';
import { requireTool, secureGet, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler, type RunningScheduler } from '../src/server.js';

const hasNats = requireTool('nats-server');

const forbidden = (message: string): Status => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: {}, code: 403 });
const UNAUTHORIZED: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

describe.skipIf(!hasNats)('the kube-scheduler secure port (Node,RBAC as kubeadm)', { timeout: 30_000 }, () => {
  let cluster: TestCluster;
  let cs: Clientset;
  let sched: RunningScheduler;
  const as = async (commonName: string, organizations: string[] = []) => {
    const p = await cluster.pki.client({ commonName, organizations });
    return { cert: p.cert, key: p.key };
  };

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signingKey = parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
    cluster = await startTestCluster({ authorizationModes: ['Node', 'RBAC'], serviceAccount: { signingKey } });
    cs = createClientset({ ...cluster.clientConfig, component: 'secure-port-test' });
    sched = await startScheduler({
      apiserverAddress: cluster.grpcAddress,
      apiserverTls: (await cluster.clientConfigFor({ commonName: 'system:kube-scheduler' })).tls,
      securePort: 0,
      bindAddress: '127.0.0.1',
      leaderElect: false,
      logger: createLogger({ component: 'kube-scheduler', level: 'error' }),
    });
  }, 30_000);

  afterAll(async () => {
    await sched?.stop();
    cs?.close();
    await cluster?.cleanup();
  });

  it('serves a self-signed certificate for localhost and 127.0.0.1', async () => {
    const pem = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', servername: 'localhost', port: sched.healthPort, rejectUnauthorized: false }, () => {
        resolve(s.getPeerX509Certificate()!.toString());
        s.end();
      });
      s.on('error', reject);
    });
    const info = certificateInfo(pem);
    expect(info).toMatchObject({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    expect(info.issuerCommonName).toMatch(/^localhost-ca@\d+$/);
  });

  it('answers the health checks to anyone', async () => {
    expect(await secureGet(sched.healthPort, '/healthz')).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'ok' });
    expect((await secureGet(sched.healthPort, '/livez')).body).toBe('ok');
  });

  it('forbids /metrics to anonymous and to a user without a grant, in upstream words', async () => {
    const anonymous = await secureGet(sched.healthPort, '/metrics');
    expect([anonymous.status, anonymous.contentType]).toEqual([403, 'application/json']);
    expect(JSON.parse(anonymous.body)).toEqual(forbidden('forbidden: User "system:anonymous" cannot get path "/metrics"'));
    const jane = await secureGet(sched.healthPort, '/metrics', await as('jane', ['dev']));
    expect(JSON.parse(jane.body)).toEqual(forbidden('forbidden: User "jane" cannot get path "/metrics"'));
  });

  it('serves /metrics to a client certificate in system:monitoring (the bootstrap binding of the system:monitoring ClusterRole)', async () => {
    const r = await secureGet(sched.healthPort, '/metrics', await as('prometheus', ['system:monitoring']));
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^scheduler_pending_pods\{queue="active"\} \d+$/m);
  });

  it('refuses a garbage bearer token and a certificate of another CA with 401, even on /healthz', async () => {
    const token = await secureGet(sched.healthPort, '/healthz', { token: 'garbage' });
    expect([token.status, JSON.parse(token.body)]).toEqual([401, UNAUTHORIZED]);
    const other = await (await TestPki.create()).client({ commonName: 'prometheus', organizations: ['system:monitoring'] });
    const stranger = await secureGet(sched.healthPort, '/healthz', { cert: other.cert, key: other.key });
    expect([stranger.status, JSON.parse(stranger.body)]).toEqual([401, UNAUTHORIZED]);
  });

  it('authenticates a ServiceAccount token by TokenReview: 403 until bound to system:monitoring, then 200', async () => {
    await cs.core.serviceAccounts('default').create({ metadata: { name: 'scraper' } });
    const tr = await cs.core.serviceAccounts('default').createToken('scraper', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: [] } });
    const token = tr.status!.token;
    const before = await secureGet(sched.healthPort, '/metrics', { token });
    expect(JSON.parse(before.body)).toEqual(forbidden('forbidden: User "system:serviceaccount:default:scraper" cannot get path "/metrics"'));
    await cs.rbac.clusterRoleBindings().create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'scraper-monitoring' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:monitoring' },
      subjects: [{ kind: 'ServiceAccount', name: 'scraper', namespace: 'default' }],
    });
    // A refusal is cached 10 s (--authorization-webhook-cache-unauthorized-ttl).
    const after = await waitFor('scraper allowed', async () => ((await secureGet(sched.healthPort, '/metrics', { token })).status === 200 ? true : undefined), { timeoutMs: 20_000 });
    expect(after).toBe(true);
  }, 40_000);

  it('speaks HTTPS only: plain HTTP gets no answer', async () => {
    await expect(fetch(`http://127.0.0.1:${sched.healthPort}/healthz`)).rejects.toThrow();
  });
});
