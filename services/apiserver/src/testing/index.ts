// A real nats-server (TLS and users, as the cluster runs it) plus an in-process apiserver on free loopback ports,
// for this package's tests and for any package that needs an apiserver
// (`@kubelab/apiserver/testing`).

import * as grpc from '@grpc/grpc-js';
import { apiserverProto, type ResourceServiceClient } from '@kubelab/proto';
import { startSecureNatsServer, type SecureNatsServer } from '@kubelab/nats/testing';
import { createLogger } from '@kubelab/component-base';
import { APISERVER_KUBELET_CLIENT } from '@kubelab/pki';
import { TEST_ADMIN, TestPki, type Identity } from '@kubelab/pki/testing';
import { startApiserver, type ApiserverOptions, type RunningApiserver } from '../server.js';
import { httpsRequest, type RestRequest } from './https.js';

/** What a client library needs to reach the test apiserver over mutual TLS. */
export interface TestClientConfig {
  address: string;
  tls: { caPem: string; certPem: string; keyPem: string };
}

export interface TestCluster {
  /** NATS as the cluster runs it: TLS, the apiserver's certificate mapped to its user (issue others with `nats.clientTls`). */
  nats: SecureNatsServer;
  apiserver: RunningApiserver;
  /** `127.0.0.1:<grpcPort>` */
  grpcAddress: string;
  /** The cluster's CA: issue more identities with `pki.client(...)`. */
  pki: TestPki;
  /** Address and credentials of a system:masters member, for createClientset. */
  clientConfig: TestClientConfig;
  /** Address and credentials of another identity (CN = user, O = groups). */
  clientConfigFor(identity: Identity): Promise<TestClientConfig>;
  /** One HTTPS request to the secure port as the admin (or without a client certificate: `as: 'anonymous'`). */
  rest(path: string, opts?: RestRequest): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;
  /** A raw ResourceService client as the admin (callers close it or call cleanup). */
  client(options?: grpc.ClientOptions): ResourceServiceClient;
  /** Stops the apiserver and starts a new one on the same NATS (and bucket). */
  restartApiserver(): Promise<RunningApiserver>;
  cleanup(): Promise<void>;
}

/** A throwaway cluster CA with the apiserver's serving certificate and an admin identity (system:masters). */
export interface ApiserverTestPki {
  pki: TestPki;
  /** ApiserverOptions.tls: serving certificate for 127.0.0.1/localhost and the CA as client CA. */
  tls: { certPem: string; keyPem: string; clientCaPem: string };
  /** ConnectionConfig.tls of the admin. */
  admin: { caPem: string; certPem: string; keyPem: string };
  /** ConnectionConfig.tls of another identity. */
  clientTls(identity: Identity): Promise<{ caPem: string; certPem: string; keyPem: string }>;
  /** ApiserverOptions.kubeletClient: kubeadm's apiserver-kubelet-client identity (kubeadm:cluster-admins). */
  kubeletClient: { certPem: string; keyPem: string };
}

export async function createTestPki(): Promise<ApiserverTestPki> {
  const pki = await TestPki.create();
  const [serving, admin, kubeletClient] = await Promise.all([pki.serving(), pki.client(TEST_ADMIN), pki.client(APISERVER_KUBELET_CLIENT)]);
  return {
    pki,
    kubeletClient: { certPem: kubeletClient.cert, keyPem: kubeletClient.key },
    tls: { certPem: serving.cert, keyPem: serving.key, clientCaPem: pki.caPem },
    admin: { caPem: pki.caPem, certPem: admin.cert, keyPem: admin.key },
    async clientTls(identity) {
      const pair = await pki.client(identity);
      return { caPem: pki.caPem, certPem: pair.cert, keyPem: pair.key };
    },
  };
}

export async function startTestCluster(opts: Partial<ApiserverOptions> = {}): Promise<TestCluster> {
  const nats = await startSecureNatsServer();
  const clients: grpc.Client[] = [];
  const testPki = await createTestPki();
  const { pki } = testPki;
  const admin = { cert: testPki.admin.certPem, key: testPki.admin.keyPem };
  const options = (): ApiserverOptions => ({
    tls: testPki.tls,
    kubeletClient: testPki.kubeletClient,
    natsUrl: nats.url,
    natsTls: nats.apiserverTls,
    bindAddress: '127.0.0.1',
    advertiseAddress: '127.0.0.1',
    securePort: 0,
    grpcPort: 0,
    rest: false,
    // As upstream's integration test servers: no node lifecycle controller here lifts a new Node's not-ready taint.
    disableAdmissionPlugins: ['TaintNodesByCondition'],
    logger: createLogger({ component: 'kube-apiserver', level: (process.env.KUBELAB_TEST_LOG_LEVEL as 'info') ?? 'error' }),
    ...opts,
  });
  let apiserver: RunningApiserver;
  try {
    apiserver = await startApiserver(options());
    await apiserver.ready;
  } catch (e) {
    await nats.dispose();
    throw e;
  }
  const cluster: TestCluster = {
    nats,
    get apiserver() {
      return apiserver;
    },
    get grpcAddress() {
      return `127.0.0.1:${apiserver.grpcPort}`;
    },
    pki,
    get clientConfig() {
      return { address: `127.0.0.1:${apiserver.grpcPort}`, tls: { caPem: pki.caPem, certPem: admin.cert, keyPem: admin.key } };
    },
    async clientConfigFor(identity) {
      return { address: `127.0.0.1:${apiserver.grpcPort}`, tls: await testPki.clientTls(identity) };
    },
    rest(path, opts = {}) {
      const who = opts.as === 'anonymous' ? {} : (opts.as ?? { cert: admin.cert, key: admin.key });
      return httpsRequest(apiserver.restPort, path, pki.caPem, { ...opts, ...who });
    },
    client(options = {}) {
      const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
      const creds = grpc.credentials.createSsl(Buffer.from(pki.caPem), Buffer.from(admin.key), Buffer.from(admin.cert));
      const c = new Ctor(`127.0.0.1:${apiserver.grpcPort}`, creds, {
        'grpc.max_receive_message_length': -1,
        ...options,
      });
      clients.push(c);
      return c;
    },
    async restartApiserver() {
      await apiserver.stop();
      apiserver = await startApiserver(options());
      await apiserver.ready;
      return apiserver;
    },
    async cleanup() {
      for (const c of clients) c.close();
      await apiserver.stop();
      await nats.dispose();
    },
  };
  return cluster;
}

export { api, call, gvr, openWatch, RpcError, rpcError, type CollectedEvent, type Gvr } from './rpc.js';
// The REST handler's tests run on this instead of storage.
export { FakeRegistry } from './fake-registry.js';
export { httpsRequest, type RestRequest } from './https.js';
// The control plane as separate processes, secured as `kubelab up` runs it (the benchmarks).
export { pidOfCommandLine, startProcessCluster, type ApiserverProcess, type ApiserverProcessOptions, type ClientTlsPem, type ProcessCluster, type ProcessClusterOptions } from './processes.js';
