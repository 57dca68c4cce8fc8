import type { ConfigMap, Secret } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { computeDetachedSignature } from '@kubelab/serviceaccount';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { BootstrapSigner, signedData, signingTokens } from './bootstrapsigner.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const token = (id: string, data: Record<string, string> = {}, name = `bootstrap-token-${id}`): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'kube-system', uid: `uid-${id}` },
  type: 'bootstrap.kubernetes.io/token',
  data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true', ...data }).map(([k, v]) => [k, b64(v)])),
});
const clusterInfo = (data: Record<string, string>): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info', namespace: 'kube-public' }, data });
const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('bootstrap signer', () => {
  it.each([
    ['a signing token', token('abcdef'), ['abcdef']],
    ['not for signing', token('abcdef', { 'usage-bootstrap-signing': 'false' }), []],
    ['expired', token('abcdef', { expiration: '2025-12-31T00:00:00Z' }), []],
    ['not yet expired', token('abcdef', { expiration: '2026-01-02T00:00:00Z' }), ['abcdef']],
    ['named for another id', token('abcdef', {}, 'bootstrap-token-zzzzzz'), []],
  ])('signs with %s: %j', (_name, secret, ids) => {
    expect([...signingTokens([secret], NOW).keys()]).toEqual(ids);
  });

  it('keeps the kubeconfig, adds the signatures of the tokens and drops the others', () => {
    const data = signedData({ kubeconfig: 'K', 'jws-kubeconfig-gone00': 'x' }, new Map([['abcdef', '0123456789abcdef']]));
    expect(data).toEqual({ kubeconfig: 'K', 'jws-kubeconfig-abcdef': computeDetachedSignature('K', 'abcdef', '0123456789abcdef') });
    expect(signedData({}, new Map())).toBeUndefined();
  });

  it('writes cluster-info only when a signature changes', async () => {
    const env = fakeEnv(); // the clock reads 2026-01-01T00:00:00Z
    env.fake.seed(GVR.secrets, token('abcdef'));
    env.fake.seed(GVR.configMaps, clusterInfo({ kubeconfig: 'K' }));
    const c = new BootstrapSigner(env.ctx);
    await env.sync();
    await c.sync();
    expect(env.fake.actionLines()).toEqual(['update configmaps kube-public/cluster-info']);
    await env.sync();
    await c.sync();
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });
});
