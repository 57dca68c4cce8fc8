// The proxier (upstream pkg/proxy/{iptables,nftables,ipvs}/proxier.go, the
// parts common to all three): informer handlers only record changes and ask
// the bounded-frequency runner for a sync; nothing syncs before services and
// endpoint slices are both synced; a sync renders the whole ruleset and
// applies it in one step; health and metrics are updated after success only.

import type { EndpointSlice, Service } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import type { ProxyMode } from '../config.js';
import type { ProxyHealth } from '../health.js';
import type { ProxyMetrics } from '../metrics.js';
import { BoundedFrequencyRunner, type RunnerClock } from '@kubelab/client';
import type { Backend, Rendered } from './backend.js';
import { backendFor } from './backends.js';
import { EndpointsChangeTracker, ServiceChangeTracker, takeSnapshot } from './changetracker.js';
import type { CommandRunner } from '@kubelab/component-base';
import type { ProxyConfig, ProxySnapshot } from './types.js';
import { healthCheckNodePorts, localReadyEndpoints } from '../service-health.js';

export interface ProxierOptions {
  mode: ProxyMode;
  config: ProxyConfig;
  minSyncPeriodMs: number;
  syncPeriodMs: number;
  /** Runs the kernel tools; without one the proxier only renders. */
  runner?: CommandRunner;
  /** 'never' forces render mode (e.g. `pnpm kubelab up` as an ordinary user). */
  apply?: 'auto' | 'never';
  logger: Logger;
  metrics: ProxyMetrics;
  health: ProxyHealth;
  clock?: RunnerClock;
  /** The backend to use (tests); a new one for `mode` by default. */
  backend?: Backend;
  /** Told after each successful sync which health check ports and local endpoints there are (upstream serviceHealthServer). */
  serviceHealth?: { syncServices(ports: Map<string, number>): void; syncEndpoints(counts: Map<string, number>): void };
  /** Told the snapshot after each successful sync (the local runner's socket-LB map, socket-lb.ts). */
  onSynced?: (snap: ProxySnapshot) => void;
  /** Told every sync's outcome, failed ones included (the sync record on NATS, sync-record.ts). Must not throw. */
  onSyncResult?: (result: SyncResult) => void;
}

/** What one syncProxyRules did, for the sync record. */
export interface SyncResult {
  /** ms since the epoch. */
  startedAt: number;
  durationMs: number;
  fullSync: boolean;
  snapshot: ProxySnapshot;
  /** Rules written (0 when the sync failed). */
  rules: number;
  /** Whether the rules went to the kernel (else they were only rendered). */
  applied: boolean;
  /** The first change that queued this sync (`Service default/web`), and how many changes it took in. */
  trigger?: string;
  changes: number;
  error?: string;
}

export interface RulesView {
  /** `kernel` when read back after applying, `rendered` in render mode. */
  source: 'kernel' | 'rendered';
  mode: ProxyMode;
  /** The ruleset text; read from the kernel (or formatted) on first use, not on every sync. */
  text(): Promise<string>;
  ruleCount: number;
  syncedAt: number;
  /** Whether the sync that produced this view rewrote every service (false: only changed ones). */
  fullSync: boolean;
}

/** Upstream's FullSyncPeriod: every sync in between rewrites only what changed. */
export const FULL_SYNC_PERIOD_MS = 60 * 60 * 1000;

export class Proxier {
  readonly backend: Backend;
  private readonly services = new ServiceChangeTracker();
  private readonly endpoints: EndpointsChangeTracker;
  private readonly runnerLoop: BoundedFrequencyRunner;
  private servicesSynced = false;
  private endpointSlicesSynced = false;
  private applyReason: string | undefined = 'not probed yet';
  private probed = false;
  private view: RulesView | undefined;
  private syncs = 0;
  /** First sync and after a failure: rewrite everything (upstream needFullSync). */
  private needFullSync = true;
  private lastFullSync = Number.NEGATIVE_INFINITY;
  /** Services changed since the last successful sync. */
  private pendingChanged = new Set<string>();
  /** The first change since the last sync and the count (the sync record's trigger). */
  private trigger: string | undefined;
  private changes = 0;

