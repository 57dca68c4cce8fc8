import { describe, expect, it } from 'vitest';
import { buildKubeconfig, parseKubeconfig } from './kubeconfig.js';

const CA = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';

describe('kubeconfig', () => {
  it('round-trips certificate credentials with embedded data, as kubeadm writes them', () => {
    const text = buildKubeconfig({ clusterName: 'kubernetes', server: 'https://127.0.0.1:6443', caPem: CA, userName: 'kubernetes-admin', clientCertPem: 'CERT', clientKeyPem: 'KEY' });
    expect(text).toContain('current-context: kubernetes-admin@kubernetes');
    expect(text).toContain('certificate-authority-data: ');
    expect(parseKubeconfig(text)).toEqual({ server: 'https://127.0.0.1:6443', caPem: CA, insecureSkipTlsVerify: false, clientCertPem: 'CERT', clientKeyPem: 'KEY' });
  });

  it('carries a bearer token', () => {
    const text = buildKubeconfig({ clusterName: 'kubernetes', server: 'https://x:6443', caPem: CA, userName: 'tls-bootstrap-token-user', token: 'abcdef.0123456789abcdef' });
    expect(parseKubeconfig(text).token).toBe('abcdef.0123456789abcdef');
  });

  it.each([
    ['not yaml', ': : :', /invalid kubeconfig/],
    ['no context', 'apiVersion: v1\nkind: Config\n', /no current context/],
    ['missing context', 'current-context: x\ncontexts: []\n', /context "x" not found/],
    ['missing cluster', 'current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters: []\n', /cluster "c" not found/],
  ])('%s is a clear error', (_, text, want) => expect(() => parseKubeconfig(text)).toThrow(want));
});
