import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildKubeconfig, parseKubeconfig, pointUserAtCertificateFile } from './kubeconfig.js';

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

  it("kubelet-finalize: the user names the rotated pair's file instead of embedding kubeadm init's, the rest kept", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    try {
      const pem = join(dir, 'kubelet-client-current.pem');
      writeFileSync(pem, 'CERT2\nKEY2\n');
      const text = buildKubeconfig({ clusterName: 'kubernetes', server: 'https://127.0.0.1:6443', caPem: CA, userName: 'system:node:control-plane', clientCertPem: 'CERT', clientKeyPem: 'KEY' });
      const out = pointUserAtCertificateFile(text, pem);
      expect((parse(out) as { users: unknown[] }).users).toEqual([{ name: 'system:node:control-plane', user: { 'client-certificate': pem, 'client-key': pem } }]);
      expect(parseKubeconfig(out)).toMatchObject({ server: 'https://127.0.0.1:6443', caPem: CA, clientCertPem: 'CERT2\nKEY2\n' });
      expect(out).toContain('current-context: system:node:control-plane@kubernetes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['not yaml', ': : :', /invalid kubeconfig/],
    ['no context', 'apiVersion: v1\nkind: Config\n', /no current context/],
    ['missing context', 'current-context: x\ncontexts: []\n', /context "x" not found/],
    ['missing cluster', 'current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters: []\n', /cluster "c" not found/],
  ])('%s is a clear error', (_, text, want) => expect(() => parseKubeconfig(text)).toThrow(want));
});
