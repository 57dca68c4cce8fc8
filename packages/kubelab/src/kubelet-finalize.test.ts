import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildKubeconfig } from '@kubelab/pki';
import { kubeletFinalizePhase } from './kubelet-finalize.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-finalize-'));
  dirs.push(dir);
  const kubeconfigPath = join(dir, 'kubelet.conf');
  const certDir = join(dir, 'kubelet', 'pki');
  mkdirSync(certDir, { recursive: true });
  const embedded = buildKubeconfig({ clusterName: 'kubernetes', server: 'https://127.0.0.1:6443', caPem: 'CA', userName: 'system:node:control-plane', clientCertPem: 'CERT', clientKeyPem: 'KEY' });
  writeFileSync(kubeconfigPath, embedded);
  return { kubeconfigPath, certDir, embedded };
}

describe("kubeadm's kubelet-finalize phase", () => {
  it("waits for the pair in the kubelet's store, then points kubelet.conf at it with kubeadm's line", async () => {
    const { kubeconfigPath, certDir } = setup();
    const lines: string[] = [];
    const phase = kubeletFinalizePhase({ kubeconfigPath, certDir, log: (l) => lines.push(l), cancelled: () => false, timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(lines).toEqual([]);
    writeFileSync(join(certDir, 'kubelet-client-current.pem'), 'PAIR');
    expect(await phase).toBe(true);
    const pem = join(certDir, 'kubelet-client-current.pem');
    expect(lines).toEqual([`[kubelet-finalize] Updating "${kubeconfigPath}" to point to a rotatable kubelet client certificate and key`]);
    const text = readFileSync(kubeconfigPath, 'utf8');
    expect(text).toContain(`client-certificate: ${pem}`);
    expect(text).toContain(`client-key: ${pem}`);
    expect(text).not.toContain('client-certificate-data');
  });

  it('leaves kubelet.conf as it was when no pair appears in time, or when cancelled', async () => {
    const { kubeconfigPath, certDir, embedded } = setup();
    expect(await kubeletFinalizePhase({ kubeconfigPath, certDir, log: () => undefined, cancelled: () => false, timeoutMs: 300 })).toBe(false);
    expect(await kubeletFinalizePhase({ kubeconfigPath, certDir, log: () => undefined, cancelled: () => true })).toBe(false);
    expect(readFileSync(kubeconfigPath, 'utf8')).toBe(embedded);
  });
});
