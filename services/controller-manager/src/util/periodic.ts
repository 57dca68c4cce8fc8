// A step run now and then every period until the signal aborts (upstream
// wait.UntilWithContext): the controllers upstream runs as periodic sweeps
// over their listers (pod GC, the CSR cleaner). The next run is scheduled
// after a step finishes, so steps never overlap; a failed step is logged by
// `onError` and the sweep goes on.

import type { Clock, Timer } from '@kubelab/client';

export function runEvery(clock: Clock, periodMs: () => number, signal: AbortSignal, step: () => Promise<void>, onError: (err: unknown) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    let timer: Timer | undefined;
    const tick = () => {
      if (signal.aborted) return resolve();
      void step()
        .catch(onError)
        .finally(() => {
          if (!signal.aborted) timer = clock.setTimeout(tick, periodMs());
        });
    };
    signal.addEventListener(
      'abort',
      () => {
        timer?.stop();
        resolve();
      },
      { once: true },
    );
    tick();
  });
}
