// client-go's leaderelection: acquire a lock, renew it every retryPeriod, and
// give up leadership when a renewal has not succeeded within renewDeadline
// (e.g. the apiserver is unreachable), so two leaders never act at once
// longer than the lease allows. Optionally release the lock on stop.

import { isNotFound } from '@kubelab/api';
import { realClock, type Clock } from '../util/clock.js';
import { defaultLogger, type ClientLogger } from '../util/logger.js';
import { noopLeaderMetrics, type LeaderMetricsProvider } from './metrics.js';
import type { LeaderElectionRecord, ResourceLock } from './resourcelock.js';

/** upstream JitterFactor: retries wait retryPeriod plus up to 1.2x more. */
export const JITTER_FACTOR = 1.2;

export interface LeaderCallbacks {
  /** Called when this instance becomes leader; signal aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called when run() ends, leader or not (as upstream's deferred call). */
  onStoppedLeading(): void;
  /** Called when the observed leader changes (including to this instance). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: ResourceLock;
  /** How long non-leaders wait after the last observed change before taking over (default 15 s). */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a renewal before giving up (default 10 s). */
  renewDeadlineMs?: number;
  /** Interval between attempts (default 2 s). */
  retryPeriodMs?: number;
  /** Clear the holder when run() is stopped, so another instance takes over at once. */
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  /** For logs, and the `name` label of leader_election_master_status (upstream config.Name). */
  name?: string;
  /** leader_election_master_status (default: not recorded). */
  metrics?: LeaderMetricsProvider;
  clock?: Clock;
  logger?: ClientLogger;
  random?: () => number;
}

