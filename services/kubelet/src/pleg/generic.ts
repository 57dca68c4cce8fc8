// The pod lifecycle event generator (upstream pkg/kubelet/pleg/generic.go):
// relists the runtime every second, diffs each container's state against
// the previous relist and emits events for the pods that changed. Container
// events streamed by the runtime (GetContainerEvents, upstream's "evented
// PLEG") only trigger an earlier relist. Health: a relist must have
// completed within the last 3 minutes.

import { formatDuration } from '@kubelab/component-base';
import type { Clock } from '@kubelab/client';
import { LABEL_POD_UID, type Container, type PodSandbox, type RuntimeService } from '../kuberuntime/cri.js';

export type PlegEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged';

export interface PodLifecycleEvent {
  podUid: string;
  type: PlegEventType;
  /** The container (or sandbox) ID. */
  data: string;
}

export type PlegState = 'running' | 'exited' | 'created' | 'unknown' | 'non-existent';

/** One relist: per pod UID, per container/sandbox ID, its state. */
export type Snapshot = Map<string, Map<string, PlegState>>;

/** Upstream generateEvents: the events for one container moving from old to new state. */
export function eventsFor(podUid: string, id: string, oldState: PlegState, newState: PlegState): PodLifecycleEvent[] {
  if (oldState === newState) return [];
  switch (newState) {
    case 'running':
      return [{ podUid, type: 'ContainerStarted', data: id }];
    case 'exited':
      return [{ podUid, type: 'ContainerDied', data: id }];
    case 'unknown':
    case 'created':
      return [{ podUid, type: 'ContainerChanged', data: id }];
    case 'non-existent':
      if (oldState === 'exited') return [{ podUid, type: 'ContainerRemoved', data: id }];
      return [
        { podUid, type: 'ContainerDied', data: id },
        { podUid, type: 'ContainerRemoved', data: id },
      ];
  }
}

/** All events between two relists, pod by pod. */
export function diffSnapshots(oldSnap: Snapshot, newSnap: Snapshot): PodLifecycleEvent[] {
  const events: PodLifecycleEvent[] = [];
  const pods = new Set([...oldSnap.keys(), ...newSnap.keys()]);
  for (const uid of pods) {
    const o = oldSnap.get(uid) ?? new Map<string, PlegState>();
    const n = newSnap.get(uid) ?? new Map<string, PlegState>();
    for (const id of new Set([...o.keys(), ...n.keys()])) {
      events.push(...eventsFor(uid, id, o.get(id) ?? 'non-existent', n.get(id) ?? 'non-existent'));
    }
  }
  return events;
}

const CONTAINER_STATE: Record<string, PlegState> = {
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_CREATED: 'created',
  CONTAINER_UNKNOWN: 'unknown',
};

/** Sees each relist's raw lists (upstream updateRunningPodAndContainerMetrics). */
export type RelistObserver = (sandboxes: PodSandbox[], containers: Container[]) => void;

export async function relistSnapshot(rt: RuntimeService, observe?: RelistObserver): Promise<Snapshot> {
  const [sandboxes, containers] = await Promise.all([rt.listPodSandbox(), rt.listContainers()]);
  observe?.(sandboxes, containers);
  const snap: Snapshot = new Map();
  const put = (uid: string | undefined, id: string, st: PlegState) => {
    if (!uid) return;
    let m = snap.get(uid);
    if (!m) snap.set(uid, (m = new Map()));
    m.set(id, st);
  };
  for (const s of sandboxes) put(s.labels[LABEL_POD_UID] ?? s.metadata.uid, s.id, s.state === 'SANDBOX_READY' ? 'running' : 'exited');
  for (const c of containers) put(c.labels[LABEL_POD_UID], c.id, CONTAINER_STATE[c.state] ?? 'unknown');
  return snap;
}

export const RELIST_THRESHOLD_MS = 3 * 60_000;
/** Upstream genericPlegRelistPeriod: without runtime events the generic PLEG relists every second. */
export const RELIST_PERIOD_MS = 1000;
/**
 * Upstream eventedPlegRelistPeriod and eventedPlegRelistThreshold: with EventedPLEG the runtime's
 * container events drive the PLEG and the generic relist is only a 5-minute safety net (healthy while
 * one ran within 10 minutes).
 */
