import { generateKeyPairSync } from 'node:crypto';
import type { Secret, ServiceAccount } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { parseSigningKey, verifySignature } from '@kubelab/serviceaccount';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { TokensController } from './tokens-controller.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
const CA = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const unb64 = (s = '') => Buffer.from(s, 'base64').toString();

const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'team', uid: 'sa-uid' } };
const tokenSecret = (name: string, saName: string, uid?: string): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'team', uid: `${name}-uid`, annotations: { 'kubernetes.io/service-account.name': saName, ...(uid ? { 'kubernetes.io/service-account.uid': uid } : {}) } },
  type: 'kubernetes.io/service-account-token',
});

describe('service account token controller', () => {
  it('fills a token Secret with a legacy token, the CA and the namespace', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.serviceAccounts, sa);
    env.fake.seed(GVR.secrets, tokenSecret('robot-token', 'robot'));
    const c = new TokensController(env.ctx, KEY, CA);
    await env.sync();
    await c.sync('secret/team/robot-token');
    expect(env.fake.actionLines()).toEqual(['update secrets team/robot-token']);
    const s = env.fake.peek<Secret>(GVR.secrets, 'team', 'robot-token')!;
    expect(s.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'robot', 'kubernetes.io/service-account.uid': 'sa-uid' });
    expect(unb64(s.data?.namespace)).toBe('team');
    expect(unb64(s.data?.['ca.crt'])).toBe(CA);
    expect(await verifySignature(unb64(s.data?.token), [KEY.publicKey])).toEqual({
      iss: 'kubernetes/serviceaccount',
      sub: 'system:serviceaccount:team:robot',
      'kubernetes.io/serviceaccount/namespace': 'team',
      'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot',
      'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
    });
    // A filled Secret is left alone.
    env.fake.clearActions();
    await c.sync('secret/team/robot-token');
    expect(env.fake.actionLines().filter((l) => !l.startsWith('get'))).toEqual([]);
    await env.stop();
  });

  it('deletes a token Secret whose ServiceAccount does not exist or is another one with that name', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.serviceAccounts, sa);
    env.fake.seed(GVR.secrets, tokenSecret('ghost-token', 'ghost'), tokenSecret('stale-token', 'robot', 'old-uid'));
    const c = new TokensController(env.ctx, KEY, '');
    await env.sync();
    await c.sync('secret/team/ghost-token');
    await c.sync('secret/team/stale-token');
    expect(env.fake.actionLines()).toEqual(['get serviceaccounts team/ghost', 'delete secrets team/ghost-token', 'delete secrets team/stale-token']);
    await env.stop();
  });

  it("deletes a deleted ServiceAccount's token Secrets", async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.secrets, tokenSecret('robot-token', 'robot', 'sa-uid'), tokenSecret('other-token', 'other'));
    const c = new TokensController(env.ctx, KEY, '');
    await env.sync();
    await c.sync('serviceaccount/team/robot/sa-uid');
    expect(env.fake.actionLines()).toEqual(['delete secrets team/robot-token']);
    await env.stop();
  });
});
