// The aggregator's controllers in one loop (upstream: kube-aggregator's
// AvailableConditionController and its discovery manager): every APIService
// is synced when it, its Service or its Endpoints change, and re-checked
// every 30 s while it points at a Service (the backend may stop answering
// with nothing stored changing). A sync runs the checks of availability.ts,
// sends the discovery request with the front-proxy identity, keeps the
// group version's resources for discovery, and writes the Available
// condition when it changed.

import { request as httpsRequest } from 'node:https';
import { canonicalJson, type APIService, type Endpoints, type KubeObject, type ResourceInfo, type Service, joinHostPort } from '@kubelab/api';
import { APISERVER } from '../authentication/user.js';
import type { WatchCache } from '../cache/watch-cache.js';
import type { RequestContext } from '../registry/interface.js';
import { nowTime } from '../registry/meta.js';
import type { ApiRegistry } from '../registry/registry.js';
import { discoveryAvailability, resolveEndpoint, staticAvailability, withAvailable, type AvailableCheck } from './availability.js';
import { resourcesFromList } from './discovery.js';
import { backendTls, type ProxyClientConfig } from './proxy.js';

export const APISERVICES_PREFIX = '/registry/apiregistration.k8s.io/apiservices';
const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };
/** How often a remote APIService is checked again (upstream: the controller's periodic requeue). */
export const RECHECK_MS = 30_000;
/** The discovery request's deadline (upstream: 6 s per attempt). */
const DISCOVERY_TIMEOUT_MS = 6_000;

/** One GET of the backend's discovery document: its status and body, or a rejection with the transport error. */
export type DiscoveryFetch = (url: URL, a: APIService) => Promise<{ status: number; body: string }>;

export interface AggregatorOptions {
  /** --proxy-client-cert-file/--proxy-client-key-file as PEM: the front-proxy identity towards extension apiservers. */
  proxyClient?: ProxyClientConfig;
  /** Replaces the HTTPS discovery request (tests). */
  fetch?: DiscoveryFetch;
  now?: () => string;
  recheckMs?: number;
  onError?: (name: string, err: unknown) => void;
}

export class Aggregator {
  /** The resources each available remote APIService serves, by APIService name. */
  private readonly discovered = new Map<string, ResourceInfo[]>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly unobserve: (() => void)[] = [];
  private running = false;
  private stopped = false;

  constructor(
    private readonly registry: ApiRegistry,
    private readonly cache: WatchCache,
    private readonly opts: AggregatorOptions = {},
  ) {}

  /** Starts following APIServices, Services and Endpoints; call before the cache starts. */
  start(): void {
    this.unobserve.push(this.cache.observe(APISERVICES_PREFIX, (cur, prev) => this.enqueue((cur ?? prev)!.name)));
    const byBackend = (cur: { namespace: string; name: string } | undefined, prev: { namespace: string; name: string } | undefined) => {
      const e = (cur ?? prev)!;
      for (const a of this.apiServices()) if (a.spec?.service?.namespace === e.namespace && a.spec.service.name === e.name) this.enqueue(a.metadata.name!);
    };
    this.unobserve.push(this.cache.observe('/registry/services', byBackend), this.cache.observe('/registry/endpoints', byBackend));
    for (const a of this.apiServices()) this.enqueue(a.metadata.name!);
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unobserve) u();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private apiServices(): APIService[] {
    return this.cache.list(APISERVICES_PREFIX).map((e) => e.obj as APIService);
  }

  /** The resources of available remote group versions, for discovery. */
  resources(): ResourceInfo[] {
    return [...this.discovered.values()].flat();
  }

  /** The remote APIService serving group/version, if one is registered (available or not). */
  remoteFor(group: string, version: string): APIService | undefined {
    return this.apiServices().find((a) => a.spec?.service && a.spec.group === group && a.spec.version === version);
  }

  /** Where a request for a remote APIService goes now: an endpoint, or why none. */
  backend(a: APIService): { host: string; port: number } | { error: string } {
    const ref = a.spec!.service!;
    const svc = this.cache.get(`/registry/services/${ref.namespace}/${ref.name}`)?.obj as Service | undefined;
    const eps = this.cache.get(`/registry/endpoints/${ref.namespace}/${ref.name}`)?.obj as Endpoints | undefined;
    return resolveEndpoint(a, svc, eps);
  }

