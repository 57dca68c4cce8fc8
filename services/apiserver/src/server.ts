// Wires the apiserver together: NATS KV storage, the watch cache, the
// registry with its admission chain, the gRPC API, and the secure-port HTTP
// server (health, metrics, REST).

import { apiRecordSubject, encodeApiWriteRecord } from '@kubelab/proto/api-record';
import { networkInterfaces } from 'node:os';
import { formatIpv4, joinHostPort, lookupResource, storageKey, storagePrefix, type KubeObject, type ServiceAccount } from '@kubelab/api';
import { createLogger, type Logger } from '@kubelab/component-base';
import type { Tracing } from '@kubelab/tracing';
import { AdmissionChain } from './admission/chain.js';
import type { AdmissionPlugin } from './admission/types.js';
import { defaultTolerationSeconds } from './admission/default-toleration-seconds.js';
import { taintNodesByCondition } from './admission/taint-nodes-by-condition.js';
import { defaultStorageClass, storageObjectInUseProtection } from './admission/storage.js';
import { defaultIngressClassPlugin } from './admission/default-ingress-class.js';
import { parseCidr, parsePortRange } from './admission/ipalloc.js';
import { namespaceLifecycle } from './admission/namespace-lifecycle.js';
import { priorityAdmission, priorityClassesFromCache } from './admission/priority.js';
import { limitRanger, limitRangesFromCache } from './admission/limit-ranger.js';
import { quotasFromCache, resourceQuota } from './admission/resource-quota.js';
import { serviceAccount } from './admission/service-account.js';
import type { AnonymousAuth } from './authentication/config.js';
import { ServiceAllocator } from './admission/service-allocation.js';
import { nodeRestriction } from './admission/node-restriction.js';
import { certificateApproval, certificateSigning, certificateSubjectRestriction } from './admission/certificates.js';
import { authorizeRequest } from './authorization/filter.js';
import { FlowControl } from './flowcontrol/flow-control.js';
import { admitRequest } from './flowcontrol/filter.js';
import { FlowControlConfigController } from './flowcontrol/config-controller.js';
import { APISERVER } from './authentication/user.js';
import { BUILTIN_AUTHORIZER_FACTORIES, buildAuthorization, DEFAULT_AUTHORIZATION_MODES, validateAuthorizationModes, type AuthorizerFactory } from './authorization/modes.js';
import { nodeAuthorizerFactory } from './authorization/node/index.js';
import { bootstrap } from './bootstrap.js';
import { EndpointReconciler, type EndpointReconcilerType } from './reconcilers/endpoints.js';
import { MASTER_LEASES_PREFIX } from './reconcilers/master-leases.js';
import { cacheTokenGetter } from './authentication/serviceaccount/getter.js';
import type { TokenAuthenticator } from './authentication/token.js';
import { serviceAccountTokens, type ServiceAccountTokenOptions, type ServiceAccountTokens } from './serviceaccount/options.js';
import { openIdMetadata, type OpenIdMetadata } from '@kubelab/serviceaccount';
import { WatchCache } from './cache/watch-cache.js';
import { startGrpcServer } from './grpc/server.js';
import { WatchDeliveryRecorder } from './watch-records.js';
import { rememberPeerCertificates } from './authentication/peer-certificate.js';
import { createMetrics } from './http/metrics.js';
import { startHttpServer, type HttpHandler, type ServingTls } from './http/server.js';
import { authenticateRequest, requestUser } from './authentication/request.js';
import { grpcAuthenticator } from './authentication/grpc.js';
import { selfSignedServingTls } from './authentication/self-signed.js';
import { reviewStores } from './registry/authorization/reviews.js';
import { componentStatusStore, DEFAULT_COMPONENT_HEALTH_URLS, httpComponent, storeComponent } from './registry/componentstatus.js';
import { tokenReviewStore } from './registry/authentication/tokenreview.js';
import { createRbacAuthorizer } from './authorization/rbac/index.js';
import { CachePolicySource } from './authorization/rbac/cache-source.js';
import { rbacWriteChecks } from './registry/rbac/policybased.js';
import { rulesAllow } from './authorization/rbac/rules.js';
import { NODE_RULES } from './authorization/rbac/bootstrap/policy.js';
import { ApiRegistry } from './registry/registry.js';
import { EventsStore } from './registry/events.js';
import { HorizontalPodAutoscalerV1Store } from './registry/hpa-v1.js';
import { CrdController } from './apiextensions/controller.js';
import { MAX_OBJECT_BYTES } from './registry/store.js';
import { loadEncryptionConfig } from './storage/encryption/load.js';
import { KvStorage } from './storage/kv.js';
import { ListenerGate, type NatsClientTls } from '@kubelab/nats';
import { traceRestHandler } from './tracing/request.js';
import type { KubeletClientConfig } from './endpoints/kubelet-client.js';
import { Aggregator, aggregatedRoutes, type ProxyClientConfig } from './aggregator/index.js';
import { ensureExtensionAuthConfigMap, extensionAuthData, type RequestHeaderConfig } from './aggregator/authentication-configmap.js';

