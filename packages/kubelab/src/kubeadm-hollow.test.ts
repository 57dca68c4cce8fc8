import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadKubeconfig } from '@kubelab/pki';
import { kubeadmInitFiles } from './kubeadm.js';
import { kubeadmHollowCommand, parseKubeadmHollowArgs } from './kubeadm-hollow.js';

describe('kubelab kubeadm hollow: parsing', () => {
  it('names the nodes <prefix><i> and writes the endpoint as https', () =>
    expect(parseKubeadmHollowArgs(['/etc/kubernetes', '--count=3', '--control-plane-endpoint=haproxy:6443'])).toEqual({
      dir: '/etc/kubernetes',
      names: ['hollow-node-1', 'hollow-node-2', 'hollow-node-3'],
      nodesDir: '/var/lib/kubelab/hollow',
      server: 'https://haproxy:6443',
    }));

  it.each([
    [['--count=1'], 'usage: kubelab kubeadm hollow DIR --count N'],
    [['/e'], '--count 0: want 1..1000'],
    [['/e', '--count=1001'], '--count 1001: want 1..1000'],
    [['/e', '--count=2', '--name-prefix=Hollow_'], '--name-prefix "Hollow_": a node name starts with it'],
    [['/e', '--count=2', '--control-plane-endpoint=https://apiserver'], '--control-plane-endpoint "https://apiserver": want host:port'],
  ])('refuses %j', (argv, message) => expect(() => parseKubeadmHollowArgs(argv)).toThrow(message));
});

describe('kubelab kubeadm hollow: the files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeadm-hollow-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes each node's kubelet.conf as system:node:<name> from DIR's CA, and the bootstrap kubeconfig; kept when run again", async () => {
    const etc = join(dir, 'etc');
    const nodesDir = join(dir, 'hollow');
    await kubeadmInitFiles({ dir: etc, server: 'https://apiserver:6443', serviceCidr: '10.96.0.0/12', nodes: [], kubeProxyConfs: [] });
    const argv = [etc, '--count=2', `--nodes-dir=${nodesDir}`];
    expect(await kubeadmHollowCommand(argv)).toBe(0);
    const ca = new X509Certificate(readFileSync(join(etc, 'pki', 'ca.crt')));
    const conf = loadKubeconfig(join(nodesDir, 'hollow-node-2', 'kubelet.conf'));
    expect(conf.server).toBe('https://apiserver:6443');
    const cert = new X509Certificate(conf.clientCertPem!);
    expect(cert.subject.split('\n').sort()).toEqual(['CN=system:node:hollow-node-2', 'O=system:nodes']);
    expect(cert.verify(ca.publicKey)).toBe(true);
    const bootstrap = loadKubeconfig(join(nodesDir, 'bootstrap-kubelet.conf'));
    expect(bootstrap.token).toMatch(/^[a-z0-9]{6}\.[a-z0-9]{16}$/);
    expect(existsSync(join(nodesDir, 'hollow-node-3'))).toBe(false);
    // A restarted stack keeps the identities.
    expect(await kubeadmHollowCommand(argv)).toBe(0);
    expect(loadKubeconfig(join(nodesDir, 'hollow-node-2', 'kubelet.conf')).clientCertPem).toBe(conf.clientCertPem);
    // A whole PKI's keys are made first: seconds of CPU on a busy two-core machine.
  }, 30_000);

  it('says what is missing when DIR has no CA, and writes nothing', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await kubeadmHollowCommand([join(dir, 'none'), '--count=1', `--nodes-dir=${join(dir, 'x')}`])).toBe(1);
      expect(err).toHaveBeenCalledWith(
        `kubelab kubeadm hollow: pki/ca.crt, pki/ca.key, bootstrap-token.json missing in ${join(dir, 'none')}: run \`kubelab kubeadm init --dir ${join(dir, 'none')}\` first\n`,
      );
    } finally {
      err.mockRestore();
    }
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});
