// Upstream syncLoop's guard: while the runtime has errors (its status check
// not done yet, the runtime down or not ready, the PLEG unhealthy) no pod is
// synced; "Skipping pod synchronization" is logged with them and the loop
// waits 100 ms, doubling to 5 s, before it looks again. The kubelet's pod
// workers ask the gate before each sync; a held sync runs at retryAt.

import { aggregate, runtimeErrors, type RuntimeHealthInput } from './nodestatus/setters.js';

const FIRST_WAIT_MS = 100;
const MAX_WAIT_MS = 5_000;

/** Upstream runtimeState.runtimeErrors(): the node's readiness errors less the network's. */
export function syncBlockingErrors(h: RuntimeHealthInput): string[] {
  const { networkNotReady: _network, ...runtime } = h;
  return runtimeErrors(runtime);
}

export class SyncLoopGate {
  private waitMs = FIRST_WAIT_MS;
  private nextAt = 0;

  /**
   * Undefined: sync now. Otherwise the time to look again, and (once per wait,
   * as the one upstream loop logs) the error text to log.
   */
  check(errors: readonly string[], now: number): { retryAt: number; log?: string } | undefined {
    if (errors.length === 0) {
      this.waitMs = FIRST_WAIT_MS;
      this.nextAt = 0;
      return undefined;
    }
    if (now < this.nextAt) return { retryAt: this.nextAt };
    this.nextAt = now + this.waitMs;
    this.waitMs = Math.min(this.waitMs * 2, MAX_WAIT_MS);
    return { retryAt: this.nextAt, log: aggregate([...errors]) };
  }
}
