// `pnpm kubelab kv` against a real nats-server secured as `kubelab up` runs
// it: the built CLI finds the admin certificate in the state dir and prints
// the stored bytes as etcdctl get does (key line, value, newline) and as
// `| hexdump -C` shows them with --hex.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { requireTool } from '@kubelab/testing';
import { ADMIN_NATS_IDENTITY, APISERVER_NATS_IDENTITY, TRACE_NATS_IDENTITY, natsAuthOptions } from '@kubelab/nats';
import { startSecureNatsServer, type SecureNatsServer } from '@kubelab/nats/testing';
import { natsClientFiles } from '../src/topology.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

// Every case starts the CLI: ~0.7 s of CPU (mostly loading its modules), which on two
// cores shared with a dozen busy processes takes 5–10 s of wall time. Nothing here is
// timed, so the bounds are the slowest machine's, and a case's independent runs go
// side by side (each process gets its own share of a contended CPU).
const CLI_TIMEOUT_MS = 60_000;

function kubelab(...args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { encoding: 'buffer', timeout: CLI_TIMEOUT_MS, env: { ...process.env, INIT_CWD: '/nonexistent' } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr: stderr.toString() });
    });
  });
}

describe.runIf(requireTool('nats-server'))('kubelab kv', { timeout: 2 * CLI_TIMEOUT_MS }, () => {
  let nats: SecureNatsServer;
  let nc: NatsConnection;
  const stateDir = mkdtempSync(join(tmpdir(), 'kubelab-kv-'));
  const at = `--state-dir=${stateDir}`;
  const encrypted = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), Buffer.from([0x8a, 0x00, 0x0a, 0xff, 0x10])]);

  beforeAll(async () => {
    nats = await startSecureNatsServer();
    // The state dir as `kubelab up` leaves it: cluster.json and the admin's certificate of the etcd CA.
    const files = natsClientFiles(stateDir, 'admin');
    const admin = await nats.clientTls(ADMIN_NATS_IDENTITY);
    mkdirSync(join(stateDir, 'pki/etcd'), { recursive: true });
    writeFileSync(files.caFile, nats.caPem);
    writeFileSync(files.certFile, admin.certPem!);
    writeFileSync(files.keyFile, admin.keyPem!);
    writeFileSync(join(stateDir, 'cluster.json'), JSON.stringify({ natsUrl: nats.url }));
    nc = await connect({ servers: nats.url, ...natsAuthOptions(APISERVER_NATS_IDENTITY, nats.apiserverTls) });
    const kv = await new Kvm(jetstream(nc)).create('kubelab', { history: 1 });
    await kv.put('/registry/secrets/default/db', encrypted);
    await kv.put('/registry/configmaps/default/settings', '{"kind":"ConfigMap"}');
    await kv.put('/registry/secrets/kube-system/gone', '{}');
    await kv.delete('/registry/secrets/kube-system/gone');
  }, CLI_TIMEOUT_MS);
  afterAll(async () => {
    await nc?.close();
    await nats?.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  }, CLI_TIMEOUT_MS);

  it('get prints the key line and the stored bytes unchanged', async () => {
    const r = await kubelab('kv', 'get', '/registry/secrets/default/db', at);
    expect(r.code).toBe(0);
    expect(r.stdout).toEqual(Buffer.concat([Buffer.from('/registry/secrets/default/db\n'), encrypted, Buffer.from('\n')]));
  });

  it('get --hex prints hexdump -C of the same output', async () => {
    const r = await kubelab('kv', 'get', '/registry/secrets/default/db', '--hex', at);
    expect(r.stdout.toString()).toBe(
      [
        '00000000  2f 72 65 67 69 73 74 72  79 2f 73 65 63 72 65 74  |/registry/secret|',
        '00000010  73 2f 64 65 66 61 75 6c  74 2f 64 62 0a 6b 38 73  |s/default/db.k8s|',
        '00000020  3a 65 6e 63 3a 61 65 73  63 62 63 3a 76 31 3a 6b  |:enc:aescbc:v1:k|',
        '00000030  65 79 31 3a 8a 00 0a ff  10 0a                    |ey1:......|',
        '0000003a',
        '',
      ].join('\n'),
    );
  });

  it('get of a missing or deleted key prints nothing, as etcdctl', async () => {
    const runs = await Promise.all(['/registry/secrets/default/none', '/registry/secrets/kube-system/gone'].map((key) => kubelab('kv', 'get', key, at)));
    for (const r of runs) expect({ code: r.code, out: r.stdout.toString() }).toEqual({ code: 0, out: '' });
  });

  it('ls lists live keys under a prefix, sorted', async () => {
    const [all, secrets] = await Promise.all([kubelab('kv', 'ls', '/registry/', at), kubelab('kv', 'ls', '/registry/secrets/', at)]);
    expect(all.stdout.toString()).toBe('/registry/configmaps/default/settings\n/registry/secrets/default/db\n');
    expect(secrets.stdout.toString()).toBe('/registry/secrets/default/db\n');
  });

  it('says what is wrong when the bucket or NATS is not there', async () => {
    const [noBucket, noNats] = await Promise.all([kubelab('kv', 'ls', '--bucket=nope', at), kubelab('kv', 'get', '/x', at, '--nats-url=nats://127.0.0.1:1')]);
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain(`kubelab kv: no KV bucket "nope" on ${nats.url}`);
    expect(noNats.code).toBe(1);
    expect(noNats.stderr).toContain('kubelab kv: cannot connect to NATS at nats://127.0.0.1:1');
    expect(noNats.stderr).toContain('is the cluster running?');
  });

  it("is refused without a certificate, and the trace viewer's cannot read the bucket", async () => {
    const trace = natsClientFiles(stateDir, 'trace');
    const tls = await nats.clientTls(TRACE_NATS_IDENTITY);
    writeFileSync(trace.certFile, tls.certPem!);
    writeFileSync(trace.keyFile, tls.keyPem!);
    const [anonymous, r] = await Promise.all([
      kubelab('kv', 'get', '/registry/secrets/default/db', `--nats-url=${nats.url}`),
      kubelab('kv', 'get', '/registry/secrets/default/db', at, `--nats-ca-file=${trace.caFile}`, `--nats-cert-file=${trace.certFile}`, `--nats-key-file=${trace.keyFile}`),
    ]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain(`kubelab kv: cannot connect to NATS at ${nats.url}`);
    expect(r.code).toBe(1);
    // The server refuses the first thing it may not do: listening on the admin's replies.
    expect(r.stderr).toContain(`kubelab kv: no KV bucket "kubelab" on ${nats.url}: Permissions Violation for Subscription to "_INBOX.kubelab-admin.`);
  });
});