  constructor(private readonly opts: ProxierOptions) {
    this.backend = opts.backend ?? backendFor(opts.mode);
    this.endpoints = new EndpointsChangeTracker(opts.config.nodeName);
    this.runnerLoop = new BoundedFrequencyRunner({
      name: 'sync-runner',
      fn: () => this.syncProxyRules(),
      minIntervalMs: opts.minSyncPeriodMs,
      maxIntervalMs: opts.syncPeriodMs,
      retryIntervalMs: opts.syncPeriodMs,
      ...(opts.clock ? { clock: opts.clock } : {}),
      onError: (err) => opts.logger.error('Sync failed', { err }),
    });
  }

  private get initialized(): boolean {
    return this.servicesSynced && this.endpointSlicesSynced;
  }

  /** Whether rules go to the kernel (after probe) or are only rendered. */
  get applying(): boolean {
    return this.probed && this.applyReason === undefined;
  }

  /** Decides apply vs render once, logging why when rules will not be applied. */
  async probe(): Promise<void> {
    if (this.probed) return;
    if (this.opts.apply === 'never') this.applyReason = 'apply disabled (--apply=never)';
    else if (!this.opts.runner) this.applyReason = 'no command runner';
    else this.applyReason = await this.backend.probe(this.opts.runner);
    this.probed = true;
    if (this.applyReason) {
      this.opts.logger.info(`Render mode: ${this.opts.mode} rules are computed and served on /rules but not applied to the kernel`, { reason: this.applyReason });
    } else {
      this.opts.logger.info(`Apply mode: ${this.opts.mode} rules are applied to this network namespace`);
    }
  }

  start(): void {
    this.runnerLoop.loop();
  }

  stop(): void {
    this.runnerLoop.stop();
  }

  /** Queues a sync (Sync()): counts for health and the queued-timestamp metric. */
  sync(): void {
    this.opts.health.queued();
    this.opts.metrics.syncProxyRulesLastQueuedTimestamp.set(Date.now() / 1000);
    this.runnerLoop.run();
  }

  onServiceAdd(svc: Service): void {
    this.onServiceUpdate(undefined, svc);
  }
  onServiceUpdate(old: Service | undefined, svc: Service): void {
    if (this.services.update(old, svc) && this.noteChange('Service', svc) && this.initialized) this.sync();
  }
  onServiceDelete(svc: Service): void {
    if (this.services.update(svc, undefined) && this.noteChange('Service', svc) && this.initialized) this.sync();
  }
  onServicesSynced(): void {
    this.servicesSynced = true;
    if (this.initialized) this.sync();
  }

  /** Remembers what queued the next sync; true, so it chains after a tracker's verdict. */
  private noteChange(kind: 'Service' | 'EndpointSlice', obj: { metadata?: { namespace?: string; name?: string } }): true {
    if (this.changes++ === 0) this.trigger = `${kind} ${obj.metadata?.namespace ?? 'default'}/${obj.metadata?.name ?? ''}`;
    return true;
  }

  onEndpointSliceAdd(slice: EndpointSlice): void {
    if (this.endpoints.endpointSliceUpdate(slice, false) && this.noteChange('EndpointSlice', slice) && this.initialized) this.sync();
  }
  onEndpointSliceUpdate(_old: EndpointSlice | undefined, slice: EndpointSlice): void {
    this.onEndpointSliceAdd(slice);
  }
  onEndpointSliceDelete(slice: EndpointSlice): void {
    if (this.endpoints.endpointSliceUpdate(slice, true) && this.noteChange('EndpointSlice', slice) && this.initialized) this.sync();
  }
  onEndpointSlicesSynced(): void {
    this.endpointSlicesSynced = true;
    if (this.initialized) this.sync();
  }

