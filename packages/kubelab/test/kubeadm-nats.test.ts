// `kubelab kubeadm nats DIR` (the compose stack's NATS phase): from a
// kubeadm PKI in DIR it issues the client certificates and writes a
// nats.conf that a real nats-server runs, with each identity's permissions.

import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DASHBOARD_NATS_IDENTITY, TRACE_NATS_IDENTITY, containerdNatsIdentity, controlSubject, natsAuthOptions, readNatsTls } from '@kubelab/nats';
import { ensureClusterPki } from '@kubelab/pki';
import { freePort, requireTool, startNatsServer, waitFor, type NatsServerHandle } from '@kubelab/testing';
import { startNodeAgents } from '../src/node-control.js';
import { natsClientFiles } from '../src/topology.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const NODE_AGENT = fileURLToPath(new URL('../../../services/node/dist/bin/node-agent.js', import.meta.url));

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

  const run = (...args: string[]) =>
    new Promise<string>((resolve, reject) => execFile(process.execPath, [MAIN, ...args], (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout))));

  const as = async (files: ReturnType<typeof natsClientFiles>, identity: typeof TRACE_NATS_IDENTITY) => {
    const nc = await connect({ servers: nats.url, maxReconnectAttempts: 0, ...natsAuthOptions(identity, readNatsTls(files)) });
    open.push(nc);
    return nc;
  };

  it("says what it wrote, and node-2's runtime publishes records the trace viewer reads", async () => {
    expect(out).toBe(`[nats] Wrote "${join(dir, 'nats.conf')}" and the NATS client certificates (trace, admin, dashboard, containerd and node-agent of node-1, node-2)\n`);
    const viewer = await as(natsClientFiles(dir, 'trace'), TRACE_NATS_IDENTITY);
    const sub = viewer.subscribe('kubelab.cri.>', { max: 1 });
    await viewer.flush();
    const runtime = await as(natsClientFiles(dir, { node: 'node-2' }), containerdNatsIdentity('node-2'));
    runtime.publish('kubelab.cri.node-2.Version', '{}');
    for await (const m of sub) expect(m.subject).toBe('kubelab.cri.node-2.Version');
  });

  it("the dashboard's control requests reach the node's agent only, and no other identity may send them", async () => {
    const asked: string[] = [];
    const agents = await startNodeAgents({
      stateDir: dir,
      natsUrl: nats.url,
      nodes: ['node-1', 'node-2'],
      run: async (node, req) => {
        asked.push(`${node} ${JSON.stringify(req)}`);
        return { ok: true, output: `${node} did it\n` };
      },
    });
    try {
      const dashboard = await as(natsClientFiles(dir, 'dashboard'), DASHBOARD_NATS_IDENTITY);
      const reply = await dashboard.request(controlSubject('node-1'), JSON.stringify({ action: 'stop', unit: 'kubelet' }), { timeout: 5000 });
      expect(JSON.parse(reply.string())).toEqual({ ok: true, output: 'node-1 did it\n' });
      const refused = await dashboard.request(controlSubject('node-2'), JSON.stringify({ action: 'stop', unit: 'sshd' }), { timeout: 5000 });
      expect(JSON.parse(refused.string())).toEqual({ ok: false, output: expect.stringContaining('refused: unit: one of kubelet') });
      expect(asked).toEqual(['node-1 {"action":"stop","unit":"kubelet"}']);
      // The trace viewer (read-only) may not publish there: the server refuses, no agent hears it.
      const viewer = await as(natsClientFiles(dir, 'trace'), TRACE_NATS_IDENTITY);
      await expect(viewer.request(controlSubject('node-1'), JSON.stringify({ action: 'stop', unit: 'kubelet' }), { timeout: 2000 })).rejects.toThrow();
      expect(asked).toHaveLength(1);
    } finally {
      await agents.close();
    }
  });

  it("a compose node's node-agent answers with that node's systemctl, as kubelab:node-agent:<node>", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kubelab-node-root-'));
    const files = natsClientFiles(dir, { agent: 'node-2' });
    const agent = spawn(process.execPath, [NODE_AGENT], {
      env: {
        ...process.env,
        KUBELAB_NODE_ROOT: root,
        KUBELAB_NODE_NAME: 'node-2',
        KUBELAB_NODE_AGENT_NATS_URL: nats.url,
        KUBELAB_NODE_AGENT_CA_FILE: files.caFile,
        KUBELAB_NODE_AGENT_CERT_FILE: files.certFile,
        KUBELAB_NODE_AGENT_KEY_FILE: files.keyFile,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    agent.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    try {
      await waitFor('node-agent connected', async () => (log.includes('answering kubelab.control.node-2') ? true : undefined), { timeoutMs: 20_000 });
      const dashboard = await as(natsClientFiles(dir, 'dashboard'), DASHBOARD_NATS_IDENTITY);
      const reply = await dashboard.request(controlSubject('node-2'), JSON.stringify({ action: 'stop', unit: 'kubelet' }), { timeout: 10_000 });
      // This node root has no units: systemctl's own answer.
      expect(JSON.parse(reply.string())).toEqual({ ok: false, output: 'Failed to stop kubelet.service: Unit kubelet.service not loaded.\n' });
    } finally {
      agent.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("as compose runs it: each node's certificate and the etcd CA in that node's folder, nats.conf where nats-server reads it", async () => {
    const nodesDir = join(dir, 'volumes');
    const config = join(dir, 'etc-nats', 'nats.conf');
    await run('kubeadm', 'nats', dir, '--nodes=node-3', `--nodes-dir=${nodesDir}`, `--config=${config}`);
    expect(readFileSync(config, 'utf8')).toContain(`cert_file: "${join(dir, 'pki/etcd/server.crt')}"`);
    // The node's /etc/kubernetes: its runtime's pair and the CA it verifies NATS with.
    const node3 = {
      caFile: join(nodesDir, 'node-3/pki/etcd/ca.crt'),
      certFile: join(nodesDir, 'node-3/pki/containerd-nats-client.crt'),
      keyFile: join(nodesDir, 'node-3/pki/containerd-nats-client.key'),
    };
    expect(readFileSync(node3.caFile, 'utf8')).toBe(readFileSync(join(dir, 'pki/etcd/ca.crt'), 'utf8'));
    expect((statSync(node3.keyFile).mode & 0o777).toString(8)).toBe('600');
    expect(existsSync(join(dir, 'nodes/node-3'))).toBe(false);
    // Accepted by the running server (it maps CN kubelab:containerd:node-3 to no user: not in its --nodes).
    await expect(connect({ servers: nats.url, maxReconnectAttempts: 0, timeout: 5000, ...natsAuthOptions(containerdNatsIdentity('node-3'), readNatsTls(node3)) })).rejects.toThrow(
      'Authorization Violation',
    );
  });

  it("admin-kubeconfig --nats-url: the host's trace identity and cluster.json, which `kubelab trace --state-dir` uses", async () => {
    const host = join(dir, 'host');
    writeFileSync(join(dir, 'admin.conf'), 'clusters: [{cluster: {server: https://apiserver:6443}, name: kubernetes}]\n');
    const out = await run('kubeadm', 'admin-kubeconfig', `--from=${join(dir, 'admin.conf')}`, '--server=https://127.0.0.1:16443', `--nats-url=${nats.url}`, join(host, 'kubeconfig'));
    expect(out).toContain(`[trace] Wrote the trace identity and cluster.json in "${host}" for ${nats.url}`);
    expect(JSON.parse(readFileSync(join(host, 'cluster.json'), 'utf8'))).toEqual({ natsUrl: nats.url, server: 'https://127.0.0.1:16443' });
    expect((statSync(join(host, 'pki/etcd/trace-client.key')).mode & 0o777).toString(8)).toBe('600');
    expect(existsSync(join(host, 'pki/etcd/admin-client.key'))).toBe(false);
    const viewer = await as(natsClientFiles(host, 'trace'), TRACE_NATS_IDENTITY);
    const sub = viewer.subscribe('kubelab.cri.>', { max: 1 });
    await viewer.flush();
    const runtime = await as(natsClientFiles(dir, { node: 'node-1' }), containerdNatsIdentity('node-1'));
    runtime.publish('kubelab.cri.node-1.Version', '{}');
    for await (const m of sub) expect(m.subject).toBe('kubelab.cri.node-1.Version');
  });

  it('cri-stream: the admin creates the stream `kubelab trace --since` reads, once', async () => {
    expect(await run('kubeadm', 'cri-stream', dir, `--nats-url=${nats.url}`)).toBe(`[cri-stream] Created stream "KUBELAB_CRI" on ${nats.url}: the CRI calls \`kubelab trace --since\` replays\n`);
    expect(await run('kubeadm', 'cri-stream', dir, `--nats-url=${nats.url}`)).toMatch(/^\[cri-stream\] Using existing stream "KUBELAB_CRI"/);
  });

  it('keeps the certificates it issued when run again', async () => {
    const cert = natsClientFiles(dir, { node: 'node-1' }).certFile;
    const before = readFileSync(cert, 'utf8');
    await new Promise<void>((resolve, reject) => execFile(process.execPath, [MAIN, 'kubeadm', 'nats', dir, '--nodes', 'node-1'], (err) => (err ? reject(err) : resolve())));
    expect(readFileSync(cert, 'utf8')).toBe(before);
  });
});
