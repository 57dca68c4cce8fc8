// The REST handler kubectl talks to: discovery, /version, OpenAPI v2 and v3, and
// every verb on every served resource (upstream: the apiserver's
// endpoints/installer + handlers). Mounted by server.ts on the secure port.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { resourceNotServed } from '@kubelab/api';
import { isUpgradeRequest } from '@kubelab/component-base';
import type { Registry, ResourceStore } from '../registry/interface.js';
import { toStatusError, type RequestRecorder } from '../registry/store.js';
import type { TokenRequestREST } from '../serviceaccount/token-request.js';
import type { OpenIdMetadata } from '@kubelab/serviceaccount';
import { DEFAULT_MAX_BODY_BYTES } from './body.js';
import { aggregatedDiscovery, apiGroup, groupList, legacyVersions, resourceList, type AggregatedDocument } from './discovery.js';
import { aggregatedDiscoveryVersion } from './negotiate.js';
import type { HandlerEnv, KubeletAddress, VersionInfo } from './env.js';
import { openapiDocument, openapiRoot } from './openapi/build.js';
import { customResourceDocuments, withCustomResourcePaths } from '../apiextensions/openapi.js';
import { serveOpenApiV2 } from './openapi/v2.js';
import { parseRequestInfo, type ResourceRequest } from './requestinfo.js';
import { serveResourceVerb } from './resource.js';
import { writeJson, writeStatus } from './respond.js';
import { kubeletAddressFromRegistry, serveSubresource } from './subresources.js';
import { subresourceVerb } from './request-verb.js';
import type { KubeletClientConfig } from './kubelet-client.js';
import { kubeletTunnelDialer, type PodDialer } from './pod-tunnel.js';

/** `--pod-network-mode`: how the apiserver reaches pods for the proxy subresources. */
export type PodNetwork = 'pod-ip' | 'kubelet-tunnel';
import { nameRestRequestSpan } from '../tracing/request.js';
import type { AggregatedRoutes } from '../aggregator/index.js';

export type { KubeletAddress, VersionInfo } from './env.js';
export type { KubeletClientConfig } from './kubelet-client.js';
export { parseRequestInfo, type RequestInfo, type ResourceRequest } from './requestinfo.js';
export { decodeProtobuf } from './protobuf.js';

export interface RestHandlerDeps {
  registry: Registry;
  /** How to reach a node's kubelet for pods/log; default: the Node's InternalIP and kubeletEndpoint port. */
  kubeletAddress?: (nodeName: string) => Promise<KubeletAddress>;
  /** --kubelet-client-certificate/-key and --kubelet-certificate-authority as PEM (default: none; the kubelet's certificate unverified). */
  kubeletClient?: KubeletClientConfig;
  /** Clock for the AGE columns of Tables. */
  now?: () => Date;
  /** Overrides of /version; minor must stay "32" for the kubectl dispatcher to run kubectl 1.32. */
  version?: Partial<VersionInfo>;
  /** Largest request body accepted (default 3 MiB, as upstream). */
  maxBodyBytes?: number;
  /** Called with every request that failed with a 5xx, for logging. */
  onInternalError?: (err: unknown, req: IncomingMessage) => void;
  /** The component logger; 5xx errors are logged through it when onInternalError is not given. */
  logger?: { error(msg: string, fields?: Record<string, unknown>): void };
  /** Serves serviceaccounts/<name>/token (TokenRequest); absent: 404 as upstream without a signing key. */
  tokenRequest?: TokenRequestREST;
  /** Service account issuer discovery's pre-rendered answers; absent: both paths 404. */
  serviceAccountIssuerDiscovery?: OpenIdMetadata | undefined;
  /** How pods/proxy and services/proxy reach pods: `pod-ip` dials the pod IP (upstream), `kubelet-tunnel` goes through the pod's kubelet (pod-tunnel.ts). */
  podNetwork?: PodNetwork;
  /** A pod dialer of the caller's (tests); overrides podNetwork. */
  podDialer?: PodDialer;
  /** Counts the subresource requests served here (exec, log, scale, …) in apiserver_request_total. */
  requestMetrics?: RequestRecorder;
  /** The aggregation layer: group versions served by extension apiservers, proxied and merged into discovery. */
  aggregator?: AggregatedRoutes;
}

export const DEFAULT_VERSION: VersionInfo = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4-kubelab',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

const pageNotFound = (res: ServerResponse) => {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('404 page not found\n');
};

