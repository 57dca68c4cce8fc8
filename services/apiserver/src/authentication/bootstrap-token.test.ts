import { describe, expect, it } from 'vitest';
import type { Secret } from '@kubelab/api';
import { authenticateToken } from './token.js';
import { createBootstrapTokenAuthenticator } from './bootstrap-token.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(data: Record<string, string>, more: Partial<Secret> = {}): Secret {
  return {
    metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system', uid: 'u' },
    type: 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
    ...more,
  };
}

const valid = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' };

function auth(s: Secret | undefined) {
  return [createBootstrapTokenAuthenticator({ getter: { secret: (ns, name) => (s && ns === s.metadata.namespace && name === s.metadata.name ? s : undefined) }, now: () => NOW })];
}

describe('bootstrap token authenticator', () => {
  it('authenticates <id>.<secret> as system:bootstrap:<id> in system:bootstrappers and the extra groups', async () => {
    expect(await authenticateToken(auth(secret({ ...valid, expiration: '2026-01-02T00:00:00Z' })), 'abcdef.0123456789abcdef')).toEqual({
      ok: true,
      response: { audiences: [], user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] } },
    });
  });

  it.each<[string, Secret | undefined, string?]>([
    ['no Secret', undefined],
    ['a wrong secret part', secret(valid), 'abcdef.fedcba9876543210'],
    ['an expired token', secret({ ...valid, expiration: '2025-12-31T23:59:59Z' })],
    ['an unparsable expiration', secret({ ...valid, expiration: 'tomorrow' })],
    ['usage-bootstrap-authentication unset', secret({ ...valid, 'usage-bootstrap-authentication': 'false' })],
    ['an extra group outside system:bootstrappers:', secret({ ...valid, 'auth-extra-groups': 'system:masters' })],
    ['another Secret type', secret(valid, { type: 'Opaque' })],
    ['a Secret being deleted', secret(valid, { metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system', deletionTimestamp: '2025-12-31T00:00:00Z' } })],
    ['a token that is not <id>.<secret>', secret(valid), 'ABCDEF.0123456789abcdef'],
  ])('does not authenticate with %s', async (_name, s, token = 'abcdef.0123456789abcdef') => {
    expect(await authenticateToken(auth(s), token)).toEqual({ ok: false, error: 'invalid bearer token' });
  });
});
