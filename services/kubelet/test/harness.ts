// A one-node cluster for integration tests: real nats-server, apiserver,
// mock containerd and kubelet, in-process on free loopback ports with temp
// directories; everything stops and is removed in dispose().

import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event, Pod } from '@kubelab/api';
import { startApiserver, type ApiserverOptions, type RunningApiserver } from '@kubelab/apiserver';
import { createTestPki, type ApiserverTestPki } from '@kubelab/apiserver/testing';
import { createClientset, type ClientTls, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { startContainerd, type ContainerdHandle, type ContainerdOptions } from '@kubelab/containerd';
import { startNatsServer, type NatsServerHandle, type WaitOptions } from '@kubelab/testing';
import { startKubelet, type KubeletOptions, type RunningKubelet } from '../src/index.js';

export const quiet = (component: string) => createLogger({ component, level: (process.env.KUBELAB_TEST_LOG as 'debug') ?? 'error', format: 'text' });

export interface Cluster {
  dir: string;
  nats: NatsServerHandle;
  apiserver: RunningApiserver;
  containerd: ContainerdHandle;
  kubelet: RunningKubelet;
  cs: Clientset;
  nodeName: string;
  /** The kubelet's identity (system:node:node-1 in system:nodes) for ConnectionConfig.tls. */
  kubeletTls: ClientTls;
  /** The cluster CA (the kubelet's --client-ca-file). */
  pki: ApiserverTestPki;
  /** A GET on the kubelet's HTTPS port as the apiserver (apiserver-kubelet-client), another identity, a bearer token, or anonymous. */
  kubeletGet(path: string, as?: KubeletCredential): Promise<{ status: number; text: string }>;
  startKubelet(extra?: Partial<KubeletOptions>): Promise<RunningKubelet>;
  stopKubelet(): Promise<void>;
  stopContainerd(): Promise<void>;
  dispose(): Promise<void>;
}

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

/** Who a kubelet API request is: a client certificate, `Authorization: Bearer <token>`, or no credentials. */
export type KubeletCredential = ClientCertificate | { token: string } | 'anonymous';

/** One HTTPS GET to a kubelet; its self-signed serving certificate is not verified, as the apiserver does not without --kubelet-certificate-authority. */
export function kubeletGet(port: number, path: string, as: KubeletCredential): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const who = as === 'anonymous' ? {} : 'token' in as ? { headers: { authorization: `Bearer ${as.token}` } } : { cert: as.certPem, key: as.keyPem };
    const req = httpsRequest({ host: '127.0.0.1', port, path, rejectUnauthorized: false, agent: false, ...who }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface ClusterOptions {
  apiserver?: Partial<ApiserverOptions>;
  kubelet?: Partial<KubeletOptions>;
  containerd?: Partial<ContainerdOptions>;
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-kubelet-'));
  const nodeName = 'node-1';
  const nats = await startNatsServer();
  const pki = await createTestPki();
  const apiserver = await startApiserver({ natsUrl: nats.url, bindAddress: '127.0.0.1', securePort: 0, grpcPort: 0, logger: quiet('apiserver'), rest: false, tls: pki.tls, ...o.apiserver });
  await apiserver.ready;
  const containerdOpts: ContainerdOptions = {
    nodeName,
    address: join(dir, 'containerd.sock'),
    root: join(dir, 'containerd'),
    healthPort: 0,
    pullBytesPerSecond: 0,
    // As if node IPAM had assigned it: the runtime's network is ready at once.
    podCidr: '10.244.1.0/24',
    logger: quiet('containerd'),
    ...o.containerd,
  };
  const containerd = await startContainerd(containerdOpts);
  const cs = createClientset({ address: `127.0.0.1:${apiserver.grpcPort}`, component: 'kubelet-test', tls: pki.admin });
  const kubeletTls = await pki.clientTls({ commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] });
  const kubeletOpts = (extra: Partial<KubeletOptions> = {}): KubeletOptions => ({
    apiserver: `127.0.0.1:${apiserver.grpcPort}`,
    apiserverTls: kubeletTls,
    nodeName,
    nodeIP: '127.0.0.1',
    containerRuntimeEndpoint: `unix://${containerd.socketPath}`,
    address: '127.0.0.1',
    port: 0,
    healthzPort: 0,
    rootDir: join(dir, 'kubelet'),
    podLogsDir: join(dir, 'pods'),
    // kubeadm's KubeletConfiguration, as both runners set it.
    clusterDNS: ['10.96.0.10'],
    clusterDomain: 'cluster.local',
    nodeStatusUpdateFrequencyMs: 500,
    // kubeadm's kubelet: client certificates from the cluster CA, no anonymous requests, a SubjectAccessReview per request.
    clientCaPem: pki.pki.caPem,
    logger: quiet('kubelet'),
    ...o.kubelet,
    ...extra,
  });
  const c: Cluster = {
    dir,
    nats,
    apiserver,
    containerd,
    kubelet: await startKubelet(kubeletOpts()),
    cs,
    nodeName,
    kubeletTls,
    pki,
    kubeletGet: (path, as = pki.kubeletClient) => kubeletGet(c.kubelet.port, path, as),
    async startKubelet(extra) {
      c.kubelet = await startKubelet(kubeletOpts(extra));
      return c.kubelet;
    },
    async stopKubelet() {
      await c.kubelet.stop();
    },
    async stopContainerd() {
      await c.containerd.stop();
    },
    async dispose() {
      await c.kubelet.stop().catch(() => {});
      cs.close();
      await containerd.stop().catch(() => {});
      await apiserver.stop().catch(() => {});
      await nats.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return c;
}

/** How this suite polls with @kubelab/testing's waitFor unless a test needs longer. */
export const POLL: WaitOptions = { timeoutMs: 10_000, everyMs: 50 };

export function pod(name: string, spec: Partial<NonNullable<Pod['spec']>>, nodeName = 'node-1'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName, containers: [], ...spec },
  };
}

/** Events about one pod, oldest first, as `Reason: message` lines. */
export async function podEvents(cs: Clientset, name: string): Promise<string[]> {
  const list = await cs.core.events('default').list({ fieldSelector: `involvedObject.name=${name}` });
  return (list.items as Event[])
    .filter((e) => e.involvedObject.name === name)
    .sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') || Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.reason}: ${e.message}`);
}
