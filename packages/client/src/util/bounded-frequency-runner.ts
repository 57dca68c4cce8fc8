// The bounded-frequency runner (upstream pkg/util/async BoundedFrequencyRunner):
// bursts of run() requests collapse into one call of fn, never more often than
// minInterval, and fn runs at least every maxInterval (the full resync). A
// failed run is retried after retryAfter(). Time comes from a Clock so tests
// step it by hand.

import { realClock, type Clock, type Timer } from './clock.js';

/** The part of @kubelab/client's Clock the runner needs (tests step a FakeClock). */
export type RunnerClock = Pick<Clock, 'now' | 'setTimeout'>;

export interface BoundedFrequencyRunnerOptions {
  name: string;
  /** One sync; resolves false (or throws) when it failed and should be retried. */
  fn: () => Promise<boolean>;
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Delay before retrying a failed sync (upstream: the sync period). */
  retryIntervalMs?: number;
  clock?: RunnerClock;
  onError?: (err: unknown) => void;
}

export class BoundedFrequencyRunner {
  private readonly clock: RunnerClock;
  private lastRun = Number.NEGATIVE_INFINITY;
  private timer: Timer | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | undefined;
  private pending = false;
  private stopped = true;

  constructor(private readonly opts: BoundedFrequencyRunnerOptions) {
    this.clock = opts.clock ?? realClock;
  }

  /** Starts the periodic loop; the first run happens when run() is first called or after maxInterval. */
  loop(): void {
    this.stopped = false;
    this.schedule(this.opts.maxIntervalMs);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.stop();
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** Requests a run as soon as minInterval allows. */
  run(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    const wait = Math.max(0, this.lastRun + this.opts.minIntervalMs - this.clock.now());
    this.schedule(wait);
  }

  /** Schedules a retry after ms unless something runs earlier. */
  retryAfter(ms: number): void {
    if (!this.stopped) this.schedule(ms);
  }

  /** Resolves when the run in progress (if any) finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Arms the timer for `ms` from now unless it is already armed earlier. */
  private schedule(ms: number): void {
    const at = this.clock.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    this.timer?.stop();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      void this.tick();
    }, ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.lastRun = this.clock.now();
    let ok = false;
    this.running = (async () => {
      try {
        ok = await this.opts.fn();
      } catch (err) {
        this.opts.onError?.(err);
        ok = false;
      }
    })();
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    this.schedule(this.opts.maxIntervalMs);
    if (!ok) this.schedule(this.opts.retryIntervalMs ?? this.opts.maxIntervalMs);
    if (this.pending) {
      this.pending = false;
      this.run();
    }
  }
}
