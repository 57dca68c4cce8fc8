// `kubelab kubeadm init` and `admin-kubeconfig` as the compose stack runs
// them (the built CLI, real files): kubeadm's layout, identities, SANs and
// modes, a joining node's bootstrap-kubelet.conf, and a second run that
// keeps every file.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateInfo, loadKubeconfig } from '@kubelab/pki';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

function kubelab(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

// Every test spawns the CLI (node's start and imports): seconds on a loaded machine.
describe('kubelab kubeadm init', { timeout: 60_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'kubelab-kubeadm-'));
  const dir = join(root, 'etc-kubernetes');
  const nodesDir = join(root, 'nodes');
  const args = [
    'kubeadm',
    'init',
    `--dir=${dir}`,
    '--nodes=control-plane,node-1',
    '--join-nodes=node-2',
    `--nodes-dir=${nodesDir}`,
    '--control-plane-endpoint=apiserver:6443',
    '--apiserver-cert-extra-sans=apiserver,control-plane,127.0.0.1',
    '--etcd-cert-extra-sans=nats',
    '--service-cidr=10.100.0.0/16',
  ];
  let first: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    first = await kubelab(...args);
  }, 90_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("writes kubeadm's files and says so in kubeadm's words", () => {
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`[certs] Using certificateDir folder "${dir}/pki"`);
    expect(first.stdout).toContain('[certs] Generating "ca" certificate and key');
    expect(first.stdout).toContain('[certs] Generating "etcd/server" certificate and key');
    expect(first.stdout).toContain('[kubeconfig] Writing "super-admin.conf" kubeconfig file');
    expect(first.stdout).toContain('[kubeconfig] Writing "kubelet.conf" kubeconfig file');
    expect(first.stdout).toContain(`[encryption-config] Generated "${dir}/encryption-config.yaml"`);
    for (const f of ['pki/ca.crt', 'pki/apiserver.crt', 'pki/sa.pub', 'pki/etcd/ca.crt', 'pki/front-proxy-ca.crt']) expect(`${f} ${mode(join(dir, f))}`).toBe(`${f} 644`);
    for (const f of ['pki/ca.key', 'pki/apiserver.key', 'pki/sa.key', 'admin.conf', 'super-admin.conf', 'controller-manager.conf', 'scheduler.conf', 'encryption-config.yaml']) {
      expect(`${f} ${mode(join(dir, f))}`).toBe(`${f} 600`);
    }
    expect(statSync(join(dir, 'manifests')).isDirectory()).toBe(true);
    expect(statSync(join(nodesDir, 'node-1', 'manifests')).isDirectory()).toBe(true);
  });

  it('signs the serving certificate for the in-cluster names, the extra SANs and the kubernetes Service IP', () => {
    const served = certificateInfo(readFileSync(join(dir, 'pki/apiserver.crt'), 'utf8'));
    expect(served.dnsNames).toEqual(expect.arrayContaining(['kubernetes', 'kubernetes.default.svc.cluster.local', 'localhost', 'apiserver', 'control-plane']));
    expect(served.ipAddresses).toEqual(expect.arrayContaining(['10.100.0.1', '127.0.0.1']));
    expect(certificateInfo(readFileSync(join(dir, 'pki/etcd/server.crt'), 'utf8')).dnsNames).toEqual(['localhost', 'nats']);
    expect(first.stdout).toMatch(/\[certs\] apiserver serving cert is signed for DNS names \[.*\bapiserver\b.*\] and IPs \[.*10\.100\.0\.1.*\]/);
  });

  it("gives each node its kubelet's identity and kube-proxy's, pointed at the control-plane endpoint", () => {
    const ca = readFileSync(join(dir, 'pki/ca.crt'), 'utf8');
    for (const node of ['control-plane', 'node-1']) {
      const kubelet = loadKubeconfig(join(nodesDir, node, 'kubelet.conf'));
      expect(kubelet.server).toBe('https://apiserver:6443');
      expect(kubelet.caPem).toBe(ca);
      const id = certificateInfo(kubelet.clientCertPem!);
      expect([id.commonName, id.organizations]).toEqual([`system:node:${node}`, ['system:nodes']]);
      const proxy = certificateInfo(loadKubeconfig(join(nodesDir, node, 'kube-proxy.conf')).clientCertPem!);
      expect([proxy.commonName, proxy.organizations]).toEqual(['system:kube-proxy', []]);
    }
    // The node's Node Problem Detector, joining nodes included: its ServiceAccount's user and groups.
    for (const node of ['control-plane', 'node-1', 'node-2']) {
      const npd = certificateInfo(loadKubeconfig(join(nodesDir, node, 'node-problem-detector.conf')).clientCertPem!);
      expect([npd.commonName, npd.organizations]).toEqual(['system:serviceaccount:kube-system:node-problem-detector', ['system:serviceaccounts', 'system:serviceaccounts:kube-system']]);
    }
    for (const node of ['control-plane', 'node-1']) {
      expect(mode(join(nodesDir, node, 'kubelet.conf'))).toBe('600');
      // kubeadm join's pki/ca.crt: the kubelet's --client-ca-file.
      expect(readFileSync(join(nodesDir, node, 'pki/ca.crt'), 'utf8')).toBe(ca);
    }
    const admin = certificateInfo(loadKubeconfig(join(dir, 'admin.conf')).clientCertPem!);
    expect([admin.commonName, admin.organizations]).toEqual(['kubernetes-admin', ['kubeadm:cluster-admins']]);
  });

  it("makes kubeadm init's bootstrap token and gives a joining node bootstrap-kubelet.conf with it, no kubelet.conf", () => {
    const stored = JSON.parse(readFileSync(join(dir, 'bootstrap-token.json'), 'utf8')) as { items: { kind: string; data: Record<string, string> }[] };
    const data = Object.fromEntries(Object.entries(stored.items[0]!.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    const token = `${data['token-id']}.${data['token-secret']}`;
    expect(token).toMatch(/^[a-z0-9]{6}\.[a-z0-9]{16}$/);
    // 24 h, kubeadm's default TTL.
    expect(Date.parse(data.expiration!) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(Date.parse(data.expiration!) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(mode(join(dir, 'bootstrap-token.json'))).toBe('600');
    expect(first.stdout).toMatch(/\[bootstrap-token\] Generated a new bootstrap token in ".*bootstrap-token.json", valid until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect(first.stdout).toContain('[kubeconfig] Writing "bootstrap-kubelet.conf" kubeconfig file');

    const boot = loadKubeconfig(join(nodesDir, 'node-2', 'bootstrap-kubelet.conf'));
    expect({ server: boot.server, token: boot.token, cert: boot.clientCertPem }).toEqual({ server: 'https://apiserver:6443', token, cert: undefined });
    expect(boot.caPem).toBe(readFileSync(join(dir, 'pki/ca.crt'), 'utf8'));
    expect(readFileSync(join(nodesDir, 'node-2', 'bootstrap-kubelet.conf'), 'utf8')).toContain('name: tls-bootstrap-token-user');
    expect(mode(join(nodesDir, 'node-2', 'bootstrap-kubelet.conf'))).toBe('600');
    expect(() => statSync(join(nodesDir, 'node-2', 'kubelet.conf'))).toThrow(/ENOENT/);
    expect(certificateInfo(loadKubeconfig(join(nodesDir, 'node-2', 'kube-proxy.conf')).clientCertPem!).commonName).toBe('system:kube-proxy');
  });

  it('keeps every existing file on a second run (a restarted stack keeps its identities and key)', async () => {
    const files = ['pki/ca.key', 'pki/apiserver.crt', 'admin.conf', 'encryption-config.yaml', 'bootstrap-token.json']
      .map((f) => join(dir, f))
      .concat(join(nodesDir, 'node-1', 'kubelet.conf'), join(nodesDir, 'node-2', 'bootstrap-kubelet.conf'));
    const before = files.map((f) => readFileSync(f, 'utf8'));
    const again = await kubelab(...args);
    expect(again.code).toBe(0);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(before);
    expect(again.stdout).toContain('[certs] Using existing ca certificate authority');
    expect(again.stdout).toContain(`[kubeconfig] Using existing kubeconfig file: "${join(nodesDir, 'node-1', 'kubelet.conf')}"`);
    expect(again.stdout).toContain(`[encryption-config] Using the existing "${dir}/encryption-config.yaml"`);
    expect(again.stdout).toContain(`[bootstrap-token] Using the existing bootstrap token in "${dir}/bootstrap-token.json"`);
    expect(again.stdout).toContain(`[kubeconfig] Using existing kubeconfig file: "${join(nodesDir, 'node-2', 'bootstrap-kubelet.conf')}"`);
  }, 60_000);

  it('admin-kubeconfig copies admin.conf with the server the user reaches, mode 0600', async () => {
    const out = join(root, 'user', 'kubeconfig');
    const r = await kubelab('kubeadm', 'admin-kubeconfig', `--from=${join(dir, 'admin.conf')}`, '--server=https://127.0.0.1:16443', out);
    expect(r.stdout).toBe(`[kubeconfig] Wrote "${out}" for https://127.0.0.1:16443\n`);
    const copy = loadKubeconfig(out);
    const admin = loadKubeconfig(join(dir, 'admin.conf'));
    expect(copy.server).toBe('https://127.0.0.1:16443');
    expect({ ...copy, server: '', path: '' }).toEqual({ ...admin, server: '', path: '' });
    expect(mode(out)).toBe('600');
  });

  it("certs check-expiration prints when each file kubeadm init wrote expires, in kubeadm's tables", async () => {
    const r = await kubelab('kubeadm', 'certs', 'check-expiration', `--cert-dir=${dir}/pki`);
    expect(r.code).toBe(0);
    const [certs, cas] = r.stdout.split('\n\n') as [string, string];
    expect(certs.split('\n')[0]).toBe('CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED');
    // One year for certificates and kubeconfigs, ten for the CAs (kubeadm's validity periods).
    const names = certs
      .split('\n')
      .slice(1)
      .map((l) => /^(\S+)\s+\w{3} \d\d, \d{4} \d\d:\d\d UTC\s+(36[45]d)\s+(\S+)\s+no\s*$/.exec(l)?.slice(1, 4).join(' ') ?? l);
    expect(names).toEqual([
      'admin.conf 364d ca',
      'apiserver 364d ca',
      'apiserver-etcd-client 364d etcd-ca',
      'apiserver-kubelet-client 364d ca',
      'controller-manager.conf 364d ca',
      'etcd-healthcheck-client 364d etcd-ca',
      'etcd-server 364d etcd-ca',
      'front-proxy-client 364d front-proxy-ca',
      'scheduler.conf 364d ca',
      'super-admin.conf 364d ca',
    ]);
    expect(cas).toMatch(/^CERTIFICATE AUTHORITY {3}EXPIRES {18}RESIDUAL TIME {3}EXTERNALLY MANAGED\nca {22}\w{3} \d\d, \d{4} \d\d:\d\d UTC {3}9y {14}no {6}\netcd-ca .*\nfront-proxy-ca .*\n$/);
  });

  it('refuses bad flags with a clear message and exit code 2', async () => {
    const r = await kubelab('kubeadm', 'init', '--nodes=Bad_Name');
    expect([r.code, r.stderr]).toEqual([2, 'kubelab kubeadm init: --nodes: "Bad_Name" is not a valid node name (a lowercase RFC 1123 subdomain)\n']);
  });
});
