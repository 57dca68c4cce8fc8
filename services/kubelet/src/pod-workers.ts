// Per-pod workers (upstream pod_workers.go): every pod gets its own serial
// lane, so one slow pod never blocks another; updates that arrive while a
// sync runs collapse into one more sync; a sync may ask to run again at a
// given time (a back-off ending). A request to terminate the pod cancels the
// running sync (upstream UpdatePod's becameTerminating → cancelFn), so a sync
// that began before the deletion starts no container after it.

export type SyncFn = (uid: string) => Promise<{ retryAt?: number } | void>;

export interface UpdateOptions {
  /** The pod is to stop for good (deleted, evicted, gone from its source). */
  terminate?: boolean;
}

/** What the kubelet asks of its pod workers (unit tests give it a fake that runs nothing on its own). */
export interface PodWorkerQueue {
  update(uid: string, opts?: UpdateOptions): void;
  terminationSignal(uid: string): AbortSignal | undefined;
  forget(uid: string): void;
  known(): string[];
  whenIdle(): Promise<void>;
  stop(): void;
}

/**
 * Admission for the pod syncs of the hollow kubelets that share one process
 * (kubemark's hollow nodes each have a process and CPUs of their own; here
 * hundreds share one thread). While the process keeps up (`overloaded()`
 * false) up to `roomy` syncs hold a slot; once it lags, `capacity`, and the
 * rest wait in arrival order, so a burst of pod starts on every node cannot
 * queue so much work that each node's own heartbeats (runtime Status,
 * Lease, node status) wait past their thresholds. A sync gives its slot
 * back when it ends or after `holdMs`, whichever comes first: one waiting
 * out a grace period holds up no one for longer than that (so under lag
 * the limit is about `capacity` starts per `holdMs`, not a cap on syncs in
 * flight). `admit()` lets waiting syncs in once the lag is gone.
 */
export class SyncSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly capacity: number,
    private readonly overloaded: () => boolean = () => true,
    private readonly roomy = capacity,
    private readonly holdMs = 2_000,
  ) {}

  private room(): boolean {
    return this.running < (this.overloaded() ? this.capacity : this.roomy);
  }

  /**
   * Resolves once the sync may start, with the function that gives its slot back (a second call does nothing).
   * `first`: ahead of every waiting sync (a pod being stopped: a kill should not wait behind pod starts).
   */
  async acquire(first = false): Promise<() => void> {
    if (this.waiting.length === 0 && this.room()) this.running++;
    else await new Promise<void>((r) => (first ? this.waiting.unshift(r) : this.waiting.push(r)));
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.running--;
      this.admit();
    };
    const timer = setTimeout(release, this.holdMs);
    timer.unref();
    return release;
  }

  /** Starts waiting syncs while there is room (called as slots come back and as the process catches up). */
  admit(): void {
    while (this.waiting.length > 0 && this.room()) {
      this.running++;
      this.waiting.shift()!();
    }
  }

  /** Syncs waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}

interface Lane {
  running: boolean;
  pending: boolean;
  timer?: NodeJS.Timeout;
  retryAt?: number;
  /** Aborted once termination was requested; never reset (a terminating pod never runs again). */
  termination: AbortController;
}

export class PodWorkers implements PodWorkerQueue {
  private readonly lanes = new Map<string, Lane>();
  private stopped = false;
  private inflight = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly sync: SyncFn,
    private readonly onError: (uid: string, err: unknown) => void,
    private readonly now: () => number = Date.now,
    /** Shared with the other kubelets of a hollow worker (absent: every sync starts at once). */
    private readonly slots?: SyncSlots,
  ) {}

  /** Requests a sync of the pod (coalesced with any pending one); `terminate` also cancels the running one. */
  update(uid: string, opts: UpdateOptions = {}): void {
    if (this.stopped) return;
    let lane = this.lanes.get(uid);
    if (!lane) this.lanes.set(uid, (lane = { running: false, pending: false, termination: new AbortController() }));
    lane.pending = true;
    if (opts.terminate && !lane.termination.signal.aborted) lane.termination.abort();
    if (!lane.running) void this.run(uid, lane);
  }

  /**
   * Aborted once the pod's termination was requested: a sync checks it before
   * it creates or starts anything, and stops waiting on a kill of its own
   * (the next sync is the terminating one). Undefined for a pod without a lane.
   */
  terminationSignal(uid: string): AbortSignal | undefined {
    return this.lanes.get(uid)?.termination.signal;
  }

  private async run(uid: string, lane: Lane): Promise<void> {
    lane.running = true;
    this.inflight++;
    try {
      while (lane.pending && !this.stopped) {
        const release = this.slots ? await this.slots.acquire(lane.termination.signal.aborted) : undefined;
        if (this.stopped) {
          release?.();
          break;
        }
        // Cleared once the sync may start: updates that came while it waited for a turn are in this sync.
        lane.pending = false;
        try {
          const r = await this.sync(uid);
          if (r?.retryAt !== undefined) this.retryAt(uid, lane, r.retryAt);
        } catch (err) {
          this.onError(uid, err);
          this.retryAt(uid, lane, this.now() + 2000);
        } finally {
          release?.();
        }
      }
    } finally {
      lane.running = false;
      this.inflight--;
      if (this.inflight === 0) {
        const w = this.idle;
        this.idle = [];
        for (const f of w) f();
      }
    }
  }

  private retryAt(uid: string, lane: Lane, at: number): void {
    if (lane.timer && lane.retryAt !== undefined && lane.retryAt <= at) return;
    clearTimeout(lane.timer);
    lane.retryAt = at;
    lane.timer = setTimeout(
      () => {
        lane.timer = undefined;
        lane.retryAt = undefined;
        this.update(uid);
      },
      Math.max(0, at - this.now()) + 5,
    );
    lane.timer.unref();
  }

  /** Drops the lane of a pod that is gone for good. */
  forget(uid: string): void {
    const lane = this.lanes.get(uid);
    if (lane && !lane.running) {
      clearTimeout(lane.timer);
      this.lanes.delete(uid);
    }
  }

  known(): string[] {
    return [...this.lanes.keys()];
  }

  whenIdle(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  stop(): void {
    this.stopped = true;
    for (const l of this.lanes.values()) clearTimeout(l.timer);
  }
}
