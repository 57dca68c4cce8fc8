// Service account tokens in a container end to end on one node (real
// apiserver with a signing key, mock containerd, kubelet): the ServiceAccount
// admission plugin adds kube-api-access, the kubelet requests a token bound
// to the pod, and `cat /var/run/secrets/kubernetes.io/serviceaccount/token`
// in the container prints a JWT the apiserver authenticates as the pod's
// service account.

import { generateKeyPairSync } from 'node:crypto';
import { reviewToken } from '@kubelab/apiserver';
import { parseSigningKey } from '@kubelab/serviceaccount';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, startCluster, type Cluster } from './harness.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

describe.skipIf(!requireTool('nats-server'))('projected service account token', () => {
  let c: Cluster;
  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    c = await startCluster({ apiserver: { serviceAccount: { signingKey: parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string) } } });
    // What the controller-manager's serviceaccount controller and root CA publisher would have made.
    await c.cs.core.serviceAccounts('default').create({ metadata: { name: 'default' } });
    await c.cs.core.configMaps('default').create({ metadata: { name: 'kube-root-ca.crt' }, data: { 'ca.crt': CA } });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('the container reads a JWT naming its pod, the CA and the namespace at the serviceaccount path', async () => {
    const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
    const created = await c.cs.core.pods('default').create(
      pod('reader', {
        containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', `cat ${dir}/token; echo; cat ${dir}/namespace; echo; cat ${dir}/ca.crt; sleep 3600`] }],
        terminationGracePeriodSeconds: 1,
      }),
    );
    expect(created.spec?.volumes?.[0]?.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const out = await waitFor(
      'the token in the log of reader',
      async () => {
        const t = (await c.kubeletGet('/containerLogs/default/reader/app')).text;
        return t.includes('END CERTIFICATE') ? t : undefined;
      },
      POLL,
    );
    const [token, namespace, ...ca] = out.split('\n');
    expect(namespace).toBe('default');
    expect(`${ca.join('\n')}`).toBe(CA);
    const claims = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
    expect(claims).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:default:default',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      'kubernetes.io': { namespace: 'default', pod: { name: 'reader', uid: created.metadata.uid }, node: { name: 'node-1' }, warnafter: claims.iat + 3607 },
    });
    expect(await reviewToken({ token: token! }, c.apiserver.tokenAuthenticators)).toMatchObject({
      authenticated: true,
      user: { username: 'system:serviceaccount:default:default', extra: { 'authentication.kubernetes.io/pod-name': ['reader'] } },
    });
  });
});
