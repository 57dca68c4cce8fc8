// One probe of one container of one pod (upstream prober/worker.go): a loop
// of doProbe() steps, one per period. doProbe holds the rules: initial
// results, initial delay, startup gating, consecutive-result thresholds and
// a reset whenever the container ID changes.

import { isPodTerminal, type Container, type Pod, type PodStatus } from '@kubelab/api';
import type { Clock } from '@kubelab/client';
import type { Prober } from './prober.js';
import type { Result, ResultsManager } from './results.js';
import { probeTimings, type ProbeTimings, type ProbeType } from './types.js';

/** Where the worker reads the pod's current API status (the status manager). */
export interface PodStatusProvider {
  getPodStatus(uid: string): PodStatus | undefined;
}

export interface WorkerDeps {
  prober: Pick<Prober, 'probe'>;
  results: ResultsManager;
  statusProvider: PodStatusProvider;
  clock: Clock;
  /** When the prober manager started: probes of a fresh kubelet are spread out. */
  managerStart: number;
  /** Kubelet time runs this many times faster (delays and periods shrink); default 1. */
  timeScale?: number;
  /** Precise start time of a container (the API status has second precision). */
  startedAt?: (podUid: string, containerId: string) => number | undefined;
}

/** Upstream's initial result per probe type. */
export function initialResult(type: ProbeType): Result {
  return type === 'Readiness' ? 'Failure' : type === 'Liveness' ? 'Success' : 'Unknown';
}

export class Worker {
  readonly timings: ProbeTimings;
  private containerId = '';
  private lastResult: Result = 'Unknown';
  private resultRun = 0;
  private onHold = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(
    readonly pod: Pod,
    readonly container: Container,
    readonly type: ProbeType,
    private readonly deps: WorkerDeps,
    private readonly onExit: (w: Worker) => void = () => {},
  ) {
    const spec = type === 'Liveness' ? container.livenessProbe : type === 'Readiness' ? container.readinessProbe : container.startupProbe;
    if (!spec) throw new Error(`container ${container.name} has no ${type} probe`);
    this.timings = probeTimings(spec);
  }

  /** One probe step; returns whether the worker should keep going. */
  async doProbe(): Promise<boolean> {
    const { results, statusProvider, clock } = this.deps;
    const uid = this.pod.metadata.uid ?? '';
    const status = statusProvider.getPodStatus(uid);
    // The pod has not been synced yet, or is gone: wait for more information.
    if (!status) return true;
    if (isPodTerminal({ ...this.pod, status })) return false;
    const c = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])].find((s) => s.name === this.container.name);
    if (!c || !c.containerID) return true;

    if (this.containerId !== c.containerID) {
      if (this.containerId) results.remove(this.containerId);
      this.containerId = c.containerID;
      results.set(this.containerId, initialResult(this.type), uid);
      // A new container: resume probing.
      this.onHold = false;
      this.lastResult = 'Unknown';
      this.resultRun = 0;
    }
    if (this.onHold) return true;

    if (!c.state?.running) {
      results.set(this.containerId, 'Failure', uid);
      // Stop if the container will not be restarted.
      return !c.state?.terminated || this.pod.spec?.restartPolicy !== 'Never';
    }

    // Graceful shutdown: liveness and startup stop failing the container.
    if (this.pod.metadata.deletionTimestamp && (this.type === 'Liveness' || this.type === 'Startup')) {
      results.set(this.containerId, 'Success', uid);
      return false;
    }

    const startedAt = this.deps.startedAt?.(uid, c.containerID) ?? (c.state.running.startedAt ? Date.parse(c.state.running.startedAt) : clock.now());
    if (clock.now() - startedAt < (this.timings.initialDelaySeconds * 1000) / (this.deps.timeScale ?? 1)) return true;

    if (c.started) {
      // Startup probing ends once the container has started (kept for a restart).
      if (this.type === 'Startup') return true;
    } else if (this.type !== 'Startup') {
      // Liveness and readiness wait for startup.
      return true;
    }

    const r = await this.deps.prober.probe(this.type, this.pod, status, this.container, c.containerID);
    if (this.stopped) return false;
    // A probe error is thrown away.
    if (r.error !== undefined) return true;

    if (this.lastResult === r.result) this.resultRun++;
    else {
      this.lastResult = r.result;
      this.resultRun = 1;
    }
    if ((r.result === 'Failure' && this.resultRun < this.timings.failureThreshold) || (r.result === 'Success' && this.resultRun < this.timings.successThreshold)) {
      return true;
    }
    results.set(this.containerId, r.result, uid);
    if ((this.type === 'Liveness' || this.type === 'Startup') && r.result === 'Failure') {
      // The container will be restarted: hold until a new container ID appears.
      this.onHold = true;
      this.resultRun = 0;
    }
    return true;
  }

  /** Starts the loop: an optional spread-out first delay, then a step per period. */
  start(): void {
    if (this.running) return;
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    const period = (this.timings.periodSeconds * 1000) / (this.deps.timeScale ?? 1);
    if (period > this.deps.clock.now() - this.deps.managerStart) await this.sleep(Math.random() * period);
    try {
      while (!this.stopped) {
        let keepGoing = true;
        try {
          keepGoing = await this.doProbe();
        } catch {
          keepGoing = true;
        }
        if (!keepGoing || this.stopped) break;
        await this.sleep(period);
      }
    } finally {
      if (this.containerId) this.deps.results.remove(this.containerId);
      this.stopped = true;
      this.onExit(this);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }

  /** Probes now instead of waiting for the next tick (upstream manualTriggerCh). */
  trigger(): void {
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
  }

  /** Idempotent, never blocks. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.trigger();
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}