export function createRestHandler(deps: RestHandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const kubeletAddress = deps.kubeletAddress ?? kubeletAddressFromRegistry(deps.registry);
  const podDialer = deps.podDialer ?? (deps.podNetwork === 'kubelet-tunnel' ? kubeletTunnelDialer(kubeletAddress, deps.kubeletClient ?? {}) : undefined);
  const env: HandlerEnv = {
    registry: deps.registry,
    now: deps.now ?? (() => new Date()),
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    version: { ...DEFAULT_VERSION, ...deps.version },
    kubeletAddress,
    kubeletClient: deps.kubeletClient ?? {},
    ...(deps.tokenRequest ? { tokenRequest: deps.tokenRequest } : {}),
    ...(podDialer ? { podDialer } : {}),
    ...(deps.requestMetrics ? { requestMetrics: deps.requestMetrics } : {}),
  };

  // The resources added at run time (custom resources), asked for per discovery request.
  const runtimeResources = () => {
    const custom = deps.registry.runtimeResources?.() ?? [];
    const aggregated = deps.aggregator?.resources() ?? [];
    return aggregated.length ? [...custom, ...aggregated] : custom;
  };

  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://kubelab.invalid');
      const info = parseRequestInfo(req.method ?? 'GET', url);
      // The request's span is named by route as upstream does (no-op when tracing is off).
      nameRestRequestSpan(req, info);
      // A group version of an extension apiserver goes there, its own discovery document included (the group's is merged here).
      if (deps.aggregator && (info.kind === 'resource' || info.kind === 'resourceList') && info.group && (await deps.aggregator.serve(req, res, info.group, info.version))) return;
      const isGet = req.method === 'GET';
      switch (info.kind) {
        case 'version':
          return writeJson(res, 200, env.version);
        case 'openIdConfiguration':
        case 'openIdJwks': {
          const md = deps.serviceAccountIssuerDiscovery;
          if (!md || !isGet) return pageNotFound(res);
          // upstream serviceaccount.openidmetadata: cacheable for an hour, the key set with its own media type.
          const jwks = info.kind === 'openIdJwks';
          res.writeHead(200, { 'Content-Type': jwks ? 'application/jwk-set+json' : 'application/json', 'Cache-Control': 'public, max-age=3600' });
          res.end(jwks ? md.jwks : md.configuration);
          return;
        }
        case 'legacyVersions':
        case 'groupList': {
          const legacy = info.kind === 'legacyVersions';
          const aggregated = aggregatedDiscoveryVersion(req.headers.accept);
          if (aggregated) return serveAggregated(req, res, aggregatedDiscovery(legacy, aggregated, runtimeResources()));
          return writeJson(res, 200, legacy ? legacyVersions() : groupList(runtimeResources()));
        }
        case 'group': {
          const g = apiGroup(info.group, runtimeResources());
          return g && isGet ? writeJson(res, 200, g) : pageNotFound(res);
        }
        case 'resourceList': {
          const l = resourceList(info.group, info.version, runtimeResources());
          return l && isGet ? writeJson(res, 200, l) : pageNotFound(res);
        }
        case 'openapiV2':
          return serveOpenApiV2(req, res, customResourceDocuments(deps.registry));
        case 'openapiV3Root':
          return writeJson(res, 200, withCustomResourcePaths(openapiRoot(), customResourceDocuments(deps.registry)));
        case 'openapiV3': {
          const d = openapiDocument(info.key) ?? customResourceDocuments(deps.registry).get(info.key);
          if (!d) return pageNotFound(res);
          return writeJson(res, 200, d.body, { ETag: `"${d.hash}"`, 'Cache-Control': 'no-cache' });
        }
        case 'notFound':
          return pageNotFound(res);
        case 'resource':
          return await serveResource(env, info, req, res, url.searchParams);
      }
    } catch (e) {
      const status = writeStatus(res, e);
      if (status.code >= 500) {
        if (deps.onInternalError) deps.onInternalError(e, req);
        else deps.logger?.error('REST request failed', { method: req.method, url: req.url, err: e instanceof Error ? e.message : String(e) });
      }
    }
  };
}

/** An aggregated discovery document with its ETag; 304 when the client holds it (upstream ServeHTTPWithETag). */
function serveAggregated(req: IncomingMessage, res: ServerResponse, doc: AggregatedDocument): void {
  const headers = { ETag: doc.etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (req.headers['if-none-match'] === doc.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': doc.contentType, 'Content-Length': Buffer.byteLength(doc.body) });
  res.end(doc.body);
}

async function serveResource(env: HandlerEnv, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
  const store = env.registry.store(r.group, r.version, r.resource);
  if (!store) throw resourceNotServed();
  const info = store.info;
  // Namespaced resources need a namespace except to list/watch across all of them.
  if (!info.namespaced && r.namespace !== undefined) throw resourceNotServed();
  if (info.namespaced && r.namespace === undefined && r.verb !== 'list' && r.verb !== 'watch') throw resourceNotServed();
  if (r.subresource) {
    if (await countedSubresource(env, store, r, req, res, q)) return;
    if (!['status', 'finalize', 'approval', 'ephemeralcontainers'].includes(r.subresource) || !info.subresources.includes(r.subresource)) throw resourceNotServed();
  }
  await serveResourceVerb(env, store, r, req, res, q);
}

/**
 * A subresource served by its own handler, counted as upstream counts it: its
 * verb from the method (CONNECT for the streaming and proxy ones, in the
 * long-running gauge while they last), the code it answered (101 once upgraded).
 */
async function countedSubresource(env: HandlerEnv, store: ResourceStore, r: ResourceRequest, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<boolean> {
  const metrics = env.requestMetrics;
  if (!metrics || !store.info.subresources.includes(r.subresource!)) return serveSubresource(env, store, r, req, res, q);
  const info = store.info;
  const verb = subresourceVerb(r.subresource!, req.method ?? 'GET', req.headers['content-type']);
  const running = metrics.start({ verb, group: info.group, version: info.version, resource: info.resource, subresource: r.subresource!, scope: 'resource' });
  try {
    const served = await serveSubresource(env, store, r, req, res, q);
    // Not ours (status, finalize, approval): the store counts it.
    if (!served) running.cancel();
    else running.end(!res.headersSent && isUpgradeRequest(req) ? 101 : res.statusCode);
    return served;
  } catch (e) {
    running.end(toStatusError(e).code);
    throw e;
  }
}
