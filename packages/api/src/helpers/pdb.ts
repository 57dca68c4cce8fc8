// The DisruptionAllowed condition of a PodDisruptionBudget, set alike by the
// disruption controller and the eviction subresource (upstream:
// pkg/apis/policy/helper UpdateDisruptionAllowedCondition).
import type { Condition, Time } from '../meta/types.js';
import type { PodDisruptionBudgetStatus } from '../policy/v1/types.js';

export const PDB_DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const PDB_SUFFICIENT_PODS = 'SufficientPods';
export const PDB_INSUFFICIENT_PODS = 'InsufficientPods';
export const PDB_SYNC_FAILED = 'SyncFailed';

/**
 * Sets DisruptionAllowed from status.disruptionsAllowed (True/SufficientPods
 * when above zero), keeping lastTransitionTime unless the status flips.
 */
export function updateDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: Time, generation?: number): void {
  const allowed = status.disruptionsAllowed > 0;
  const want: Condition = {
    type: PDB_DISRUPTION_ALLOWED,
    status: allowed ? 'True' : 'False',
    reason: allowed ? PDB_SUFFICIENT_PODS : PDB_INSUFFICIENT_PODS,
    message: '',
    lastTransitionTime: now,
  };
  if (generation !== undefined) want.observedGeneration = generation;
  setStatusCondition(status, want);
}

/** meta.SetStatusCondition: replaces the condition of the same type, keeping its transition time if the status holds. */
export function setStatusCondition(status: { conditions?: Condition[] }, c: Condition): void {
  const conds = status.conditions ?? [];
  const i = conds.findIndex((x) => x.type === c.type);
  if (i < 0) {
    status.conditions = [...conds, c];
    return;
  }
  const old = conds[i]!;
  const next = { ...c, lastTransitionTime: old.status === c.status ? old.lastTransitionTime : c.lastTransitionTime };
  status.conditions = conds.map((x, j) => (j === i ? next : x));
}