/** Upstream's checks in NewLeaderElector; the messages match. */
export function validateLeaderElectionConfig(c: Required<Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>> & LeaderElectionConfig): void {
  if (c.leaseDurationMs <= c.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (c.leaseDurationMs < 1) throw new Error('leaseDuration must be greater than zero');
  if (c.renewDeadlineMs < 1) throw new Error('renewDeadline must be greater than zero');
  if (c.retryPeriodMs < 1) throw new Error('retryPeriod must be greater than zero');
  if (!c.callbacks?.onStartedLeading) throw new Error('OnStartedLeading callback must not be nil');
  if (!c.callbacks?.onStoppedLeading) throw new Error('OnStoppedLeading callback must not be nil');
  if (!c.lock) throw new Error('Lock must not be nil.');
  if (!c.lock.identity()) throw new Error('Lock identity is empty');
}

export class LeaderElector {
  private readonly lock: ResourceLock;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly clock: Clock;
  private readonly log: ClientLogger;
  private readonly random: () => number;
  private observedRecord: LeaderElectionRecord | undefined;
  private observedTime = 0;
  private reportedLeader = '';
  private inflight: Promise<boolean> | undefined;
  private readonly metrics: LeaderMetricsProvider;

  constructor(private readonly config: LeaderElectionConfig) {
    this.leaseDurationMs = config.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = config.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = config.retryPeriodMs ?? 2_000;
    validateLeaderElectionConfig({ ...config, leaseDurationMs: this.leaseDurationMs, renewDeadlineMs: this.renewDeadlineMs, retryPeriodMs: this.retryPeriodMs });
    this.lock = config.lock;
    this.clock = config.clock ?? realClock;
    this.log = config.logger ?? defaultLogger;
    this.random = config.random ?? Math.random;
    this.metrics = config.metrics ?? noopLeaderMetrics;
    // A new elector is a standby until it acquires (upstream NewLeaderElector calls leaderOff).
    this.metrics.leaderOff(this.metricsName());
  }

  private metricsName(): string {
    return this.config.name ?? this.lock.describe();
  }

  /** Whether the last observed record names this instance. */
  isLeader(): boolean {
    return this.observedRecord?.holderIdentity === this.lock.identity();
  }

  /** The identity of the last observed leader ('' if none). */
  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? '';
  }

  /**
   * Campaigns until leader, leads until leadership is lost or signal aborts,
   * then calls onStoppedLeading. Resolves when all of that is done.
   */
  async run(signal: AbortSignal): Promise<void> {
    const leading = new AbortController();
    const stopLeading = () => leading.abort();
    signal.addEventListener('abort', stopLeading, { once: true });
    try {
      if (!(await this.acquire(signal))) return;
      this.log.info('successfully acquired lease', { lease: this.lock.describe(), identity: this.lock.identity() });
      this.metrics.leaderOn(this.metricsName());
      void Promise.resolve()
        .then(() => this.config.callbacks.onStartedLeading(leading.signal))
        .catch((err) => this.log.error('OnStartedLeading failed', { err }));
      await this.renew(signal);
      leading.abort();
      if (signal.aborted && this.config.releaseOnCancel) await this.release();
    } finally {
      leading.abort();
      signal.removeEventListener('abort', stopLeading);
      this.metrics.leaderOff(this.metricsName());
      this.config.callbacks.onStoppedLeading();
    }
  }

  /** Tries until the lock is ours; false if signal aborted first. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    this.log.info('attempting to acquire leader lease', { lease: this.lock.describe() });
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew(this.renewDeadlineMs, signal)) return true;
      this.log.debug('failed to acquire lease', { lease: this.lock.describe(), holder: this.getLeader() });
      const wait = this.retryPeriodMs + this.random() * JITTER_FACTOR * this.retryPeriodMs;
      await this.clock.sleep(wait, signal);
    }
    return false;
  }

  /** Renews every retryPeriod; returns when a renewal fails for renewDeadline or signal aborts. */
  private async renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = this.clock.now() + this.renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted) {
        const left = deadline - this.clock.now();
        if (left <= 0) break;
        if (await this.tryAcquireOrRenew(left, signal)) {
          renewed = true;
          break;
        }
        const pause = Math.min(this.retryPeriodMs, deadline - this.clock.now());
        if (pause <= 0) break;
        await this.clock.sleep(pause, signal);
      }
      if (signal.aborted) return;
      if (!renewed) {
        this.log.error('failed to renew lease: timed out waiting for the condition', { lease: this.lock.describe() });
        this.log.info('leaderelection lost', { lease: this.lock.describe(), identity: this.lock.identity() });
        return;
      }
      await this.clock.sleep(this.retryPeriodMs, signal);
    }
  }

  /** Clears the holder if we hold the lock (ReleaseOnCancel). */
  async release(): Promise<boolean> {
    if (!this.isLeader()) return true;
    // let a renewal still on the wire land first, or the two writes conflict
    if (this.inflight) {
      const settled = new AbortController();
      await Promise.race([this.inflight, this.clock.sleep(this.renewDeadlineMs, settled.signal)]);
      settled.abort();
    }
    let old: LeaderElectionRecord;
    try {
      old = await this.lock.get();
    } catch (err) {
      this.log.error('Failed to release lock', { lease: this.lock.describe(), err });
      return false;
    }
    if (old.holderIdentity !== this.lock.identity()) return true;
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaderTransitions: old.leaderTransitions,
      leaseDurationSeconds: 1,
      renewTime: now,
      acquireTime: now,
    };
    return this.writeRecord(record, 'Failed to release lock');
  }

  /** One attempt to take or keep the lock (tryAcquireOrRenew); never throws. */
  async tryAcquireOrRenew(timeoutMs: number = this.renewDeadlineMs, signal?: AbortSignal): Promise<boolean> {
    const settled = new AbortController();
    const stop = signal ? AbortSignal.any([signal, settled.signal]) : settled.signal;
    const timedOut = this.clock.sleep(timeoutMs, stop).then(() => false);
    const attempt = this.attempt();
    this.inflight = attempt;
    try {
      return await Promise.race([attempt, timedOut]);
    } finally {
      settled.abort();
    }
  }

  private async attempt(): Promise<boolean> {
    const now = this.clock.now();
    const id = this.lock.identity();
    const record: LeaderElectionRecord = {
      holderIdentity: id,
      leaseDurationSeconds: Math.max(1, Math.round(this.leaseDurationMs / 1000)),
      renewTime: now,
      acquireTime: now,
      leaderTransitions: 0,
    };

    let old: LeaderElectionRecord;
    try {
      old = await this.lock.get();
    } catch (err) {
      if (!isNotFound(err)) {
        this.log.error('error retrieving resource lock', { lease: this.lock.describe(), err });
        return false;
      }
      try {
        await this.lock.create(record);
      } catch (createErr) {
        this.log.error('error initially creating leader election record', { lease: this.lock.describe(), err: createErr });
        return false;
      }
      this.setObserved(record);
      return true;
    }

    // a record we have not seen before restarts the lease clock, in our own time
    if (!this.observedRecord || !sameRecord(old, this.observedRecord)) this.setObserved(old);
    if (old.holderIdentity && this.observedTime + old.leaseDurationSeconds * 1000 > now && old.holderIdentity !== id) {
      this.log.debug('lock is held and has not yet expired', { lease: this.lock.describe(), holder: old.holderIdentity });
      return false;
    }

    if (old.holderIdentity === id) {
      record.acquireTime = old.acquireTime;
      record.leaderTransitions = old.leaderTransitions;
    } else {
      record.leaderTransitions = old.leaderTransitions + 1;
    }
    return this.writeRecord(record, 'Failed to update lock');
  }

  /** Writes record to the lock and observes it; false, logged as failure, when the write fails. */
  private async writeRecord(record: LeaderElectionRecord, failure: string): Promise<boolean> {
    try {
      await this.lock.update(record);
    } catch (err) {
      this.log.error(failure, { lease: this.lock.describe(), err });
      return false;
    }
    this.setObserved(record);
    return true;
  }

  private setObserved(r: LeaderElectionRecord): void {
    this.observedRecord = r;
    this.observedTime = this.clock.now();
    if (r.holderIdentity && r.holderIdentity !== this.reportedLeader) {
      this.reportedLeader = r.holderIdentity;
      try {
        this.config.callbacks.onNewLeader?.(r.holderIdentity);
      } catch (err) {
        this.log.error('OnNewLeader failed', { err });
      }
    }
  }
}

function sameRecord(a: LeaderElectionRecord, b: LeaderElectionRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaderTransitions === b.leaderTransitions
  );
}

/** Runs leader election until signal aborts (leaderelection.RunOrDie without the dying). */
export async function runLeaderElection(config: LeaderElectionConfig, signal: AbortSignal): Promise<void> {
  await new LeaderElector(config).run(signal);
}
