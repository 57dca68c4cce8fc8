// The lock a leader holds (client-go's resourcelock): a LeaderElectionRecord
// stored in a coordination.k8s.io/v1 Lease, updated with compare-and-swap on
// the Lease's resourceVersion.

import { formatMicroTime, parseTime, type Lease, type LeaseSpec } from '@kubelab/api';
import type { ResourceInterface } from '../clientset/types.js';

/** What the lock records (resourcelock.LeaderElectionRecord); times in ms since epoch. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

export interface ResourceLock {
  /** The current record; throws a NotFound StatusError when the lock object does not exist. */
  get(): Promise<LeaderElectionRecord>;
  create(record: LeaderElectionRecord): Promise<void>;
  /** Writes over the object last read (a Conflict if someone wrote in between). */
  update(record: LeaderElectionRecord): Promise<void>;
  identity(): string;
  /** `namespace/name`, for logs. */
  describe(): string;
}

export function recordToLeaseSpec(r: LeaderElectionRecord): LeaseSpec {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: formatMicroTime(r.acquireTime),
    renewTime: formatMicroTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

export function leaseSpecToRecord(s: LeaseSpec | undefined): LeaderElectionRecord {
  const t = (v: string | undefined) => {
    const ms = parseTime(v);
    return Number.isNaN(ms) ? 0 : ms;
  };
  return {
    holderIdentity: s?.holderIdentity ?? '',
    leaseDurationSeconds: s?.leaseDurationSeconds ?? 0,
    acquireTime: t(s?.acquireTime),
    renewTime: t(s?.renewTime),
    leaderTransitions: s?.leaseTransitions ?? 0,
  };
}

/** resourcelock.LeaseLock */
export class LeaseLock implements ResourceLock {
  private lease: Lease | undefined;

  constructor(
    private readonly leases: ResourceInterface<Lease>,
    readonly namespace: string,
    readonly name: string,
    private readonly id: string,
    /** Per-call deadline for lock reads/writes. */
    private readonly callTimeoutMs?: number,
  ) {}

  private opts() {
    return this.callTimeoutMs ? { timeoutMs: this.callTimeoutMs } : {};
  }

  async get(): Promise<LeaderElectionRecord> {
    this.lease = await this.leases.get(this.name, this.opts());
    return leaseSpecToRecord(this.lease.spec);
  }

  async create(record: LeaderElectionRecord): Promise<void> {
    this.lease = await this.leases.create(
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.name, namespace: this.namespace },
        spec: recordToLeaseSpec(record),
      },
      this.opts(),
    );
  }

  async update(record: LeaderElectionRecord): Promise<void> {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    this.lease = await this.leases.update({ ...this.lease, spec: recordToLeaseSpec(record) }, this.opts());
  }

  identity(): string {
    return this.id;
  }

  describe(): string {
    return `${this.namespace}/${this.name}`;
  }
}
