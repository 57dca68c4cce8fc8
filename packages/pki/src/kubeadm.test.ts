import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateInfo } from './certificate.js';
import { ensureClusterPki, KUBECONFIG_FILES, PKI_FILES } from './kubeadm.js';
import { loadKubeconfig } from './kubeconfig.js';

describe('ensureClusterPki', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kubelab-pki-'));
    await ensureClusterPki({
      dir,
      server: 'https://127.0.0.1:6443',
      serviceIp: '10.96.0.1',
      apiserverDnsNames: ['control-plane'],
      apiserverIps: ['172.20.0.2'],
      etcdDnsNames: ['nats'],
      algorithm: 'ECDSA-P256',
    });
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes kubeadm's files with private keys readable by the owner only", async () => {
    for (const base of Object.values(PKI_FILES)) {
      if (base.endsWith('.key') || base.endsWith('.pub')) continue;
      expect((await stat(join(dir, `${base}.crt`))).isFile()).toBe(true);
      expect((await stat(join(dir, `${base}.key`))).mode & 0o777).toBe(0o600);
    }
    expect((await stat(join(dir, PKI_FILES.saKey))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, PKI_FILES.saPub), 'utf8')).toContain('-----BEGIN PUBLIC KEY-----');
    for (const f of Object.values(KUBECONFIG_FILES)) expect((await stat(join(dir, f))).mode & 0o777).toBe(0o600);
  });

  it("gives the apiserver certificate the kubernetes Service's names and the given addresses", async () => {
    const info = certificateInfo(await readFile(join(dir, `${PKI_FILES.apiserver}.crt`), 'utf8'));
    expect(info.commonName).toBe('kube-apiserver');
    expect(info.dnsNames).toEqual(['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', 'localhost', 'control-plane']);
    expect(info.ipAddresses).toEqual(['10.96.0.1', '127.0.0.1', '172.20.0.2']);
  });

  it.each([
    ['admin.conf', 'kubernetes-admin', ['kubeadm:cluster-admins']],
    ['super-admin.conf', 'kubernetes-super-admin', ['system:masters']],
    ['controller-manager.conf', 'system:kube-controller-manager', []],
    ['scheduler.conf', 'system:kube-scheduler', []],
  ])('%s identifies %s', (file, cn, groups) => {
    const creds = loadKubeconfig(join(dir, file));
    expect(creds.server).toBe('https://127.0.0.1:6443');
    expect(certificateInfo(creds.caPem!).commonName).toBe('kubernetes');
    expect(certificateInfo(creds.clientCertPem!)).toMatchObject({ commonName: cn, organizations: groups });
    expect(creds.clientKeyPem).toContain('PRIVATE KEY');
  });

  it('keeps what exists when run again', async () => {
    const before = await readFile(join(dir, 'pki/ca.crt'), 'utf8');
    const admin = await readFile(join(dir, 'admin.conf'), 'utf8');
    await ensureClusterPki({ dir, server: 'https://127.0.0.1:6443', serviceIp: '10.96.0.1', algorithm: 'ECDSA-P256' });
    expect(await readFile(join(dir, 'pki/ca.crt'), 'utf8')).toBe(before);
    expect(await readFile(join(dir, 'admin.conf'), 'utf8')).toBe(admin);
  });
});