export interface ApiserverOptions {
  /** NATS server URL (JetStream enabled). */
  natsUrl: string;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile as PEM: mutual TLS to NATS (etcd's role). Unset: plain. */
  natsTls?: NatsClientTls;
  /** KV bucket holding every object (default `kubelab`). */
  bucket?: string;
  /** Address the REST and gRPC ports listen on (default 0.0.0.0). */
  bindAddress?: string;
  /** REST/health port (default 6443; 0 = a free port). */
  securePort?: number;
  /** gRPC port (default 6444; 0 = a free port). */
  grpcPort?: number;
  /** Address published in the `kubernetes` EndpointSlice (default: bind address or first non-loopback IPv4). */
  advertiseAddress?: string;
  /** --endpoint-reconciler-type (default lease): who writes the kubernetes Service's endpoints (reconcilers/endpoints.ts). */
  endpointReconcilerType?: EndpointReconcilerType;
  /** The lease reconciler's renew interval and lease TTL (upstream's 10 s and 15 s; tests shorten them). */
  endpointReconcilerIntervalMs?: number;
  masterLeaseTtlMs?: number;
  serviceClusterIpRange?: string;
  serviceNodePortRange?: string;
  defaultNotReadyTolerationSeconds?: number;
  defaultUnreachableTolerationSeconds?: number;
  /** Events kept for resuming watches (default 10000). */
  watchCacheSize?: number;
  /** Events a watcher may fall behind before it is closed (default 1000). */
  watcherBufferSize?: number;
  /** How often the watch cache looks for watchers due a BOOKMARK (default 1 s). */
  bookmarkIntervalMs?: number;
  /** How long a watcher waits between two BOOKMARKs (default: upstream's one minute; tests shorten it). */
  bookmarkFrequencyMs?: number;
  /**
   * --tls-cert-file, --tls-private-key-file and --client-ca-file as PEM. Without
   * a certificate the apiserver makes a self-signed one, as upstream does; without
   * a client CA no client certificate is accepted and the gRPC port is anonymous.
   */
  tls?: ServingTls;
  /** --anonymous-auth (default true: anyone), or --authentication-config's anonymous section. */
  anonymousAuth?: boolean | AnonymousAuth;
  /**
   * --kubelet-client-certificate/--kubelet-client-key (and --kubelet-certificate-authority)
   * as PEM: the apiserver's identity when it proxies logs and exec to kubelets over HTTPS.
   */
  kubeletClient?: KubeletClientConfig;
  /** --pod-network-mode: how pods/ and services/proxy reach pods (default pod-ip, as upstream; kubelab's runners use kubelet-tunnel). */
  podNetwork?: 'pod-ip' | 'kubelet-tunnel';
  /** Where `kubectl get componentstatuses` probes each component, name → /healthz URL (default: upstream's, on this host). */
  componentStatusUrls?: Readonly<Record<string, string>>;
  /** Bearer-token authenticators (ServiceAccount and bootstrap tokens), in order. */
  tokenAuthenticators?: TokenAuthenticator[];
  /** Service account and bootstrap tokens (`--service-account-*`); without a signing key no TokenRequest and no kube-api-access volumes. */
  serviceAccount?: ServiceAccountTokenOptions;
  /** `--authorization-mode`: the authorizers in order (default AlwaysAllow, as upstream's binary; kubeadm, `kubelab up` and compose set Node,RBAC). */
  authorizationModes?: readonly string[];
  /** Factories by mode name, over the built-in AlwaysAllow, AlwaysDeny and Node (RBAC comes from its own package). */
  authorizerFactories?: Readonly<Record<string, AuthorizerFactory>>;
  /**
   * `--disable-admission-plugins`: plugins left out of the chain by name. Upstream's integration tests leave out
   * TaintNodesByCondition where no node lifecycle controller runs to lift its taint.
   */
  disableAdmissionPlugins?: readonly string[];
  logger?: Logger;
  /** Mount src/endpoints' REST handler when it exists (default true). */
  rest?: boolean;
  /**
   * From setupTracing({ serviceName: 'apiserver' }): SERVER spans for gRPC and
   * REST requests, storage child spans, the `kubelab.io/traceparent` annotation
   * on creates. Default: off (no spans, no annotation).
   */
  tracing?: Tracing;
  /**
   * --encryption-provider-config: an EncryptionConfiguration file (YAML or
   * JSON); the resources it names are encrypted in NATS. Unset: everything is
   * stored as is (upstream's default). A bad file fails the start.
   */
  encryptionProviderConfig?: string;
  /** --proxy-client-cert-file/--proxy-client-key-file as PEM: the aggregator's identity towards extension apiservers. */
  proxyClient?: ProxyClientConfig;
  /** --requestheader-*: published in kube-system/extension-apiserver-authentication for extension apiservers. */
  requestHeader?: RequestHeaderConfig;
  /** --enable-priority-and-fairness (default true, as upstream): API Priority and Fairness on both ports (flowcontrol/). */
  enablePriorityAndFairness?: boolean;
  /** --max-requests-inflight and --max-mutating-requests-inflight (upstream's 400 and 200): together APF's server concurrency limit. */
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
}

export interface RunningApiserver {
  restPort: number;
  grpcPort: number;
  registry: ApiRegistry;
  cache: WatchCache;
  storage: KvStorage;
  /** The bearer-token authenticators (bootstrap, service account) for the authentication chain, in upstream's order. */
  tokenAuthenticators: TokenAuthenticator[];
  /** Resolves when the cache has synced and the bootstrap objects exist. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

function defaultAdvertise(bind: string): string {
  if (bind && bind !== '0.0.0.0' && bind !== '::') return bind;
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

type RestFactory = (deps: Record<string, unknown>) => HttpHandler | { handle: HttpHandler } | Promise<HttpHandler | { handle: HttpHandler }>;

/** Issuer discovery's answers, or none when there is no key or the issuer is no https URL (upstream then logs why and leaves the endpoints out). */
function issuerDiscovery(tokens: ServiceAccountTokens, jwksUri: string | undefined, externalAddress: string, log: Logger): OpenIdMetadata | undefined {
  if (tokens.publicKeys.length === 0) return undefined;
  try {
    return openIdMetadata(tokens.issuer, jwksUri, externalAddress, tokens.publicKeys);
  } catch (err) {
    log.error('Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled.', { err: (err as Error).message });
    return undefined;
  }
}

/** Loads createRestHandler from src/endpoints if the REST side is present. */
async function loadRest(log: Logger): Promise<RestFactory | undefined> {
  const spec = './endpoints/index.js';
  try {
    const mod = (await import(spec)) as { createRestHandler?: RestFactory };
    return mod.createRestHandler;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND') log.warn('REST handler failed to load; serving health and metrics only', { err: (err as Error).message });
    return undefined;
  }
}

export async function startApiserver(opts: ApiserverOptions): Promise<RunningApiserver> {
  const log = opts.logger ?? createLogger({ component: 'kube-apiserver' });
  // Each connection's client certificate is read once, not per request (authentication/peer-certificate.ts).
  rememberPeerCertificates();
  const bind = opts.bindAddress ?? '0.0.0.0';
  const serviceRange = parseCidr(opts.serviceClusterIpRange ?? '10.96.0.0/12');
  const nodePortRange = parsePortRange(opts.serviceNodePortRange ?? '30000-32767');
  const bucket = opts.bucket ?? 'kubelab';
  const authorizationModes = opts.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES;
  const authorizerFactories: Record<string, AuthorizerFactory> = {
    ...BUILTIN_AUTHORIZER_FACTORIES,
    // The Node authorizer applies the system:node policy's rules itself (upstream NodeRules).
    Node: nodeAuthorizerFactory({ staticRulesAllow: (a) => rulesAllow(a, NODE_RULES) }),
    RBAC: ({ cache: c }) => createRbacAuthorizer(c as WatchCache),
    ...opts.authorizerFactories,
  };
  // A bad --authorization-mode fails before anything connects.
  validateAuthorizationModes(authorizationModes, authorizerFactories);

  const tracing = opts.tracing?.enabled ? opts.tracing : undefined;
  const transformers = opts.encryptionProviderConfig ? loadEncryptionConfig(opts.encryptionProviderConfig) : undefined;
  const storage = await KvStorage.open({
    url: opts.natsUrl,
    bucket,
    ...(opts.natsTls ? { tls: opts.natsTls } : {}),
    ...(tracing ? { tracing } : {}),
    onStatus: (what, detail) => {
      // Keep-alive pings (the client's 'ping' status every few seconds) are not news.
      if (what === 'pingTimer' || what === 'ping' || what === 'update') return;
      log.info('storage connection', { status: what, detail: typeof detail === 'string' || typeof detail === 'number' ? detail : undefined });
    },
  });
  const cache = new WatchCache(storage, {
    windowSize: opts.watchCacheSize ?? 10_000,
    watcherBuffer: opts.watcherBufferSize ?? 1_000,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 1_000,
    ...(opts.bookmarkFrequencyMs !== undefined ? { bookmarkFrequencyMs: opts.bookmarkFrequencyMs } : {}),
    // A watch stalled for two checks (4 s) while NATS moved on is re-established (a consumer lost with its server in a NATS cluster).
    progressCheckMs: 2_000,
    rawPrefixes: [MASTER_LEASES_PREFIX],
    log: (level, msg, fields) => log[level](msg, fields),
    ...(tracing ? { tracing } : {}),
    ...(transformers ? { transformers } : {}),
  });
  const metrics = createMetrics(() => cache);
  const maxInflight = opts.maxRequestsInflight ?? 400;
  const maxMutatingInflight = opts.maxMutatingRequestsInflight ?? 200;
  if (opts.enablePriorityAndFairness !== false && maxInflight + maxMutatingInflight <= 0) {
    throw new Error(`invalid configuration: MaxRequestsInFlight=${maxInflight} and MaxMutatingRequestsInFlight=${maxMutatingInflight}; they must add up to something positive`);
  }
  const flowControl = opts.enablePriorityAndFairness === false ? undefined : new FlowControl({ serverConcurrencyLimit: maxInflight + maxMutatingInflight, registry: metrics.registry });
  const servicesPrefix = '/registry/services';
  const allocator = new ServiceAllocator({
    serviceRange,
    nodePortRange,
    services: () => cache.list(servicesPrefix).map((e) => e.obj),
    waitForRev: (rev) => cache.waitForRev(rev, 30_000),
    ownWritesApplied: () => cache.ownWritesApplied(),
  });
  const tokenGetter = cacheTokenGetter(cache);
  const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;
  const SERVICE_ACCOUNTS = lookupResource('', 'v1', 'serviceaccounts')!;
  const NODES = lookupResource('', 'v1', 'nodes')!;
  const INGRESS_CLASSES = lookupResource('networking.k8s.io', 'v1', 'ingressclasses')!;
  // An admission plugin's read of one object (upstream: the lister, then a live GET on a miss). This apiserver's
  // own last write of the key first (a delete that just made a namespace Terminating); missing: it may be a
  // create just acknowledged, so wait for read-your-writes, then for the cache to catch up with storage, and
  // look again. With no write of its own in flight and a hit, the cache answers at once (no promise).
  const freshGet = <T extends KubeObject>(key: string): T | undefined | Promise<T | undefined> => {
    const hit = cache.hasOwnWriteInFlight(key) ? undefined : cache.get(key)?.obj;
    if (hit) return hit as T;
    return (async () => {
      await cache.waitForOwnWrite(key);
      const again = cache.get(key)?.obj;
      if (again) return again as T;
      await cache.waitConsistent();
      return cache.get(key)?.obj as T | undefined;
    })();
  };
  // Authorization (upstream: the authorizer config): built before the cache starts, so the Node graph sees the initial load.
  const { authorizer, ruleResolver } = buildAuthorization(authorizationModes, authorizerFactories, { cache });
  const priority = priorityAdmission(priorityClassesFromCache(cache));
  const limits = limitRanger(limitRangesFromCache(cache));
  // ResourceQuota writes the usage it admits to the quota's status, through the registry built below.
  const quota = resourceQuota(quotasFromCache(cache, () => registry.store('', 'v1', 'resourcequotas')));
  const disabled = new Set(opts.disableAdmissionPlugins ?? []);
  const known = new Set<string>();
  const enabled = (plugins: AdmissionPlugin[]) => {
    for (const p of plugins) known.add(p.name);
    return plugins.filter((p) => !disabled.has(p.name));
  };
  const admission = new AdmissionChain(
    enabled([
      // Upstream's order: the namespace first (its 404 before any plugin reads the namespace's objects).
      namespaceLifecycle((name) => freshGet(storageKey(NAMESPACES, undefined, name))),
      limits,
      defaultTolerationSeconds(opts.defaultNotReadyTolerationSeconds ?? 300, opts.defaultUnreachableTolerationSeconds ?? 300),
      serviceAccount({ mountServiceAccountToken: opts.serviceAccount?.signingKey !== undefined, serviceAccount: (ns, name) => freshGet<ServiceAccount>(storageKey(SERVICE_ACCOUNTS, ns, name)) }),
      taintNodesByCondition(),
      nodeRestriction({
        getNode: (name) => cache.get(storageKey(NODES, undefined, name))?.obj,
        getPod: (namespace, name) => cache.get(`/registry/pods/${namespace}/${name}`)?.obj,
      }),
      priority,
      allocator,
      defaultStorageClass(() => cache.list('/registry/storage.k8s.io/storageclasses').map((e) => e.obj)),
      storageObjectInUseProtection(),
      defaultIngressClassPlugin(() => cache.list(storagePrefix(INGRESS_CLASSES)).map((e) => e.obj)),
    ]),
    enabled([
      certificateApproval(authorizer),
      certificateSigning(authorizer),
      certificateSubjectRestriction,
      priority,
      limits,
      // Last among the validating plugins, as upstream orders it: only what every other plugin admitted is counted.
      quota,
    ]),
  );
  // Upstream's options validation text for a name no plugin has.
  const unknown = [...disabled].find((name) => !known.has(name));
  if (unknown !== undefined) {
    await storage.close();
    throw new Error(`disable-admission-plugins plugin "${unknown}" is unknown`);
  }
  // Objects stay under etcd's limit and under what this NATS server accepts per message.
  const maxObjectBytes = Math.min(MAX_OBJECT_BYTES, storage.maxPayload() - 4096);
  // RBAC's escalation checks read the policy whatever the authorization modes (upstream: the policybased storages' own rule resolver).
  const writeChecks = rbacWriteChecks({ authorizer, source: new CachePolicySource(cache) });
  const recordReaders = new ListenerGate('api').start(storage.nc);
  const registry = new ApiRegistry({
    storage,
    cache,
    admission,
    maxObjectBytes,
    requestMetrics: metrics.requests,
    storageMetrics: metrics.storage,
    recordTraceContext: tracing !== undefined,
    // Each answered write on kubelab.api.<verb>.<resource>: who asked, the object, code and duration.
    onWrite: (rec) => storage.publishRecord(apiRecordSubject(rec.verb, rec.resource, rec.subresource), encodeApiWriteRecord(rec)),
    // ... only while a reader listens (@kubelab/nats listeners.ts): nobody pays for records nobody reads.
    wantWriteRecords: () => recordReaders.active,
    writeChecks,
    ...(transformers ? { transformers } : {}),
  });
  const tokens = serviceAccountTokens(opts.serviceAccount ?? {}, tokenGetter, registry);
  const anonymous = typeof opts.anonymousAuth === 'object' ? opts.anonymousAuth : { enabled: opts.anonymousAuth ?? true };
  const authn = { anonymous, tokenAuthenticators: [...(opts.tokenAuthenticators ?? []), ...tokens.authenticators] };
  for (const s of reviewStores(authorizer, ruleResolver)) registry.serve(s);
  registry.serve(tokenReviewStore(authn.tokenAuthenticators, tokens.apiAudiences));
  registry.serve(
    componentStatusStore([
      ...Object.entries(opts.componentStatusUrls ?? DEFAULT_COMPONENT_HEALTH_URLS).map(([name, url]) => httpComponent(name, url)),
      // The store in etcd's role, read through to its stream leader (upstream's etcd prober reads a key).
      storeComponent('etcd-0', () => storage.lastRevision()),
    ]),
  );
  registry.serve(new EventsStore(registry.mustStore('', 'events')));
  registry.serve(new HorizontalPodAutoscalerV1Store(registry.store('autoscaling', 'v2', 'horizontalpodautoscalers')!));
  // CustomResourceDefinitions: started before the cache so it serves the stored CRDs from the initial load on.
  const crds = new CrdController(registry, cache, { onError: (name, err) => log.warn('customresourcedefinition sync failed', { crd: name, err: err instanceof Error ? err.message : String(err) }) });
  crds.start();
  // API Priority and Fairness follows the stored FlowSchemas and priority levels from the cache's initial load on.
  const flowConfig = flowControl
    ? new FlowControlConfigController(flowControl, cache, registry, { user: APISERVER, fieldManager: 'api-priority-and-fairness-config-consumer-v1' }, (err) =>
        log.warn('flowschema status update failed', { err: err instanceof Error ? err.message : String(err) }),
      )
    : undefined;
  flowConfig?.start();
  // The aggregation layer: APIServices' availability and discovery, and the proxy to their Services.
  const aggregator = new Aggregator(registry, cache, {
    ...(opts.proxyClient ? { proxyClient: opts.proxyClient } : {}),
    onError: (name, err) => log.warn('apiservice sync failed', { apiservice: name, err: err instanceof Error ? err.message : String(err) }),
  });
  aggregator.start();
  cache.start();

  let rest: HttpHandler | undefined;
  let bootstrapped = false;
  const advertise = opts.advertiseAddress ?? defaultAdvertise(bind);
  const tls = opts.tls ?? (await selfSignedServingTls([advertise, bind]));
  const http = await startHttpServer({
    host: bind,
    port: opts.securePort ?? 6443,
    tls,
    authenticate: (req) => authenticateRequest(req, authn),
    livez: {},
    readyz: {
      etcd: () => storage.isConnected() && cache.watching,
      'informer-sync': () => cache.isSynced,
      'poststarthook/bootstrap-controller': () => bootstrapped,
    },
    metrics: metrics.registry,
    rest: () => rest,
    // API requests wait for the REST handler and the synced watch cache (503, Retry-After: 1), never a 404 for a kind that exists.
    ready: () => cache.isSynced && (rest !== undefined || opts.rest === false),
    filter: (req, res) => {
      const attrs = authorizeRequest({ authorizer, userOf: requestUser }, req, res);
      return attrs !== undefined && (flowControl ? admitRequest(flowControl, attrs, res) : true);
    },
    onError: (err) => log.error('http handler failed', { err: (err as Error).message }),
  });
  // What each watch delivers to whom, summed per 100 ms (watch-records.ts), beside the write records.
  const watchRecords = new WatchDeliveryRecorder(
    (subject, data) => storage.publishRecord(subject, data),
    () => recordReaders.active,
  );
  const grpcServer = await startGrpcServer(bind, opts.grpcPort ?? 6444, {
    registry,
    onWatchDelivery: (user, group, resource, events) => watchRecords.delivered(user, group, resource, events),
    tls,
    ...(tokens.tokenRequest ? { tokenRequest: tokens.tokenRequest } : {}),
    requestMetrics: metrics.requests,
    authorizer,
    ...(flowControl ? { flowControl } : {}),
    userOfCall: grpcAuthenticator(authn.tokenAuthenticators, Date.now, { requireCredentials: !!tls.clientCaPem }),
    onInternalError: (err) => log.error('grpc request failed', { err: err instanceof Error ? err.message : String(err) }),
    ...(tracing ? { tracing } : {}),
  });

  if (opts.rest !== false) {
    const factory = await loadRest(log);
    if (factory) {
      const h = await factory({
        registry,
        logger: log,
        kubeletClient: opts.kubeletClient ?? {},
        securePort: http.port,
        grpcPort: grpcServer.port,
        serviceClusterIpRange: serviceRange.text,
        metrics: metrics.registry,
        tracing,
        tokenRequest: tokens.tokenRequest,
        serviceAccountIssuerDiscovery: issuerDiscovery(tokens, opts.serviceAccount?.jwksUri, joinHostPort(advertise, http.port), log),
        requestMetrics: metrics.requests,
        aggregator: aggregatedRoutes(aggregator, opts.proxyClient),
        ...(opts.podNetwork ? { podNetwork: opts.podNetwork } : {}),
      });
      rest = traceRestHandler(tracing, typeof h === 'function' ? h : h.handle.bind(h));
    }
  }

  // The kubernetes Service's endpoints: renewed every interval once bootstrapped (upstream's bootstrap controller runs the reconciler).
  const reconcilerType = opts.endpointReconcilerType ?? 'lease';
  const endpointReconciler = new EndpointReconciler(registry, storage, cache, {
    type: reconcilerType,
    ip: advertise,
    port: http.port,
    ...(opts.endpointReconcilerIntervalMs ? { intervalMs: opts.endpointReconcilerIntervalMs } : {}),
    ...(opts.masterLeaseTtlMs ? { ttlMs: opts.masterLeaseTtlMs } : {}),
    log: (level, msg, fields) => log[level](msg, fields),
  });
  let stopped = false;
  const ready = (async () => {
    await cache.synced;
    // As upstream's bootstrap-controller post-start hook: retried until it
    // succeeds (readyz says which hook is not finished), never a crash when
    // the store has no quorum yet (a NATS cluster still electing, a bucket's
    // replicas being raised).
    for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
      try {
        await bootstrap(registry, {
          kubernetesServiceIp: formatIpv4(serviceRange.base + 1),
          securePort: http.port,
          reconcilePorts: reconcilerType !== 'none',
        });
        await endpointReconciler.reconcile();
        await ensureExtensionAuthConfigMap(registry, extensionAuthData(tls.clientCaPem, opts.requestHeader));
        break;
      } catch (err) {
        if (stopped) throw err;
        log.warn('bootstrap failed; retrying', { err: (err as Error).message, retryAfterMs: delay });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    bootstrapped = true;
    endpointReconciler.start();
    log.info('apiserver ready', { restPort: http.port, grpcPort: grpcServer.port, bucket, rev: cache.rev });
  })();
  ready.catch((err) => log.error('bootstrap failed', { err: (err as Error).message }));

  return {
    restPort: http.port,
    grpcPort: grpcServer.port,
    registry,
    cache,
    storage,
    tokenAuthenticators: tokens.authenticators,
    ready,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Out of the kubernetes endpoints before going (RemoveEndpoints), bounded: a store without quorum does not hold the shutdown.
      if (bootstrapped) await Promise.race([endpointReconciler.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref?.())]);
      crds.stop();
      flowConfig?.stop();
      watchRecords.stop();
      recordReaders.stop();
      aggregator.stop();
      cache.stop();
      await Promise.all([grpcServer.stop(), http.close()]);
      await storage.close();
    },
  };
}
