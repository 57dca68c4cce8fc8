// A real nats-server plus an in-process apiserver on free loopback ports,
// for this package's tests and for any package that needs an apiserver
// (`@kubelab/apiserver/testing`).

import * as grpc from '@grpc/grpc-js';
import { apiserverProto, type ResourceServiceClient } from '@kubelab/proto';
import { startNatsServer, type NatsServerHandle } from '@kubelab/testing';
import { createLogger } from '@kubelab/component-base';
import { startApiserver, type ApiserverOptions, type RunningApiserver } from '../server.js';

export interface TestCluster {
  nats: NatsServerHandle;
  apiserver: RunningApiserver;
  /** `127.0.0.1:<grpcPort>` */
  grpcAddress: string;
  /** A raw ResourceService client (callers close it or call cleanup). */
  client(): ResourceServiceClient;
  /** Stops the apiserver and starts a new one on the same NATS (and bucket). */
  restartApiserver(): Promise<RunningApiserver>;
  cleanup(): Promise<void>;
}

export async function startTestCluster(opts: Partial<ApiserverOptions> = {}): Promise<TestCluster> {
  const nats = await startNatsServer();
  const clients: grpc.Client[] = [];
  const options = (): ApiserverOptions => ({
    natsUrl: nats.url,
    bindAddress: '127.0.0.1',
    advertiseAddress: '127.0.0.1',
    securePort: 0,
    grpcPort: 0,
    rest: false,
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
    client() {
      const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
      const c = new Ctor(`127.0.0.1:${apiserver.grpcPort}`, grpc.credentials.createInsecure(), {
        'grpc.max_receive_message_length': -1,
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