  /** The current ruleset view (undefined before the first successful sync). */
  rules(): RulesView | undefined {
    return this.view;
  }

  get syncCount(): number {
    return this.syncs;
  }

  /** Resolves when no sync is running. */
  idle(): Promise<void> {
    return this.runnerLoop.idle();
  }

  /** One sync: render everything, apply once, then publish. False asks for a retry. */
  async syncProxyRules(): Promise<boolean> {
    const { logger, metrics, config, mode } = this.opts;
    if (!this.initialized) {
      logger.debug(`Not syncing ${mode} until Services and EndpointSlices have been received from master`);
      return true;
    }
    await this.probe();
    const start = performance.now();
    const now0 = this.opts.clock?.now() ?? Date.now();
    const full = this.needFullSync || now0 - this.lastFullSync > FULL_SYNC_PERIOD_MS;
    for (const k of this.services.takeChanged()) this.pendingChanged.add(k);
    for (const k of this.endpoints.takeChanged()) this.pendingChanged.add(k);
    const snap = takeSnapshot(this.services, this.endpoints);
    const { trigger, changes } = this;
    this.trigger = undefined;
    this.changes = 0;
    const startedAt = Date.now();
    const report = (rules: number, error?: string) => {
      try {
        this.opts.onSyncResult?.({
          startedAt,
          durationMs: performance.now() - start,
          fullSync: full,
          snapshot: snap,
          rules,
          applied: this.applying,
          ...(trigger ? { trigger } : {}),
          changes,
          ...(error ? { error } : {}),
        });
      } catch (err) {
        logger.debug('Sync result not reported', { err });
      }
    };
    let rendered: Rendered;
    let text: () => Promise<string>;
    try {
      if (this.applying) {
        const runner = this.opts.runner!;
        rendered = await this.backend.apply(runner, snap, config, { full, changed: this.pendingChanged });
        let read: Promise<string> | undefined;
        text = () => (read ??= this.backend.readBack(runner));
      } else {
        rendered = this.backend.render(snap, config);
        const r = rendered;
        text = async () => r.text;
      }
    } catch (err) {
      this.needFullSync = true;
      logger.error(`Failed to sync ${mode} rules`, { err, retryingAfter: `${this.opts.syncPeriodMs}ms` });
      metrics.syncFailuresTotal.inc({ mode });
      if (mode === 'iptables') metrics.iptablesRestoreFailuresTotal.inc();
      if (mode === 'nftables') metrics.nftablesSyncFailuresTotal.inc();
      metrics.syncProxyRulesLatency.observe((performance.now() - start) / 1000);
      report(0, (err as Error).message ?? String(err));
      return false;
    }
    const now = Date.now();
    metrics.syncProxyRulesLatency.observe((performance.now() - start) / 1000);
    if (rendered.detail) for (const [table, n] of Object.entries(rendered.detail)) metrics.iptablesRulesTotal.set({ table }, n);
    metrics.rules.set({ mode }, rendered.ruleCount);
    metrics.syncProxyRulesLastTimestamp.set(now / 1000);
    this.opts.health.updated();
    if (this.opts.serviceHealth) {
      this.opts.serviceHealth.syncServices(healthCheckNodePorts(snap));
      this.opts.serviceHealth.syncEndpoints(localReadyEndpoints(snap));
    }
    this.opts.onSynced?.(snap);
    if (full) {
      this.needFullSync = false;
      this.lastFullSync = now0;
    }
    this.pendingChanged = new Set();
    this.view = { source: this.applying ? 'kernel' : 'rendered', mode, text, ruleCount: rendered.ruleCount, syncedAt: now, fullSync: full };
    this.syncs++;
    report(rendered.ruleCount);
    logger.debug('SyncProxyRules complete', { services: snap.services.length, rules: rendered.ruleCount, fullSync: full, elapsedMs: Math.round(performance.now() - start) });
    return true;
  }
}
