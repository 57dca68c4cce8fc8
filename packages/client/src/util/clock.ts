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
    const t = setTimeout(() => {
      fired = true;
      fn();
    }, Math.max(0, ms));
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

/** Formats ms-since-epoch as metav1.Time (RFC 3339, second precision, UTC). */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Formats ms-since-epoch as metav1.MicroTime (RFC 3339 with 6 fractional digits). */
export function formatMicroTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // ...ss.mmmZ
  return `${iso.slice(0, -1)}000Z`;
}

/** Parses metav1.Time/MicroTime; NaN when absent or malformed. */
export function parseTime(s: string | undefined | null): number {
  return s ? Date.parse(s) : Number.NaN;
}
