// `pnpm kubelab kv` against a real nats-server: the built CLI prints the
// stored bytes as etcdctl get does (key line, value, newline) and as
// `| hexdump -C` shows them with --hex.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { requireTool, startNatsServer, type NatsServerHandle } from '@kubelab/testing';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

function kubelab(...args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { encoding: 'buffer', timeout: 20_000, env: { ...process.env, INIT_CWD: '/nonexistent' } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr: stderr.toString() });
    });
  });
}

describe.runIf(requireTool('nats-server'))('kubelab kv', () => {
  let nats: NatsServerHandle;
  let nc: NatsConnection;
  const encrypted = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), Buffer.from([0x8a, 0x00, 0x0a, 0xff, 0x10])]);

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    const kv = await new Kvm(jetstream(nc)).create('kubelab', { history: 1 });
    await kv.put('/registry/secrets/default/db', encrypted);
    await kv.put('/registry/configmaps/default/settings', '{"kind":"ConfigMap"}');
    await kv.put('/registry/secrets/kube-system/gone', '{}');
    await kv.delete('/registry/secrets/kube-system/gone');
  });
  afterAll(async () => {
    await nc?.close();
    await nats?.dispose();
  });

  it('get prints the key line and the stored bytes unchanged', async () => {
    const r = await kubelab('kv', 'get', '/registry/secrets/default/db', `--nats-url=${nats.url}`);
    expect(r.code).toBe(0);
    expect(r.stdout).toEqual(Buffer.concat([Buffer.from('/registry/secrets/default/db\n'), encrypted, Buffer.from('\n')]));
  });

  it('get --hex prints hexdump -C of the same output', async () => {
    const r = await kubelab('kv', 'get', '/registry/secrets/default/db', '--hex', `--nats-url=${nats.url}`);
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
    for (const key of ['/registry/secrets/default/none', '/registry/secrets/kube-system/gone']) {
      const r = await kubelab('kv', 'get', key, `--nats-url=${nats.url}`);
      expect({ code: r.code, out: r.stdout.toString() }).toEqual({ code: 0, out: '' });
    }
  });

  it('ls lists live keys under a prefix, sorted', async () => {
    const r = await kubelab('kv', 'ls', '/registry/', `--nats-url=${nats.url}`);
    expect(r.stdout.toString()).toBe('/registry/configmaps/default/settings\n/registry/secrets/default/db\n');
    expect((await kubelab('kv', 'ls', '/registry/secrets/', `--nats-url=${nats.url}`)).stdout.toString()).toBe('/registry/secrets/default/db\n');
  });

  it('says what is wrong when the bucket or NATS is not there', async () => {
    const noBucket = await kubelab('kv', 'ls', '--bucket=nope', `--nats-url=${nats.url}`);
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain(`kubelab kv: no KV bucket "nope" on ${nats.url}`);
    const noNats = await kubelab('kv', 'get', '/x', '--nats-url=nats://127.0.0.1:1');
    expect(noNats.code).toBe(1);
    expect(noNats.stderr).toContain('kubelab kv: cannot connect to NATS at nats://127.0.0.1:1');
    expect(noNats.stderr).toContain('is the cluster running?');
  });
});
