// A nats-server as the cluster runs it (TLS, a user per client certificate,
// subject permissions; config.ts) with a throwaway etcd CA, for tests:
// `startSecureNatsServer()` then `clientTls(identity)` per client.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPki } from '@kubelab/pki/testing';
import { startNatsServer, type NatsServerHandle } from '@kubelab/testing';
import type { NatsClientTls } from './client.js';
import { natsServerConfig } from './config.js';
import { APISERVER_NATS_IDENTITY, type NatsIdentity } from './identities.js';

export interface SecureNatsServer extends NatsServerHandle {
  /** The etcd CA's role: clients' certificates come from it. */
  pki: TestPki;
  caPem: string;
  /** TLS (CA and a client certificate) of an identity of this CA. */
  clientTls(identity: NatsIdentity): Promise<NatsClientTls>;
  /** The apiserver's (ApiserverOptions.natsTls), issued once. */
  apiserverTls: NatsClientTls;
}

export interface SecureNatsOptions {
  /** Nodes whose runtime has a user (default node-1, node-2). */
  nodes?: string[];
  bucket?: string;
}

export async function startSecureNatsServer(opts: SecureNatsOptions = {}): Promise<SecureNatsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-nats-tls-'));
  const pki = await TestPki.create('etcd-ca');
  const serving = await pki.serving({ commonName: 'localhost' });
  const certFile = join(dir, 'server.crt');
  const keyFile = join(dir, 'server.key');
  const caFile = join(dir, 'ca.crt');
  writeFileSync(certFile, serving.cert);
  writeFileSync(keyFile, serving.key, { mode: 0o600 });
  writeFileSync(caFile, pki.caPem);
  const storeDir = join(dir, 'js');
  mkdirSync(storeDir);
  const clientTls = async (identity: NatsIdentity): Promise<NatsClientTls> => {
    const pair = await pki.client({ commonName: identity.commonName });
    return { caPem: pki.caPem, certPem: pair.cert, keyPem: pair.key };
  };
  const apiserverTls = await clientTls(APISERVER_NATS_IDENTITY);
  let nats: NatsServerHandle;
  try {
    nats = await startNatsServer({
      storeDir,
      config: ({ port }) =>
        natsServerConfig({
          listen: `127.0.0.1:${port}`,
          storeDir,
          tls: { certFile, keyFile, caFile },
          nodes: opts.nodes ?? ['node-1', 'node-2'],
          // nats-server's default, which suites' over-the-limit cases are sized for.
          maxPayload: '1MB',
          ...(opts.bucket ? { bucket: opts.bucket } : {}),
        }),
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    ...nats,
    pki,
    caPem: pki.caPem,
    clientTls,
    apiserverTls,
    dispose: async () => {
      await nats.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
