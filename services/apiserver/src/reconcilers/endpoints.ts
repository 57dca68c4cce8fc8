// The `kubernetes` Service's endpoints (upstream pkg/controlplane/reconcilers):
// with --endpoint-reconciler-type=lease (the default) every apiserver renews
// its master lease and writes the live apiservers' addresses; master-count
// (with one apiserver) writes its own address; none writes nothing. Each
// write goes to the Endpoints object (skip-mirror) and the EndpointSlice, as
// upstream's EndpointsAdapter does.

import type { KubeObject } from '@kubelab/api';
import { FlagError } from '@kubelab/component-base';
import { APISERVER } from '../authentication/user.js';
import type { RawEntry } from '../cache/watch-cache.js';
import type { LastMessage } from '../storage/kv.js';
import type { ApiRegistry } from '../registry/registry.js';
import type { RequestContext } from '../registry/interface.js';
import { ensure, getOrUndefined } from '../registry/ensure.js';
import { encodeMasterLease, ENDPOINT_RECONCILER_INTERVAL_MS, liveMasterLeases, MASTER_LEASE_TTL_MS, MASTER_LEASES_PREFIX, masterLeaseKey } from './master-leases.js';

export type EndpointReconcilerType = 'lease' | 'master-count' | 'none';

/** --endpoint-reconciler-type, checked with pflag's text. */
export function endpointReconcilerType(type: string): EndpointReconcilerType {
  if (type !== 'lease' && type !== 'master-count' && type !== 'none') throw new FlagError(`invalid argument "${type}" for "--endpoint-reconciler-type" flag: must be master-count, lease or none`);
  return type;
}

/** The storage calls a lease needs (KvStorage's). */
export interface LeaseStorage {
  create(key: string, value: Uint8Array, parent?: undefined, known?: LastMessage): Promise<number>;
  update(key: string, value: Uint8Array, revision: number): Promise<number>;
  delete(key: string, revision: number): Promise<number>;
  last(key: string): Promise<LastMessage | undefined>;
}

/** What the watch cache gives: the leases it keeps (rawPrefixes), and a wait until it has applied a write. */
export interface LeaseCache {
  rawEntries(prefix: string): RawEntry[];
  waitForRev(rev: number): Promise<void>;
}

export interface EndpointReconcilerOptions {
  type: EndpointReconcilerType;
  ip: string;
  port: number;
  intervalMs?: number;
  ttlMs?: number;
  now?: () => number;
  log?: (level: 'info' | 'warn', msg: string, fields: Record<string, unknown>) => void;
}

const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };
const SERVICE = 'kubernetes';

export class EndpointReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly registry: ApiRegistry,
    private readonly storage: LeaseStorage,
    private readonly cache: LeaseCache,
    private readonly opts: EndpointReconcilerOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** One pass: renew this apiserver's lease, then make the endpoints the live apiservers (ReconcileEndpoints). */
  async reconcile(): Promise<void> {
    if (this.opts.type === 'none') return;
    if (this.opts.type === 'master-count') return this.writeEndpoints([this.opts.ip]);
    await this.cache.waitForRev(await this.renewLease());
    await this.reconcileLeases();
  }

  /** Renews every interval until stop (errors are logged and retried at the next tick). */
  start(): void {
    if (this.opts.type === 'none' || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running || this.stopped) return;
      this.running = this.reconcile()
        .catch((err: unknown) => this.opts.log?.('warn', 'unable to reconcile the kubernetes service endpoints', { err: (err as Error).message }))
        .finally(() => (this.running = undefined));
    }, this.opts.intervalMs ?? ENDPOINT_RECONCILER_INTERVAL_MS);
    this.timer.unref?.();
  }

  /** Stops renewing; with leases, removes this apiserver from the endpoints (RemoveEndpoints on shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    if (this.opts.type !== 'lease') return;
    // The last apiserver keeps its lease: without it the endpoints would not change anyway (a reconcile never erases the
    // last address), and the delete's revision would send every informer back to a relist after a restart (410 Gone).
    const others = liveMasterLeases(this.cache.rawEntries(MASTER_LEASES_PREFIX), this.now()).ips.filter((ip) => ip !== this.opts.ip);
    if (others.length === 0) return;
    const key = masterLeaseKey(this.opts.ip);
    const cur = await this.storage.last(key);
    if (!cur?.live) return;
    await this.cache.waitForRev(await this.storage.delete(key, cur.revision));
    await this.reconcileLeases();
  }

  private async renewLease(): Promise<number> {
    const key = masterLeaseKey(this.opts.ip);
    const value = encodeMasterLease(this.opts.ip, this.now() + (this.opts.ttlMs ?? MASTER_LEASE_TTL_MS));
    // A lease deleted by this apiserver's last stop leaves a delete marker: the create names its revision.
    const cur = await this.storage.last(key);
    return cur?.live ? this.storage.update(key, value, cur.revision) : this.storage.create(key, value, undefined, cur);
  }

  private async reconcileLeases(): Promise<void> {
    const view = liveMasterLeases(this.cache.rawEntries(MASTER_LEASES_PREFIX), this.now());
    // Expired leases go, as etcd's TTL would take them (a lost race with a renewal only skips one).
    for (const e of view.expired) await this.storage.delete(e.key, e.rev).catch(() => undefined);
    if (view.ips.length === 0) throw new Error('no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service');
    await this.writeEndpoints(view.ips);
  }

  /** The Endpoints object and the EndpointSlice, written only when their addresses or port differ. */
  private async writeEndpoints(ips: string[]): Promise<void> {
    const ports = [{ name: 'https', port: this.opts.port, protocol: 'TCP' }];
    const endpoints = this.registry.mustStore('', 'endpoints');
    const subsets = [{ addresses: ips.map((ip) => ({ ip })), ports }];
    const cur = await getOrUndefined(() => endpoints.get('default', SERVICE));
    const curSubsets = (cur as { subsets?: unknown } | undefined)?.subsets;
    if (!cur) {
      await ensure(() =>
        endpoints.create(
          'default',
          // Labelled so the EndpointSlice mirroring controller leaves it: the slice is written here.
          { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: SERVICE, namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }, subsets } as unknown as KubeObject,
          ctx,
        ),
      );
    } else if (JSON.stringify(curSubsets) !== JSON.stringify(subsets)) {
      if (this.opts.type === 'lease') this.opts.log?.('warn', 'Resetting endpoints for master service', { service: SERVICE, ips: ips.join(',') });
      await endpoints.patch('default', SERVICE, 'application/merge-patch+json', { subsets }, ctx);
    }

    const slices = this.registry.mustStore('discovery.k8s.io', 'endpointslices');
    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: SERVICE, namespace: 'default', labels: { 'kubernetes.io/service-name': SERVICE } },
      addressType: 'IPv4',
      endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      ports,
    };
    const curSlice = (await getOrUndefined(() => slices.get('default', SERVICE))) as unknown as typeof slice | undefined;
    if (!curSlice) await ensure(() => slices.create('default', slice as unknown as KubeObject, ctx));
    else if (JSON.stringify(curSlice.endpoints) !== JSON.stringify(slice.endpoints) || JSON.stringify(curSlice.ports) !== JSON.stringify(slice.ports)) {
      await slices.patch('default', SERVICE, 'application/merge-patch+json', { endpoints: slice.endpoints, ports: slice.ports }, ctx);
    }
  }
}
