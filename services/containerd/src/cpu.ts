// Every container's shell runs on the runtime's one thread, and just-bash
// awaits builtins as microtasks only: a busy loop (`while :; do :; done`)
// would never let a timer, a CRI call or another container run. Each loop
// pass and each write to a /proc fd file is a checkpoint (shell.ts,
// containerfs.ts); once the shells have held the thread for SLICE_MS, the
// checkpoint hands it back (setImmediate) before the shell goes on. The time
// a container's shells ran between checkpoints is its CPU usage, as its
// cgroup would count it: a busy loop shows about one core.

/** Longest the shells hold the thread before timers and I/O get their turn. */
const SLICE_MS = 4;

let sliceStart = 0;
let sliceId = 0;
let sliceOpen = false;
const closeSlice = () => {
  sliceOpen = false;
};

/** A slice starts with the first checkpoint of an event-loop turn and again after each hand-back. */
function openSlice(now: number): void {
  sliceStart = now;
  sliceId++;
  if (!sliceOpen) {
    sliceOpen = true;
    setImmediate(closeSlice);
  }
}

/** How long the shells have held the thread in this slice. */
function heldMs(now = performance.now()): number {
  if (!sliceOpen) openSlice(now);
  return now - sliceStart;
}

/** One container's checkpoints and the time its shells ran. */
export class CpuMeter {
  /** Wall milliseconds this container's shells ran, counted between checkpoints of one slice. */
  ranMs = 0;
  private lastAt = 0;
  private lastSlice = -1;
  private sample: { at: number; ranMs: number; cores: number } | undefined;
  private readonly startedAt = performance.now();
  private runSlice = -1;
  private runSince = 0;

  /** Counts the run since the last checkpoint; once the slice is used up, returns a promise that resolves after the thread went round the event loop. */
  checkpoint(): Promise<void> | undefined {
    const now = performance.now();
    const held = heldMs(now);
    if (this.lastSlice === sliceId) this.ranMs += now - this.lastAt;
    this.lastAt = now;
    this.lastSlice = sliceId;
    if (held < SLICE_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        const t = performance.now();
        openSlice(t);
        this.lastAt = t;
        this.lastSlice = sliceId;
        resolve();
      }),
    );
  }

  /** How long one of this container's shells has held the thread without a break (asked on every loop pass: see process.ts guardRunawayLoops). */
  runningMs(now = performance.now()): number {
    heldMs(now);
    if (this.runSlice !== sliceId) {
      this.runSlice = sliceId;
      this.runSince = now;
    }
    return now - this.runSince;
  }

  /**
   * Cores in use: run time over wall time since the previous call, as
   * containerd derives usage_nano_cores from two samples (the first call:
   * since the start); a call within 100 ms of the last repeats its figure.
   */
  cores(now = performance.now()): number {
    const s = this.sample;
    if (s && now - s.at < 100) return s.cores;
    const since = s ?? { at: this.startedAt, ranMs: 0 };
    const cores = now > since.at ? (this.ranMs - since.ranMs) / (now - since.at) : 0;
    this.sample = { at: now, ranMs: this.ranMs, cores };
    return cores;
  }
}
