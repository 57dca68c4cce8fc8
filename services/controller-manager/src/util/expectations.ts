// ControllerExpectations (pkg/controller/controller_utils.go): how many pod
// creations and deletions a controller is still waiting to see through its
// informer, so a second sync during a burst does not create or delete twice.
// Deletions are tracked by pod key (UIDTrackingControllerExpectations).

import { realClock, type Clock } from '@kubelab/client';

/** upstream ExpectationsTimeout: stale expectations stop blocking syncs. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Record_ {
  add: number;
  del: number;
  at: number;
  deleting: Set<string>;
}

export class ControllerExpectations {
  private readonly records = new Map<string, Record_>();
  constructor(private readonly clock: Clock = realClock) {}

  /** True when nothing is pending, no record exists, or the record expired. */
  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    if (r.add <= 0 && r.del <= 0) return true;
    return this.clock.now() - r.at > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, n: number): void {
    this.records.set(key, { add: n, del: 0, at: this.clock.now(), deleting: new Set() });
  }

  expectDeletions(key: string, podKeys: string[]): void {
    this.records.set(key, { add: 0, del: podKeys.length, at: this.clock.now(), deleting: new Set(podKeys) });
  }

  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.add--;
  }

  /** A deletion seen (or a failed delete given up on) for podKey. */
  deletionObserved(key: string, podKey: string): void {
    const r = this.records.get(key);
    if (r?.deleting.delete(podKey)) r.del--;
  }

  /** Creations that will never be observed (skipped after an error). */
  lowerCreations(key: string, n: number): void {
    const r = this.records.get(key);
    if (r) r.add -= n;
  }

  delete(key: string): void {
    this.records.delete(key);
  }

  pending(key: string): { add: number; del: number } | undefined {
    const r = this.records.get(key);
    return r ? { add: r.add, del: r.del } : undefined;
  }
}
