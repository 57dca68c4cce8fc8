// @kubelab/kubelet: the node agent. startKubelet() runs it in-process (the
// local runner and tests); main.ts is the process entry.

import { DIAL_TIMEOUT_MS, NodePartition } from './nodestatus/partition.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SharedInformerFactory, createClientset, newEventBroadcaster, realClock, type ClientTls, type Clientset, registerClientMetrics } from '@kubelab/client';
import { grpcClientInterceptors, type Tracing } from '@kubelab/tracing';
import { ClientCertificateManager } from './certificate/rotation.js';
import { clientsetCsrClient } from './certificate/request.js';
import { CertificateFileStore } from './certificate/store.js';
import { instrumentRuntime } from './kuberuntime/instrumented.js';
import { connectRemoteRuntime } from './kuberuntime/remote.js';
import { Kubelet, type KubeletConfig } from './kubelet.js';
import { newKubeletMetrics } from './metrics/metrics.js';
import { loopbackDialer } from './network/loopback.js';
import { defaultHostname, defaultNodeIP } from './options.js';
import {
  createLogger,
  newMetricsRegistry,
  serveHealth,
  type Logger,
  alwaysAllow,
  WebhookAuthorizer,
  WebhookTokenAuthenticator,
  DEFAULT_AUTHORIZED_TTL_MS,
  DEFAULT_TOKEN_CACHE_TTL_MS,
  DEFAULT_UNAUTHORIZED_TTL_MS,
  reviewClients,
  servingCertificate,
  type Authorizer,
  type ServingCertificate,
} from '@kubelab/component-base';
import type { KubeletAuthOptions } from './server/auth/filter.js';
import { serveKubelet } from './server/server.js';
import { ownTlsFront, type TlsFront } from './server/tls-front.js';
import { DEFAULT_CONTAINER_LOG_MAX_FILES, DEFAULT_CONTAINER_LOG_MAX_SIZE, nodeRootOf } from './kubelet-config.js';
import type { SyncSlots } from './pod-workers.js';

export interface KubeletOptions extends Partial<KubeletConfig> {
  /** gRPC address of the apiserver (`host:port`). */
  apiserver: string;
  /** Mutual TLS to the apiserver (from --kubeconfig); absent: a plain connection. */
  apiserverTls?: ClientTls;
  /** --rotate-certificates: renew the client certificate kept in certDir before it expires (needs apiserverTls). */
  rotateCertificates?: boolean;
  /** --cert-dir (default <root-dir>/pki): the self-signed serving certificate, and kubelet-client-current.pem of TLS bootstrap and rotation. */
  certDir?: string;
  /** `unix:///run/containerd/containerd.sock` */
  containerRuntimeEndpoint?: string;
  /** --runtime-request-timeout: every CRI call's deadline but the long-running ones (upstream's default: 2 minutes). */
  runtimeRequestTimeoutMs?: number;
  /** Bind address of the 10250 server (default 0.0.0.0). */
  address?: string;
  /** 10250 by default; 0 picks a free port. */
  port?: number;
  healthzBindAddress?: string;
  /** 10248 by default; 0 picks a free port; -1 disables it. */
  healthzPort?: number;
  /** --tls-cert-file/--tls-private-key-file as PEM; absent: self-signed in <certDir>/kubelet.{crt,key}. */
  servingTls?: ServingCertificate;
  /** --client-ca-file as PEM: client certificates it signed authenticate as CN/O. */
  clientCaPem?: string;
  /** Where the kubelet API's connections are terminated, when not on a server of its own from servingTls and clientCaPem (hollow nodes share one: SharedTlsFront, made with the same clientCaPem). */
  tlsFront?: TlsFront;
  /** --anonymous-auth (default false, as kubeadm's kubelet configuration). */
  anonymousAuth?: boolean;
  /** --authentication-token-webhook: bearer tokens checked by TokenReview (default true, as kubeadm's). */
  authenticationTokenWebhook?: boolean;
  /** --authorization-mode (default Webhook, as kubeadm's): a SubjectAccessReview per request, or AlwaysAllow. */
  authorizationMode?: AuthorizationMode;
  /** The webhooks' cache TTLs (upstream's defaults: token 2 min, authorized 5 min, unauthorized 30 s). */
  webhookCacheTtlMs?: { token?: number; authorized?: number; unauthorized?: number };
  /** Replaces the authorizer --authorization-mode builds (tests, and embedders with their own policy). */
  authorizer?: Authorizer;
  /** The process_* and nodejs_* metrics in /metrics (default true; false for the many kubelets of one hollow-node process). */
  processMetrics?: boolean;
  /** Sync admission shared by the many kubelets of one hollow-node process (absent: every pod sync starts at once). */
  podSyncSlots?: SyncSlots;
  /** Spans for API and CRI calls and each pod sync (off when absent or disabled). */
  tracing?: Tracing;
  logger?: Logger;
}