export const EVENTED_RELIST_PERIOD_MS = 300_000;
export const EVENTED_RELIST_THRESHOLD_MS = 10 * 60_000;
/** The generic PLEG's relist period and health threshold (the threshold in kubelet time: divided by --time-scale). */
export function relistTiming(evented: boolean, timeScale = 1): { periodMs: number; thresholdMs: number } {
  return evented ? { periodMs: EVENTED_RELIST_PERIOD_MS, thresholdMs: EVENTED_RELIST_THRESHOLD_MS / timeScale } : { periodMs: RELIST_PERIOD_MS, thresholdMs: RELIST_THRESHOLD_MS / timeScale };
}

/** How soon a dropped event stream is opened again. */
const EVENT_STREAM_RETRY_MS = 5000;

export class GenericPLEG {
  private snapshot: Snapshot = new Map();
  private lastRelist = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopEvents: (() => void) | undefined;
  private relisting: Promise<void> | undefined;
  private stopped = true;
  relists = 0;
  /** The last relist's lists and when it asked for them (kubelet clock). */
  private listed: { at: number; sandboxes: PodSandbox[]; containers: Container[] } | undefined;
  /** Called with every relist's sandboxes and containers (the running pod/container gauges). */
  observeRelist: RelistObserver | undefined;

  constructor(
    private readonly rt: RuntimeService,
    private readonly clock: Clock,
    private readonly onEvents: (events: PodLifecycleEvent[]) => void,
    private readonly periodMs = 1000,
    private readonly thresholdMs = RELIST_THRESHOLD_MS,
    /** Also stream runtime container events (upstream EventedPLEG, alpha and off by default). */
    private readonly evented = false,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastRelist = this.clock.now();
    this.schedule(0);
    this.watchEvents();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.relist().finally(() => this.schedule(this.periodMs)), ms);
  }

  /** Streams runtime container events; each one brings the next relist forward. */
  private watchEvents(): void {
    if (!this.evented || !this.rt.getContainerEvents || this.stopped) return;
    this.stopEvents = this.rt.getContainerEvents(
      () => this.schedule(0),
      () => {
        this.stopEvents = undefined;
        // The stream ended (runtime restart): try again after a relist period.
        if (!this.stopped) setTimeout(() => this.watchEvents(), EVENT_STREAM_RETRY_MS).unref();
      },
    );
  }

  /** One relist; exported for tests. Concurrent calls share one run. */
  relist(): Promise<void> {
    if (!this.relisting) {
      this.relisting = (async () => {
        try {
          const at = this.clock.now();
          const next = await relistSnapshot(this.rt, (sandboxes, containers) => {
            this.listed = { at, sandboxes, containers };
            this.observeRelist?.(sandboxes, containers);
          });
          this.lastRelist = this.clock.now();
          this.relists++;
          const events = diffSnapshots(this.snapshot, next);
          this.snapshot = next;
          if (events.length) this.onEvents(events);
        } catch {
          // The runtime is unreachable: health degrades as time passes.
        } finally {
          this.relisting = undefined;
        }
      })();
    }
    return this.relisting;
  }

  /**
   * The sandboxes and containers of a relist that asked no longer than `maxAgeMs` ago, if one
   * did: periodic readers (housekeeping, log rotation) take these instead of listing again, as
   * upstream's take the runtime cache's pods while younger than its 2 s period.
   */
  recentLists(maxAgeMs: number): { sandboxes: PodSandbox[]; containers: Container[] } | undefined {
    const l = this.listed;
    return l && this.clock.now() - l.at <= maxAgeMs ? l : undefined;
  }

  hasPod(uid: string): boolean {
    return this.snapshot.has(uid);
  }

  /** Pod UIDs with containers or sandboxes in the last relist. */
  podUids(): string[] {
    return [...this.snapshot.keys()];
  }

  /** Upstream Healthy(): `pleg was last seen active 3m0.1s ago; threshold is 3m0s`. */
  healthy(): { ok: boolean; message: string } {
    const elapsed = this.clock.now() - this.lastRelist;
    if (elapsed > this.thresholdMs) {
      return { ok: false, message: `pleg was last seen active ${formatDuration(elapsed)} ago; threshold is ${formatDuration(this.thresholdMs)}` };
    }
    return { ok: true, message: '' };
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopEvents?.();
  }
}
