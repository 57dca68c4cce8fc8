import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { certificateInfo } from '@kubelab/pki';
import { servingCertificate } from './serving-cert.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('servingCertificate', () => {
  it('makes a self-signed certificate into <cert-dir>/<pair-name>.{crt,key} once and keeps it (the kubelet)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubelet-pki-'));
    dirs.push(dir);
    const first = await servingCertificate({ certDir: join(dir, 'pki'), pairName: 'kubelet', host: 'node-1' });
    expect(first.certFile).toBe(join(dir, 'pki', 'kubelet.crt'));
    expect(certificateInfo(first.certPem)).toMatchObject({ dnsNames: ['node-1'], isCa: false });
    expect(certificateInfo(first.certPem).issuerCommonName).toMatch(/^node-1-ca@\d+$/);
    expect(statSync(join(dir, 'pki', 'kubelet.key')).mode & 0o777).toBe(0o600);
    const again = await servingCertificate({ certDir: join(dir, 'pki'), pairName: 'kubelet', host: 'node-1' });
    expect(again.certPem).toBe(first.certPem);
    expect(again.keyPem).toBe(first.keyPem);
  });

  it('without a cert dir keeps a new pair in memory for localhost and 127.0.0.1 (kube-scheduler, kube-controller-manager)', async () => {
    const a = await servingCertificate({ certDir: '', pairName: 'kube-scheduler', host: 'localhost', ipAddresses: ['127.0.0.1'] });
    expect(a.certFile).toBeUndefined();
    expect(certificateInfo(a.certPem)).toMatchObject({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], isCa: false });
    expect(certificateInfo(a.certPem).commonName).toMatch(/^localhost@\d+$/);
    const b = await servingCertificate({ certDir: '', pairName: 'kube-scheduler', host: 'localhost', ipAddresses: ['127.0.0.1'] });
    expect(b.keyPem).not.toBe(a.keyPem);
    expect(existsSync('kube-scheduler.crt')).toBe(false);
  });

  it('uses the given pair (--tls-cert-file, --tls-private-key-file) as it is', async () => {
    const given = { certPem: 'CERT', keyPem: 'KEY' };
    expect(await servingCertificate({ given, certDir: '/nonexistent', pairName: 'kubelet', host: 'node-1' })).toEqual(given);
  });
});