  /** Whether the APIService's Available condition is True. */
  static isAvailable(a: APIService): boolean {
    return (a.status?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True');
  }

  private enqueue(name: string): void {
    if (this.stopped) return;
    this.dirty.add(name);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      await this.cache.synced;
      while (!this.stopped && this.dirty.size > 0) {
        const name = this.dirty.values().next().value as string;
        this.dirty.delete(name);
        try {
          await this.sync(name);
        } catch (err) {
          this.opts.onError?.(name, err);
          this.recheck(name);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private recheck(name: string): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(name));
    const t = setTimeout(() => {
      this.timers.delete(name);
      this.enqueue(name);
    }, this.opts.recheckMs ?? RECHECK_MS);
    t.unref?.();
    this.timers.set(name, t);
  }

  /** One APIService: its checks, its discovered resources, its Available condition. */
  async sync(name: string): Promise<void> {
    const a = this.cache.get(`${APISERVICES_PREFIX}/${name}`)?.obj as APIService | undefined;
    if (!a) {
      this.discovered.delete(name);
      clearTimeout(this.timers.get(name));
      this.timers.delete(name);
      return;
    }
    const ref = a.spec?.service;
    const svc = ref ? (this.cache.get(`/registry/services/${ref.namespace}/${ref.name}`)?.obj as Service | undefined) : undefined;
    const eps = ref ? (this.cache.get(`/registry/endpoints/${ref.namespace}/${ref.name}`)?.obj as Endpoints | undefined) : undefined;
    const pre = staticAvailability(a, svc, eps);
    let check: AvailableCheck;
    if ('condition' in pre) check = pre.condition;
    else {
      const found = await this.discover(a);
      check = discoveryAvailability(found.error);
      if (found.resources) this.discovered.set(name, found.resources);
    }
    if (check.status !== 'True' || !ref) this.discovered.delete(name);
    if (ref) this.recheck(name);
    await this.writeCondition(a, check);
  }

  /** GET /apis/<group>/<version> on an endpoint as system:kube-aggregator in system:masters (upstream's discovery check). */
  private async discover(a: APIService): Promise<{ error?: string; resources?: ResourceInfo[] }> {
    const target = this.backend(a);
    const group = a.spec?.group ?? '';
    const version = a.spec?.version ?? '';
    if ('error' in target) return { error: `failing or missing response from ${a.metadata.name}: ${target.error}` };
    const url = new URL(`https://${joinHostPort(target.host, target.port)}/apis/${group}/${version}`);
    try {
      const res = await (this.opts.fetch ?? this.httpsFetch.bind(this))(url, a);
      if (res.status < 200 || res.status >= 207) return { error: `failing or missing response from ${url.href}: bad status from ${url.href}: ${res.status}` };
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        body = undefined;
      }
      const resources = resourcesFromList(group, version, body);
      return resources ? { resources } : {};
    } catch (e) {
      return { error: `failing or missing response from ${url.href}: ${(e as Error).message}` };
    }
  }

  private httpsFetch(url: URL, a: APIService): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        url,
        {
          method: 'GET',
          headers: { accept: 'application/json', 'x-remote-user': 'system:kube-aggregator', 'x-remote-group': 'system:masters' },
          ...backendTls(a, this.opts.proxyClient),
          timeout: DISCOVERY_TIMEOUT_MS,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            // A discovery document is small; a backend that streams without end is cut off.
            if (size > 4 << 20) req.destroy(new Error('discovery response too large'));
            else chunks.push(c);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out wait for ${url.href}`)));
      req.on('error', reject);
      req.end();
    });
  }

  private async writeCondition(a: APIService, check: AvailableCheck): Promise<void> {
    const conditions = withAvailable(a, check, (this.opts.now ?? nowTime)());
    if (canonicalJson(conditions) === canonicalJson(a.status?.conditions ?? [])) return;
    const next = { ...structuredClone(a), status: { ...a.status, conditions } } as KubeObject;
    await this.registry.store('apiregistration.k8s.io', 'v1', 'apiservices')!.update(undefined, a.metadata.name!, next, ctx, 'status');
  }
}
