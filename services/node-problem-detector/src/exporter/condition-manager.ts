// The k8s exporter's condition manager (upstream
// k8sexporter/condition/manager.go): the monitors' latest conditions are
// synced to the node every tick (1 s) when one changed, after a failed sync
// every resync period (10 s), and at least every heartbeat period (default
// 5 min) to renew lastHeartbeatTime.

import type { Condition } from '../types.js';
import { sameCondition } from './conditions-patch.js';

export const UPDATE_PERIOD_MS = 1000;
export const RESYNC_PERIOD_MS = 10_000;

export class ConditionManager {
  private readonly updates = new Map<string, Condition>();
  private readonly conditions = new Map<string, Condition>();
  private latestTry = Number.NEGATIVE_INFINITY;
  private resyncNeeded = false;

  constructor(private readonly heartbeatPeriodMs: number) {}

  updateCondition(c: Condition): void {
    this.updates.set(c.type, c);
  }

  getConditions(): Condition[] {
    return [...this.conditions.values()];
  }

  /** One tick: the conditions to write now, or undefined. Takes in pending updates. */
  tick(now: number): Condition[] | undefined {
    let changed = false;
    for (const [type, c] of this.updates) {
      if (!sameCondition(this.conditions.get(type), c)) {
        changed = true;
        this.conditions.set(type, c);
      }
    }
    this.updates.clear();
    const resync = this.resyncNeeded && now - this.latestTry >= RESYNC_PERIOD_MS;
    const heartbeat = now - this.latestTry >= this.heartbeatPeriodMs;
    if (!changed && !resync && !heartbeat) return undefined;
    this.latestTry = now;
    this.resyncNeeded = false;
    return this.getConditions();
  }

  /** A sync failed: try again after the resync period. */
  syncFailed(): void {
    this.resyncNeeded = true;
  }
}
