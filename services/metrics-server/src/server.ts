// The metrics-server process (upstream cmd/metrics-server and pkg/server):
// node and pod informers, the scraper on its --metric-resolution ticker
// feeding the storage, and the HTTPS port an aggregated apiserver serves
// on: requestheader authentication for the front proxy (the aggregator),
// client certificates and TokenReviews for the rest, SubjectAccessReviews
// for authorization, /livez and /readyz, and metrics.k8s.io/v1beta1.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { unauthorized, type ConfigMap, type Node, type Pod } from '@kubelab/api';
import { createClientset, SharedInformerFactory, type ClientTls, type Clientset } from '@kubelab/client';
import {
  authenticateRequest,
  createLogger,
  DEFAULT_APISERVER_GRPC_ADDRESS,
  delegatingAuthorizer,
  forbiddenStatus,
  requestHeaderFromConfigMap,
  requestHeaderUser,
  reviewClients,
  servingCertificate,
  WebhookAuthorizer,
  WebhookTokenAuthenticator,
  type Logger,
  type RequestHeaderConfig,
  type ServingCertificate,
} from '@kubelab/component-base';
import { serveMetricsApi } from './api/handler.js';
import { attributesOf, parseMetricsPath } from './api/request.js';
import { kubeletClient, scrapeNodes, type KubeletClientOptions } from './scrape/scraper.js';
import { MetricsStorage } from './storage/storage.js';

export interface MetricsServerOptions {
  apiserverAddress?: string;
  /** --kubeconfig's identity: the apiserver connection, and the client certificate towards kubelets unless --kubelet-client-certificate is given. */
  apiserverTls?: ClientTls;
  clientset?: Clientset;
  bindAddress?: string;
  /** --secure-port (upstream default 10250; 0 = a free port). */
  securePort?: number;
  servingTls?: ServingCertificate;
  certDir?: string;
  /** --metric-resolution, ms (default 15 s). */
  metricResolutionMs?: number;
  kubelet: Omit<KubeletClientOptions, 'timeoutMs'> & { timeoutMs?: number };
  /** --client-ca-file; else the extension-apiserver-authentication ConfigMap's client-ca-file. */
  clientCaPem?: string;
  /** --requestheader-client-ca-file and friends; else the ConfigMap's. */
  requestHeader?: RequestHeaderConfig;
  logger?: Logger;
}

export interface RunningMetricsServer {
  port: number;
  storage: MetricsStorage;
  stop(): Promise<void>;
}

const EXTENSION_AUTH = 'extension-apiserver-authentication';

/** The ConfigMap the apiserver publishes, waited for while the control plane starts (upstream reads it through its authentication kubeconfig). */
async function extensionAuthentication(cs: Clientset, log: Logger, signal: AbortSignal): Promise<Record<string, string>> {
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      return ((await cs.core.configMaps('kube-system').get(EXTENSION_AUTH)) as ConfigMap).data ?? {};
    } catch (e) {
      if (attempt % 10 === 0) log.warn('Unable to get configmap/extension-apiserver-authentication in kube-system; retrying', { err: (e as Error).message });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return {};
}

