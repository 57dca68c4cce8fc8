import { describe, expect, it } from 'vitest';
import type { APIService } from '@kubelab/api';
import { backendTls, proxiedHeaders } from './proxy.js';
import { extensionAuthData } from './authentication-configmap.js';

describe('proxiedHeaders (upstream SetAuthProxyHeaders)', () => {
  it("says who asked in X-Remote-*, and drops the caller's credentials and its own X-Remote-* headers", () => {
    const h = proxiedHeaders(
      { authorization: 'Bearer secret', 'impersonate-user': 'x', 'x-remote-user': 'mallory', 'x-remote-group': 'system:masters', accept: 'application/json', connection: 'keep-alive' },
      { name: 'jane', groups: ['dev', 'system:authenticated'], extra: { Scopes: ['a b'] } },
      '127.0.0.1:4443',
    );
    expect(h).toEqual({ accept: 'application/json', host: '127.0.0.1:4443', 'x-remote-user': 'jane', 'x-remote-group': ['dev', 'system:authenticated'], 'x-remote-extra-scopes': ['a b'] });
  });
});

describe('backendTls', () => {
  const a: APIService = { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { service: { namespace: 'kube-system', name: 'metrics-server' }, groupPriorityMinimum: 100, versionPriority: 100 } };
  it('presents the front-proxy certificate; verifies the backend unless insecureSkipTLSVerify', () => {
    expect(backendTls(a, { certPem: 'C', keyPem: 'K' })).toEqual({ cert: 'C', key: 'K', rejectUnauthorized: true, servername: 'metrics-server.kube-system.svc' });
    const insecure = backendTls({ ...a, spec: { ...a.spec!, insecureSkipTLSVerify: true } }, undefined);
    expect(insecure.rejectUnauthorized).toBe(false);
    expect(backendTls({ ...a, spec: { ...a.spec!, caBundle: Buffer.from('PEM').toString('base64') } }, undefined).ca).toBe('PEM');
  });
});

describe('extensionAuthData (extension-apiserver-authentication)', () => {
  it("publishes the client CA and kubeadm's requestheader settings as JSON lists", () => {
    expect(
      extensionAuthData('CA', {
        clientCaPem: 'FP',
        allowedNames: ['front-proxy-client'],
        usernameHeaders: ['X-Remote-User'],
        groupHeaders: ['X-Remote-Group'],
        extraHeadersPrefix: ['X-Remote-Extra-'],
      }),
    ).toEqual({
      'client-ca-file': 'CA',
      'requestheader-client-ca-file': 'FP',
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
    expect(extensionAuthData(undefined, undefined)).toEqual({});
  });
});
