// The cluster's nats-server as configured by natsServerConfig, against real
// clients: who gets in, and what each identity may publish, subscribe and read.

import { once } from 'node:events';
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm, KvWatchInclude, type KV } from '@nats-io/kv';
import { TestPki } from '@kubelab/pki/testing';
import { requireTool } from '@kubelab/testing';
import { criSubject } from '@kubelab/proto/cri-record';
import { proxySubject } from '@kubelab/proto/proxy-record';
import {
  ADMIN_NATS_IDENTITY,
  APISERVER_NATS_IDENTITY,
  TRACE_NATS_IDENTITY,
  containerdNatsIdentity,
  kubeProxyNatsIdentity,
  natsAuthOptions,
  type NatsClientTls,
  type NatsIdentity,
} from '../src/index.js';
import { startSecureNatsServer, type SecureNatsServer } from '../src/testing.js';

requireTool('nats-server');

let nats: SecureNatsServer;
const open: NatsConnection[] = [];

async function as(identity: NatsIdentity, tls?: NatsClientTls): Promise<NatsConnection> {
  const nc = await connect({ servers: nats.url, timeout: 5000, maxReconnectAttempts: 0, ...natsAuthOptions(identity, tls ?? (await nats.clientTls(identity))) });
  open.push(nc);
  return nc;
}

/** The asynchronous errors the server sent this connection (permission violations arrive this way). */
function serverErrors(nc: NatsConnection): string[] {
  const seen: string[] = [];
  void (async () => {
    for await (const s of nc.status()) if (s.type === 'error') seen.push(String((s as { error?: unknown }).error));
  })();
  return seen;
}

let apiKv: KV;

/**
 * How the server ends a TLS handshake (nats-server sends its INFO line in
 * the clear, then the client starts TLS): nats.js reports a refused client
 * certificate only as a timeout, so this reads the TLS alert itself.
 */
async function handshake(tls: { ca: string; cert?: string; key?: string }): Promise<string> {
  const sock = tcpConnect(nats.port, '127.0.0.1');
  await once(sock, 'data');
  const t = tlsConnect({ socket: sock, servername: 'localhost', ...tls });
  t.write('CONNECT {"verbose":false}\r\nPING\r\n');
  return new Promise((resolve) => {
    t.once('error', (e) => resolve(e.message));
    t.once('data', (d: Buffer) => resolve(d.toString().trim()));
  }).finally(() => t.destroy()) as Promise<string>;
}

beforeAll(async () => {
  nats = await startSecureNatsServer({ nodes: ['node-1', 'node-2'] });
  const api = await as(APISERVER_NATS_IDENTITY, nats.apiserverTls);
  apiKv = await new Kvm(jetstream(api)).create('kubelab', { history: 1 });
  await apiKv.put('/registry/secrets/default/db', 'k8s:enc:aescbc:v1:key1:xxxx');
}, 60_000);

afterAll(async () => {
  for (const nc of open) await nc.close().catch(() => {});
  await nats?.dispose();
});

describe('who connects', () => {
  // Go's TLS stack answers both with alert 42; the server logs why
  // ("client didn't provide a certificate", "certificate signed by unknown authority").
  it('refuses a client without a certificate at the TLS handshake (as etcd with --client-cert-auth)', async () => {
    expect(await handshake({ ca: nats.caPem })).toMatch(/alert bad certificate/);
    await expect(connect({ servers: nats.url, timeout: 2000, maxReconnectAttempts: 0, tls: { ca: nats.caPem } })).rejects.toThrow();
  });

  it('refuses a certificate from another CA', async () => {
    const other = await TestPki.create('etcd-ca');
    const pair = await other.client({ commonName: APISERVER_NATS_IDENTITY.commonName });
    expect(await handshake({ ca: nats.caPem, cert: pair.cert, key: pair.key })).toMatch(/alert bad certificate/);
  });

  it('lets a certificate of the CA through the handshake', async () => {
    const tls = await nats.clientTls(TRACE_NATS_IDENTITY);
    expect(await handshake({ ca: nats.caPem, cert: tls.certPem!, key: tls.keyPem! })).toBe('PONG');
  });

  it('refuses a client that does not speak TLS', async () => {
    await expect(connect({ servers: nats.url, timeout: 2000, maxReconnectAttempts: 0 })).rejects.toThrow('unable to verify the first certificate');
  });

  it('answers a certificate of the CA that names no user with Authorization Violation', async () => {
    const pair = await nats.pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] });
    await expect(connect({ servers: nats.url, timeout: 5000, maxReconnectAttempts: 0, tls: { ca: nats.caPem, cert: pair.cert, key: pair.key } })).rejects.toThrow('Authorization Violation');
  });
});

