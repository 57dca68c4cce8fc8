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

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    let fired = false;
    const t = setTimeout(
      () => {
        fired = true;
        fn();
      },
      Math.max(0, ms),
    );
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
