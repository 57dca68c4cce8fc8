// `kubelab kubeadm nats DIR` (the compose stack's NATS phase): from a
// kubeadm PKI in DIR it issues the client certificates and writes a
// nats.conf that a real nats-server runs, with each identity's permissions.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { TRACE_NATS_IDENTITY, containerdNatsIdentity, natsAuthOptions, readNatsTls } from '@kubelab/nats';
import { ensureClusterPki } from '@kubelab/pki';
import { freePort, requireTool, startNatsServer, type NatsServerHandle } from '@kubelab/testing';
import { natsClientFiles } from '../src/topology.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe.runIf(requireTool('nats-server'))('kubelab kubeadm nats', { timeout: 30_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-kubeadm-nats-'));
  let nats: NatsServerHandle;
  let out: string;
  const open: NatsConnection[] = [];

  beforeAll(async () => {
    await ensureClusterPki({ dir, server: 'https://127.0.0.1:6443', serviceIp: '10.96.0.1', etcdDnsNames: ['nats'], algorithm: 'ECDSA-P256' });
    const port = await freePort();
    out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [MAIN, 'kubeadm', 'nats', dir, '--nodes', 'node-1,node-2', `--listen=127.0.0.1:${port}`, '--monitor=', `--store-dir=${join(dir, 'js')}`], (err, stdout, stderr) =>
        err ? reject(new Error(stderr)) : resolve(stdout),
      ),
    );
    nats = await startNatsServer({ port, storeDir: join(dir, 'js'), config: () => readFileSync(join(dir, 'nats.conf'), 'utf8') });
  }, 60_000);

  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => {});
    await nats?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const as = async (files: ReturnType<typeof natsClientFiles>, identity: typeof TRACE_NATS_IDENTITY) => {
    const nc = await connect({ servers: nats.url, maxReconnectAttempts: 0, ...natsAuthOptions(identity, readNatsTls(files)) });
    open.push(nc);
    return nc;
  };

  it("says what it wrote, and node-2's runtime publishes records the trace viewer reads", async () => {
    expect(out).toBe(`[nats] Wrote "${join(dir, 'nats.conf')}" and the NATS client certificates (trace, admin, containerd of node-1, node-2)\n`);
    const viewer = await as(natsClientFiles(dir, 'trace'), TRACE_NATS_IDENTITY);
    const sub = viewer.subscribe('kubelab.cri.>', { max: 1 });
    await viewer.flush();
    const runtime = await as(natsClientFiles(dir, { node: 'node-2' }), containerdNatsIdentity('node-2'));
    runtime.publish('kubelab.cri.node-2.Version', '{}');
    for await (const m of sub) expect(m.subject).toBe('kubelab.cri.node-2.Version');
  });

  it('keeps the certificates it issued when run again', async () => {
    const cert = natsClientFiles(dir, { node: 'node-1' }).certFile;
    const before = readFileSync(cert, 'utf8');
    await new Promise<void>((resolve, reject) => execFile(process.execPath, [MAIN, 'kubeadm', 'nats', dir, '--nodes', 'node-1'], (err) => (err ? reject(err) : resolve())));
    expect(readFileSync(cert, 'utf8')).toBe(before);
  });
});
