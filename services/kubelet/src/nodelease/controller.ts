// The node lease heartbeat (upstream component-helpers apimachinery/lease
// controller): keeps kube-node-lease/<node> renewed every 0.25 × the lease
// duration (10 s for 40 s); creates it owned by the Node; on failure retries
// with back-off from 200 ms doubling up to 7 s.

import { formatMicroTime, isConflict, isNotFound, type Lease } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';

export const LEASE_NAMESPACE = 'kube-node-lease';
export const RENEW_INTERVAL_FRACTION = 0.25;

export interface LeaseAPI {
  get(name: string): Promise<Lease>;
  create(lease: Lease): Promise<Lease>;
  update(lease: Lease): Promise<Lease>;
}

/** The lease calls through the clientset, in kube-node-lease. */
export function leaseAPI(cs: Clientset): LeaseAPI {
  const leases = () => cs.coordination.leases(LEASE_NAMESPACE);
  return { get: (name) => leases().get(name), create: (l) => leases().create(l), update: (l) => leases().update(l) };
}

export interface LeaseControllerOptions {
  api: LeaseAPI;
  nodeName: string;
  leaseDurationSeconds: number;
  /** The Node's UID for the owner reference, once registered. */
  nodeUid: () => string | undefined;
  log: Logger;
  now?: () => number;
}

export class NodeLeaseController {
  private latest: Lease | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private backoffMs = 200;
  renewals = 0;

  constructor(private readonly o: LeaseControllerOptions) {}

  get renewIntervalMs(): number {
    return this.o.leaseDurationSeconds * 1000 * RENEW_INTERVAL_FRACTION;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.tick();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let next = this.renewIntervalMs;
    try {
      await this.sync();
      this.backoffMs = 200;
    } catch (err) {
      this.o.log.warn('failed to renew node lease, will retry', { err, retryInMs: this.backoffMs });
      next = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, 7000);
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), next);
  }

  private desired(base: Lease | undefined): Lease {
    const now = (this.o.now ?? Date.now)();
    const uid = this.o.nodeUid();
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { ...(base?.metadata ?? {}), name: this.o.nodeName, namespace: LEASE_NAMESPACE },
      spec: { ...(base?.spec ?? {}), holderIdentity: this.o.nodeName, leaseDurationSeconds: this.o.leaseDurationSeconds, renewTime: formatMicroTime(now) },
    };
    if (uid && !lease.metadata.ownerReferences?.length) {
      lease.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.o.nodeName, uid }];
    }
    return lease;
  }

  /** One renewal: create if missing, otherwise update renewTime (refetch on conflict). */
  async sync(): Promise<Lease> {
    if (!this.latest) {
      try {
        this.latest = await this.o.api.get(this.o.nodeName);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.latest = await this.o.api.create(this.desired(undefined));
        this.renewals++;
        return this.latest;
      }
    }
    try {
      this.latest = await this.o.api.update(this.desired(this.latest));
    } catch (err) {
      this.latest = undefined;
      if (isConflict(err) || isNotFound(err)) return this.sync();
      throw err;
    }
    this.renewals++;
    return this.latest;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
