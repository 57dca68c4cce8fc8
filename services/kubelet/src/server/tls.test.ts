import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { certificateInfo } from '@kubelab/pki';
import { kubeletServingCertificate } from './tls.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('kubeletServingCertificate', () => {
  it('makes a self-signed certificate for the node into <cert-dir>/kubelet.{crt,key} once and keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubelet-pki-'));
    dirs.push(dir);
    const first = await kubeletServingCertificate({ certDir: join(dir, 'pki'), nodeName: 'node-1' });
    expect(first.certFile).toBe(join(dir, 'pki', 'kubelet.crt'));
    expect(certificateInfo(first.certPem)).toMatchObject({ dnsNames: ['node-1'], isCa: false });
    expect(certificateInfo(first.certPem).issuerCommonName).toMatch(/^node-1-ca@\d+$/);
    expect(statSync(join(dir, 'pki', 'kubelet.key')).mode & 0o777).toBe(0o600);
    const again = await kubeletServingCertificate({ certDir: join(dir, 'pki'), nodeName: 'node-1' });
    expect(again.certPem).toBe(first.certPem);
    expect(again.keyPem).toBe(first.keyPem);
  });

  it('uses the given pair (--tls-cert-file, --tls-private-key-file) as it is', async () => {
    const given = { certPem: 'CERT', keyPem: 'KEY' };
    expect(await kubeletServingCertificate({ given, certDir: '/nonexistent', nodeName: 'node-1' })).toEqual(given);
  });
});