describe('containerd of node-1', () => {
  it("publishes node-1's records, not node-2's", async () => {
    const reader = await as(TRACE_NATS_IDENTITY);
    const sub = reader.subscribe('kubelab.cri.>', { max: 1 });
    await reader.flush();
    const nc = await as(containerdNatsIdentity('node-1'));
    const errors = serverErrors(nc);
    nc.publish(criSubject('node-2', 'RunPodSandbox'), 'forged');
    nc.publish(criSubject('node-1', 'RunPodSandbox'), 'real');
    await nc.flush();
    for await (const m of sub) expect(m.subject).toBe('kubelab.cri.node-1.RunPodSandbox');
    expect(errors).toEqual(['PermissionViolationError: Permissions Violation for Publish to "kubelab.cri.node-2.RunPodSandbox"']);
  });

  it('cannot read the object store', async () => {
    const nc = await as(containerdNatsIdentity('node-1'));
    await expect(new Kvm(jetstream(nc, { timeout: 2000 })).open('kubelab').then((kv) => kv.get('/registry/secrets/default/db'))).rejects.toThrow(/Permissions Violation for Subscription|timeout/);
  });
});

describe('kube-proxy of node-1', () => {
  it("publishes node-1's sync records, not node-2's nor CRI records; the trace viewer reads them", async () => {
    const reader = await as(TRACE_NATS_IDENTITY);
    const sub = reader.subscribe('kubelab.proxy.>', { max: 1 });
    await reader.flush();
    const nc = await as(kubeProxyNatsIdentity('node-1'));
    const errors = serverErrors(nc);
    nc.publish(proxySubject('node-2'), 'forged');
    nc.publish(criSubject('node-1', 'RunPodSandbox'), 'forged');
    nc.publish(proxySubject('node-1'), 'real');
    await nc.flush();
    for await (const m of sub) expect([m.subject, m.string()]).toEqual(['kubelab.proxy.node-1', 'real']);
    await expect
      .poll(() => errors)
      .toEqual([
        'PermissionViolationError: Permissions Violation for Publish to "kubelab.proxy.node-2"',
        'PermissionViolationError: Permissions Violation for Publish to "kubelab.cri.node-1.RunPodSandbox"',
      ]);
  });
});

describe('the trace viewer', () => {
  it('cannot publish records', async () => {
    const nc = await as(TRACE_NATS_IDENTITY);
    const errors = serverErrors(nc);
    nc.publish(criSubject('node-1', 'RunPodSandbox'), 'forged');
    await nc.flush();
    await expect.poll(() => errors).toEqual(['PermissionViolationError: Permissions Violation for Publish to "kubelab.cri.node-1.RunPodSandbox"']);
  });

  it('cannot read the KV bucket', async () => {
    const nc = await as(TRACE_NATS_IDENTITY);
    await expect(new Kvm(jetstream(nc, { timeout: 2000 })).open('kubelab').then((kv) => kv.status())).rejects.toThrow(
      /Permissions Violation for Publish to "\$JS\.API\.STREAM\.INFO\.KV_kubelab"|timeout/,
    );
  });

  it("cannot listen on the apiserver's replies", async () => {
    const nc = await as(TRACE_NATS_IDENTITY);
    const sub = nc.subscribe('_INBOX.kube-apiserver.>');
    // nats.js ends a refused subscription with the server's error.
    expect(String(await sub.closed)).toBe('PermissionViolationError: Permissions Violation for Subscription to "_INBOX.kube-apiserver.>"');
  });
});

describe('the admin (kubelab kv)', () => {
  it('reads the bucket but cannot write keys directly', async () => {
    const nc = await as(ADMIN_NATS_IDENTITY);
    const kv = await new Kvm(jetstream(nc, { timeout: 3000 })).open('kubelab');
    expect((await kv.get('/registry/secrets/default/db'))?.string()).toBe('k8s:enc:aescbc:v1:key1:xxxx');
    const keys: string[] = [];
    for await (const k of await kv.keys()) keys.push(k);
    expect(keys).toEqual(['/registry/secrets/default/db']);
    await expect(kv.put('/registry/secrets/default/db', 'forged')).rejects.toThrow(/Permissions Violation for Publish to "\$KV\.kubelab\./);
  });
});

describe('the apiserver', () => {
  it('writes with compare-and-swap and watches its bucket', async () => {
    const rev = await apiKv.create('/registry/pods/default/web', '{}');
    await expect(apiKv.update('/registry/pods/default/web', '{"a":1}', rev)).resolves.toBeGreaterThan(rev);
    const w = await apiKv.watch({ include: KvWatchInclude.UpdatesOnly });
    await apiKv.put('/registry/pods/default/web', '{"a":2}');
    for await (const e of w) {
      expect([e.key, e.string()]).toEqual(['/registry/pods/default/web', '{"a":2}']);
      break;
    }
  });
});
