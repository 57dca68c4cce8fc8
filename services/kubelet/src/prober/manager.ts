// The prober manager (upstream prober/prober_manager.go): one worker per
// (pod UID, container, probe type); adding a duplicate is a no-op; cleanup
// stops the workers of pods that are gone. It also applies the results to a
// pod's container statuses (started, ready).

import type { ContainerStatus, Pod, PodStatus } from '@kubelab/api';
import type { Clock } from '@kubelab/client';
import type { Prober } from './prober.js';
import { ResultsManager } from './results.js';
import type { ProbeType } from './types.js';
import { Worker, type PodStatusProvider } from './worker.js';

const TYPES: ProbeType[] = ['Startup', 'Readiness', 'Liveness'];

export class ProberManager {
  readonly liveness = new ResultsManager();
  readonly readiness = new ResultsManager();
  readonly startup = new ResultsManager();
  private readonly workers = new Map<string, Worker>();
  private readonly start: number;

  constructor(
    private readonly prober: Pick<Prober, 'probe'>,
    private readonly statusProvider: PodStatusProvider,
    private readonly clock: Clock,
    /** false in tests that step workers by hand. */
    private readonly autoStart = true,
    private readonly timeScale = 1,
    private readonly startedAt?: (podUid: string, containerId: string) => number | undefined,
  ) {
    this.start = clock.now();
  }

  private key(uid: string, container: string, type: ProbeType): string {
    return `${uid}/${container}/${type}`;
  }

  results(type: ProbeType): ResultsManager {
    return type === 'Liveness' ? this.liveness : type === 'Readiness' ? this.readiness : this.startup;
  }

  /** Creates workers for every probe the pod's containers declare. */
  addPod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    for (const c of containers) {
      for (const type of TYPES) {
        const spec = type === 'Liveness' ? c.livenessProbe : type === 'Readiness' ? c.readinessProbe : c.startupProbe;
        if (!spec) continue;
        const key = this.key(uid, c.name, type);
        if (this.workers.has(key)) continue;
        const w = new Worker(
          pod,
          c,
          type,
          {
            prober: this.prober,
            results: this.results(type),
            statusProvider: this.statusProvider,
            clock: this.clock,
            managerStart: this.start,
            timeScale: this.timeScale,
            ...(this.startedAt ? { startedAt: this.startedAt } : {}),
          },
          (done) => {
            if (this.workers.get(key) === done) this.workers.delete(key);
          },
        );
        this.workers.set(key, w);
        if (this.autoStart) w.start();
      }
    }
  }

  /** Stops every worker of the pod (its containers have stopped, or it is gone). */
  removePod(uid: string): void {
    for (const [key, w] of this.workers) {
      if (key.startsWith(`${uid}/`)) {
        w.stop();
        this.workers.delete(key);
      }
    }
  }

  /**
   * A terminating pod (upstream StopLivenessAndStartup): its liveness and
   * startup workers stop and drop their results, so no failure kills a
   * container; readiness goes on until the containers have stopped.
   */
  stopLivenessAndStartup(uid: string): void {
    for (const [key, w] of this.workers) {
      if (!key.startsWith(`${uid}/`) || w.type === 'Readiness') continue;
      w.stop();
      this.workers.delete(key);
    }
  }

  /** Stops workers of pods not in desired (upstream CleanupPods). */
  cleanupPods(desired: Set<string>): void {
    for (const [key, w] of this.workers) {
      const uid = key.slice(0, key.indexOf('/'));
      if (!desired.has(uid)) {
        w.stop();
        this.workers.delete(key);
      }
    }
  }

  /** Wakes every worker of the pod (a container just started). */
  triggerPod(uid: string): void {
    for (const [key, w] of this.workers) if (key.startsWith(`${uid}/`)) w.trigger();
  }

  worker(uid: string, container: string, type: ProbeType): Worker | undefined {
    return this.workers.get(this.key(uid, container, type));
  }

  get workerCount(): number {
    return this.workers.size;
  }

  /**
   * Fills `started` and `ready` of the container statuses from the probe
   * results (upstream UpdatePodStatus): without a startup probe a running
   * container has started; without a readiness probe a started one is ready.
   */
  updatePodStatus(pod: Pod, status: PodStatus): void {
    const specs = new Map((pod.spec?.containers ?? []).map((c) => [c.name, c]));
    const apply = (cs: ContainerStatus, sidecar: boolean) => {
      const spec = specs.get(cs.name) ?? pod.spec?.initContainers?.find((c) => c.name === cs.name);
      const running = !!cs.state?.running;
      let started = false;
      if (running) {
        if (!spec?.startupProbe) started = true;
        else started = !!cs.containerID && this.startup.get(cs.containerID) === 'Success';
      }
      cs.started = started;
      let ready = false;
      if (running && started) {
        if (!spec?.readinessProbe) ready = true;
        else {
          // No result yet counts as the worker's initial Failure.
          ready = !!cs.containerID && this.readiness.get(cs.containerID) === 'Success';
        }
      }
      cs.ready = ready;
      if (!sidecar && !running) cs.started = false;
    };
    for (const cs of status.containerStatuses ?? []) apply(cs, false);
    for (const cs of status.initContainerStatuses ?? []) {
      const spec = pod.spec?.initContainers?.find((c) => c.name === cs.name);
      if (spec?.restartPolicy === 'Always') apply(cs, true);
      else {
        // A regular init container is ready once it has succeeded.
        cs.ready = cs.state?.terminated?.exitCode === 0;
        cs.started = !!cs.state?.running;
      }
    }
  }

  stop(): void {
    for (const w of this.workers.values()) w.stop();
    this.workers.clear();
  }
}
