// How far behind the worker's event loop runs, for the pod sync admission of
// its hollow nodes (SyncSlots in @kubelab/kubelet): a 100-ms timer's delay
// past its due time, the measure of component-base's nodejs_eventloop_lag
// gauges. The worker counts as overloaded from a tick LAG_HIGH_MS late until
// one comes within LAG_LOW_MS, so admission does not flip at every tick.

export const LAG_SAMPLE_MS = 100;
export const LAG_HIGH_MS = 250;
export const LAG_LOW_MS = 50;

/** Whether the loop counts as overloaded after a tick `lateMs` late (hysteresis between the two limits). */
export function overloadedAfter(was: boolean, lateMs: number, highMs = LAG_HIGH_MS, lowMs = LAG_LOW_MS): boolean {
  if (lateMs >= highMs) return true;
  if (lateMs <= lowMs) return false;
  return was;
}

export class LoopLag {
  private busy = false;
  private readonly timer: NodeJS.Timeout;

  /** Samples every LAG_SAMPLE_MS; `onTick` runs after each sample (the admission lets waiting syncs in). */
  constructor(onTick: () => void = () => {}) {
    let due = performance.now() + LAG_SAMPLE_MS;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.busy = overloadedAfter(this.busy, now - due);
      due = now + LAG_SAMPLE_MS;
      onTick();
    }, LAG_SAMPLE_MS);
    this.timer.unref();
  }

  overloaded(): boolean {
    return this.busy;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