function writeBody(res: ServerResponse, code: number, type: string, body: string): void {
  res.writeHead(code, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startMetricsServer(opts: MetricsServerOptions): Promise<RunningMetricsServer> {
  const log = opts.logger ?? createLogger({ component: 'metrics-server' });
  const ownClient = !opts.clientset;
  const cs =
    opts.clientset ?? createClientset({ address: opts.apiserverAddress || DEFAULT_APISERVER_GRPC_ADDRESS, component: 'metrics-server', ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}) });
  const stopping = new AbortController();
  const data = opts.clientCaPem && opts.requestHeader ? {} : await extensionAuthentication(cs, log, stopping.signal);
  const clientCaPem = opts.clientCaPem ?? data['client-ca-file'];
  const requestHeader = opts.requestHeader ?? requestHeaderFromConfigMap(data);

  const factory = new SharedInformerFactory(cs, { logger: log });
  const nodes = factory.core.nodes();
  const pods = factory.core.pods();
  const storage = new MetricsStorage();
  let synced = false;

  const reviews = reviewClients(cs);
  const tokens = new WebhookTokenAuthenticator(reviews.tokenReviews);
  const authorizer = delegatingAuthorizer({ webhook: new WebhookAuthorizer(reviews.subjectAccessReviews) });
  const certificate = await servingCertificate({
    ...(opts.servingTls ? { given: opts.servingTls } : {}),
    certDir: opts.certDir ?? '',
    pairName: 'apiserver',
    host: 'localhost',
    ipAddresses: ['127.0.0.1'],
  });
  const cas = [clientCaPem, requestHeader?.clientCaPem].filter((c): c is string => !!c);
  const api = { storage, nodes: () => nodes.lister().list() as Node[], pods: (ns?: string) => (ns ? pods.lister().namespace(ns).list() : pods.lister().list()) as Pod[], now: Date.now };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://localhost');
    // The front proxy first (its certificate vouches for the headers), then the delegated authenticators.
    const proxied = requestHeader ? requestHeaderUser(req, requestHeader) : undefined;
    const who = proxied instanceof Error ? { error: proxied.message } : proxied ? { user: proxied } : await authenticateRequest(req, { x509: !!clientCaPem, token: tokens, anonymous: true });
    if ('error' in who) {
      log.debug('Unable to authenticate the request', { err: who.error });
      return writeBody(res, 401, 'application/json', `${JSON.stringify(unauthorized().status)}\n`);
    }
    const r = parseMetricsPath(url.pathname);
    const attributes = attributesOf(who.user, req.method ?? 'GET', url.pathname, r);
    let decision;
    try {
      decision = await authorizer.authorize(attributes);
    } catch (e) {
      return writeBody(res, 500, 'text/plain; charset=utf-8', `Internal Server Error: ${JSON.stringify(req.url ?? '/')}: ${(e as Error).message}\n`);
    }
    if (decision.decision !== 'Allow') return writeBody(res, 403, 'application/json', `${JSON.stringify(forbiddenStatus(attributes, decision.reason).status)}\n`);
    if (url.pathname === '/livez' || url.pathname === '/healthz') return writeBody(res, 200, 'text/plain; charset=utf-8', 'ok');
    if (url.pathname === '/readyz') {
      // upstream's readyz: the informers synced and the storage holds a full window.
      const ready = synced && storage.ready();
      return writeBody(res, ready ? 200 : 500, 'text/plain; charset=utf-8', ready ? 'ok' : '[-]metric-storage-ready failed: reason withheld\nreadyz check failed\n');
    }
    serveMetricsApi(r, req.method ?? 'GET', url.searchParams, res, api);
  }

  const server = createServer({ cert: certificate.certPem, key: certificate.keyPem, ...(cas.length ? { ca: cas, requestCert: true } : {}), rejectUnauthorized: false }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error('request failed', { err: (err as Error).message });
      if (!res.headersSent) writeBody(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.securePort ?? 10250, opts.bindAddress ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info('Serving securely', { address: `${opts.bindAddress ?? '0.0.0.0'}:${port}` });

  factory.start();
  const kubelet: KubeletClientOptions = {
    ...opts.kubelet,
    ...(opts.kubelet.certPem ? {} : opts.apiserverTls ? { certPem: opts.apiserverTls.certPem, keyPem: opts.apiserverTls.keyPem } : {}),
    timeoutMs: opts.kubelet.timeoutMs ?? 10_000,
  };
  const client = kubeletClient(kubelet);
  const resolution = opts.metricResolutionMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    round = (async () => {
      const started = Date.now();
      const batches = await scrapeNodes(nodes.lister().list() as Node[], kubelet, client.fetch, Date.now, (node, err) => log.error('Failed to scrape node', { node, err }));
      storage.store(batches);
      log.debug('Scrape finished', { duration: `${Date.now() - started}ms`, nodes: batches.size });
    })().catch((err: unknown) => log.error('scrape failed', { err: (err as Error).message }));
    if (!stopping.signal.aborted) timer = setTimeout(tick, resolution);
  };
  void factory.waitForCacheSync(stopping.signal).then(() => {
    if (stopping.signal.aborted) return;
    synced = true;
    tick();
  });

  return {
    port,
    storage,
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await round;
      client.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await factory.shutdown();
      if (ownClient) cs.close();
    },
  };
}
