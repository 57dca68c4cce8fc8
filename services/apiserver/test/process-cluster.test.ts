// startProcessCluster (@kubelab/apiserver/testing), what the benchmarks run
// on: the built apiserver as its own process, secured as `kubelab up` runs
// it. The benches are not run by CI, so this checks the security they claim
// to measure is really on: no anonymous gRPC, RBAC for a plain user, and a
// bench's raw KV writer confined to its own bucket on the TLS nats-server.

import { existsSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { natsAuthOptions } from '@kubelab/nats';
import { apiserverProto } from '@kubelab/proto';
import { requireTool } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcessCluster, type ProcessCluster } from '../src/testing/index.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

function list(cluster: ProcessCluster, creds: grpc.ChannelCredentials): Promise<grpc.ServiceError | undefined> {
  const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
  const client = new Ctor(cluster.apiserver.address, creds);
  return new Promise((resolve) => client.List({ resource: NAMESPACES }, (err: grpc.ServiceError | null) => (client.close(), resolve(err ?? undefined))));
}

const ssl = (t: { caPem: string; certPem: string; keyPem: string }) => grpc.credentials.createSsl(Buffer.from(t.caPem), Buffer.from(t.keyPem), Buffer.from(t.certPem));

describe.runIf(requireTool('nats-server') && existsSync(new URL('../dist/main.js', import.meta.url)))('startProcessCluster', () => {
  let cluster: ProcessCluster;
  beforeAll(async () => {
    cluster = await startProcessCluster({ nodes: [], kvBuckets: ['bench_raw'] });
  }, 120_000);
  afterAll(async () => {
    const dir = cluster?.dir;
    await cluster?.dispose();
    if (dir) expect(existsSync(dir)).toBe(false);
  });

  it("runs kubelab up's apiserver flags: mutual TLS, Node,RBAC, the etcd client certificate", () => {
    expect(cluster.apiserver.args).toEqual(
      expect.arrayContaining([
        '--authorization-mode=Node,RBAC',
        expect.stringMatching(/^--client-ca-file=.*\/pki\/ca\.crt$/),
        expect.stringMatching(/^--etcd-certfile=.*\/pki\/apiserver-etcd-client\.crt$/),
      ]),
    );
  });

  it('lets the admin list, RBAC refuses a user bound to nothing, and the gRPC port refuses a client without a certificate or a token', async () => {
    expect(await list(cluster, ssl(cluster.adminTls))).toBeUndefined();
    const nobody = await list(cluster, ssl(await cluster.clientTls({ commonName: 'nobody' })));
    expect(nobody?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(nobody?.details).toBe('namespaces is forbidden: User "nobody" cannot list resource "namespaces" in API group "" at the cluster scope');
    const anonymous = await list(cluster, grpc.credentials.createSsl(Buffer.from(cluster.caPem)));
    expect([anonymous?.code, anonymous?.details]).toEqual([grpc.status.UNAUTHENTICATED, 'Unauthorized']);
  });

  it("gives a raw KV writer its own bucket over TLS, and none of the apiserver's", async () => {
    const identity = cluster.kvWriter('bench_raw');
    const nc = await connect({ servers: cluster.nats.url, ...natsAuthOptions(identity, await cluster.natsTls(identity)) });
    try {
      const kvm = new Kvm(jetstream(nc, { timeout: 10_000 }));
      const raw = await kvm.create('bench_raw', { history: 1 });
      expect(await raw.create('/registry/configmaps/bench/a', new TextEncoder().encode('{}'))).toBeGreaterThan(0);
      await expect(kvm.open('kubelab').then((kv) => kv.status())).rejects.toThrow(/Permissions Violation/);
    } finally {
      await nc.close();
    }
  });
});
