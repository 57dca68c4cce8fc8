// Time as a dependency (k8s.io/utils/clock): every loop in this package reads
// time and waits through a Clock, so tests step a FakeClock instead of sleeping.

export interface Timer {
  /** Cancels the timer; false when it had already fired or been stopped. */
  stop(): boolean;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs fn once after ms. */
  setTimeout(fn: () => void, ms: number): Timer;
  /** Resolves after ms, or as soon as signal aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The longest delay Node's setTimeout takes (2^31-1 ms, ~24.8 days): a longer
 * one fires after 1 ms, so realClock waits for it in steps (a kubelet
 * certificate's rotation deadline is months away).
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    let fired = false;
    let t: ReturnType<typeof setTimeout>;
    const arm = (left: number) => {
      t = setTimeout(
        () => {
          if (left > MAX_TIMER_DELAY_MS) return arm(left - MAX_TIMER_DELAY_MS);
          fired = true;
          fn();
        },
        Math.min(left, MAX_TIMER_DELAY_MS),
      );
    };
    arm(Math.max(0, ms));
    return {
      stop() {
        if (fired) return false;
        clearTimeout(t);
        fired = true;
        return true;
      },
    };
  },
  sleep(ms, signal) {
    return sleepOn(realClock, ms, signal);
  },
};

/** sleep() built from setTimeout, shared by real and fake clocks. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      timer.stop();
      resolve();
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