export const AUTHORIZATION_MODES = ['Webhook', 'AlwaysAllow'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** The kubelet API's authentication and authorization (upstream BuildAuth), the webhooks asking through the kubelet's clientset. */
export function kubeletAuth(opts: KubeletOptions, nodeName: string, cs: Pick<Clientset, 'resource'>): KubeletAuthOptions {
  const ttl = opts.webhookCacheTtlMs ?? {};
  const reviews = reviewClients(cs);
  const token = (opts.authenticationTokenWebhook ?? true) ? new WebhookTokenAuthenticator(reviews.tokenReviews, ttl.token ?? DEFAULT_TOKEN_CACHE_TTL_MS) : undefined;
  const mode = opts.authorizationMode ?? 'Webhook';
  const authorizer =
    opts.authorizer ??
    (mode === 'AlwaysAllow'
      ? alwaysAllow
      : new WebhookAuthorizer(reviews.subjectAccessReviews, {
          authorizedMs: ttl.authorized ?? DEFAULT_AUTHORIZED_TTL_MS,
          unauthorizedMs: ttl.unauthorized ?? DEFAULT_UNAUTHORIZED_TTL_MS,
        }));
  return { nodeName, authentication: { x509: !!opts.clientCaPem, anonymous: opts.anonymousAuth ?? false, ...(token ? { token } : {}) }, authorizer };
}

export interface RunningKubelet {
  kubelet: Kubelet;
  port: number;
  healthzPort: number;
  stop(): Promise<void>;
}

export async function startKubelet(opts: KubeletOptions): Promise<RunningKubelet> {
  const nodeName = (opts.nodeName || defaultHostname()).toLowerCase();
  const log = opts.logger ?? createLogger({ component: 'kubelet', node: nodeName });
  const rootDir = opts.rootDir ?? '/var/lib/kubelet';
  mkdirSync(rootDir, { recursive: true });
  const podLogsDir = opts.podLogsDir ?? '/var/log/pods';
  mkdirSync(podLogsDir, { recursive: true });

  const tracing = opts.tracing?.enabled ? opts.tracing : undefined;
  // The node cut off from the control plane (kubelab fault node-partition): the apiserver's calls go unanswered while the node's fault state says so.
  const scale = opts.timeScale && opts.timeScale > 0 ? opts.timeScale : 1;
  const partition = new NodePartition(opts.apiserver, DIAL_TIMEOUT_MS / scale);
  const stopPartition = partition.follow(nodeRootOf(opts));
  const interceptors = tracing ? grpcClientInterceptors(tracing) : [];
  // With rotation on, a stored pair newer than the kubeconfig's is the identity in use (upstream's certificate manager prefers its store).
  const certStore = new CertificateFileStore(opts.certDir || join(rootDir, 'pki'));
  const stored = opts.rotateCertificates && opts.apiserverTls ? certStore.current() : undefined;
  const apiserverTls = opts.apiserverTls && stored && Date.now() < stored.notAfter.getTime() ? { ...opts.apiserverTls, certPem: stored.certPem, keyPem: stored.keyPem } : opts.apiserverTls;
  const cs = createClientset({ address: opts.apiserver, component: 'kubelet', interceptors: [partition.interceptor, ...interceptors], ...(apiserverTls ? { tls: apiserverTls } : {}) });
  const rotation =
    opts.rotateCertificates && apiserverTls
      ? new ClientCertificateManager({
          store: certStore,
          nodeName,
          ...(apiserverTls.certPem && apiserverTls.keyPem ? { initialCertPem: apiserverTls.certPem, initialKeyPem: apiserverTls.keyPem } : {}),
          client: clientsetCsrClient(cs),
          clock: realClock,
          log,
          onRotated: (pair) => cs.connection.setTls({ ...apiserverTls, certPem: pair.certPem, keyPem: pair.keyPem }),
        })
      : undefined;
  const informers = new SharedInformerFactory(cs, { logger: log });
  // The recorder's own complaints (a rejected event) are kubelet log lines, as client-go's go through klog.
  const broadcaster = newEventBroadcaster(cs, { logger: log });
  // Upstream kubelet: eventBroadcaster.StartStructuredLogging(3).
  broadcaster.startStructuredLogging(log.v(3));
  const registry = newMetricsRegistry({}, { processMetrics: opts.processMetrics ?? true });
  registerClientMetrics(registry);
  const metrics = newKubeletMetrics(registry);
  // Every CRI call the kubelet makes is counted and timed (kubelet_runtime_operations_*).
  const rt = instrumentRuntime(
    connectRemoteRuntime(opts.containerRuntimeEndpoint ?? 'unix:///run/containerd/containerd.sock', opts.runtimeRequestTimeoutMs, interceptors),
    metrics.observeRuntimeOperation,
  );

  // The kubelet port is known only once bound: bind first, then build the kubelet.
  let kubelet: Kubelet | undefined; // eslint-disable-line prefer-const -- assigned after the server it is handed to is bound
  // A shared front has its own serving pair and client CA: a second pair here would be silently unused.
  if (opts.tlsFront && opts.servingTls) throw new Error("servingTls is the TLS front's: give one or the other");
  const front =
    opts.tlsFront ??
    ownTlsFront({
      ...(await servingCertificate({ ...(opts.servingTls ? { given: opts.servingTls } : {}), certDir: opts.certDir || join(rootDir, 'pki'), pairName: 'kubelet', host: nodeName })),
      ...(opts.clientCaPem ? { clientCaPem: opts.clientCaPem } : {}),
    });
  const server = await serveKubelet(() => kubelet!, {
    host: opts.address ?? '0.0.0.0',
    port: opts.port ?? 10250,
    front,
    auth: kubeletAuth(opts, nodeName, cs),
    metrics: metrics.registry,
    log,
  });
  const config: KubeletConfig = {
    nodeName,
    nodeIP: opts.nodeIP || defaultNodeIP(),
    nodeLabels: opts.nodeLabels ?? {},
    registerWithTaints: opts.registerWithTaints ?? [],
    podManifestPath: opts.podManifestPath ?? '',
    podLogsDir,
    rootDir,
    kubeletPort: server.port,
    maxPods: opts.maxPods ?? 110,
    nodeStatusUpdateFrequencyMs: opts.nodeStatusUpdateFrequencyMs ?? 10_000,
    nodeStatusReportFrequencyMs: opts.nodeStatusReportFrequencyMs ?? 300_000,
    nodeLeaseDurationSeconds: opts.nodeLeaseDurationSeconds ?? 40,
    fileCheckFrequencyMs: opts.fileCheckFrequencyMs ?? 20_000,
    syncFrequencyMs: opts.syncFrequencyMs ?? 60_000,
    configMapAndSecretChangeDetectionStrategy: opts.configMapAndSecretChangeDetectionStrategy ?? 'Watch',
    timeScale: opts.timeScale && opts.timeScale > 0 ? opts.timeScale : 1,
    registerNode: opts.registerNode ?? true,
    featureGates: opts.featureGates ?? {},
    statusSyncPeriodMs: opts.statusSyncPeriodMs ?? 10_000,
    ...(opts.evictionThresholds ? { evictionThresholds: opts.evictionThresholds } : {}),
    evictionPressureTransitionPeriodMs: opts.evictionPressureTransitionPeriodMs ?? 300_000,
    evictionMaxPodGracePeriodSeconds: opts.evictionMaxPodGracePeriodSeconds ?? 0,
    evictionMonitoringPeriodMs: opts.evictionMonitoringPeriodMs ?? 10_000,
    ...(opts.memoryCapacityBytes ? { memoryCapacityBytes: opts.memoryCapacityBytes } : {}),
    containerLogMaxSize: opts.containerLogMaxSize ?? DEFAULT_CONTAINER_LOG_MAX_SIZE,
    containerLogMaxFiles: opts.containerLogMaxFiles ?? DEFAULT_CONTAINER_LOG_MAX_FILES,
    clusterDNS: opts.clusterDNS ?? [],
    clusterDomain: opts.clusterDomain ?? '',
    resolvConf: opts.resolvConf ?? '/etc/resolv.conf',
    ...(opts.nodeRoot ? { nodeRoot: opts.nodeRoot } : {}),
  };
  kubelet = new Kubelet({
    config,
    clientset: cs,
    informers,
    runtime: rt,
    // kubelab's runtime in loopback mode serves pod ports on 127.0.0.1: probes and hooks ask it where.
    dialTarget: loopbackDialer(rt),
    broadcaster,
    log,
    metrics,
    ...(tracing ? { tracing } : {}),
    ...(opts.podSyncSlots ? { podSyncSlots: opts.podSyncSlots } : {}),
  });
  let healthz: { port: number; close(): Promise<void> } | undefined;
  if ((opts.healthzPort ?? 10248) >= 0) {
    healthz = await serveHealth({
      host: opts.healthzBindAddress ?? '127.0.0.1',
      port: opts.healthzPort ?? 10248,
      livez: { ping: () => true, syncloop: () => kubelet!.pleg.healthy().ok },
    });
  }
  await kubelet.start();
  rotation?.start();
  log.info('kubelet serving', { port: server.port, healthzPort: healthz?.port ?? -1, node: nodeName });
  let stopped = false;
  return {
    kubelet,
    port: server.port,
    healthzPort: healthz?.port ?? -1,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      rotation?.stop();
      stopPartition();
      await kubelet!.stop();
      await kubelet!.statusManager.whenIdle();
      await informers.shutdown();
      await broadcaster.shutdown();
      await server.close();
      await healthz?.close();
      rt.close();
      cs.close();
    },
  };
}

export { Kubelet, KUBELET_VERSION, type KubeletConfig } from './kubelet.js';
export { SharedTlsFront, type TlsFront } from './server/tls-front.js';
export { SyncSlots } from './pod-workers.js';
export { kubeletFlags, parseLabels } from './options.js';
export { loadClientCert, kubeconfigStillValid } from './certificate/bootstrap.js';
export { nextRotationDeadline } from './certificate/rotation.js';
export { generateAPIPodStatus, getPhase, podConditions } from './status/generate.js';
export { computePodActions } from './kuberuntime/actions.js';
export { buildNodeStatus, runtimeErrors, readyCondition } from './nodestatus/setters.js';
export { parseThresholdConfig, DEFAULT_EVICTION_HARD } from './eviction/thresholds.js';
export { parseCriLog } from './server/logs.js';
