// The custom plugin monitor's decision for one plugin result (upstream
// pkg/custompluginmonitor/custom_plugin_monitor.go generateStatus): exit 0 is
// OK (condition False), 1 NonOK (True), anything else Unknown; a permanent
// rule's condition changes, with an event, only when its status (or its
// reason, while True) changes.

import { conditionChangeEvent } from './conditions.js';
import type { CustomRule } from './config.js';
import type { Condition, ConditionStatus, DefaultCondition, ProblemEvent } from './types.js';

export const PLUGIN_OK = 0;
export const PLUGIN_NON_OK = 1;
export const PLUGIN_UNKNOWN = 2;

export interface PluginResult {
  rule: CustomRule;
  /** 0 OK, 1 NonOK, 2 Unknown. */
  exitStatus: number;
  message: string;
}

export function toConditionStatus(exitStatus: number): ConditionStatus {
  return exitStatus === PLUGIN_OK ? 'False' : exitStatus === PLUGIN_NON_OK ? 'True' : 'Unknown';
}

export interface PluginOutcome {
  /** Problem events first (new True conditions, temporary problems), then recoveries. */
  events: ProblemEvent[];
  conditions: Condition[];
}

export function applyPluginResult(
  conditions: readonly Condition[],
  defaults: readonly DefaultCondition[],
  result: PluginResult,
  now: number,
  enableMessageChangeBasedConditionUpdate = false,
): PluginOutcome {
  const { rule } = result;
  if (rule.type === 'temporary') {
    const events: ProblemEvent[] = result.exitStatus >= PLUGIN_NON_OK ? [{ severity: 'warn', timestamp: now, reason: rule.reason, message: result.message }] : [];
    return { events, conditions: [...conditions] };
  }
  const active: ProblemEvent[] = [];
  const inactive: ProblemEvent[] = [];
  let done = false;
  const next = conditions.map((c) => {
    if (done || c.type !== rule.condition) return c;
    done = true;
    const def = defaults.find((d) => d.type === rule.condition);
    const status = toConditionStatus(result.exitStatus);
    // Back to the default reason when leaving True; the default message only when OK again.
    const recovered = { reason: def?.reason ?? '', message: status === 'False' ? (def?.message ?? '') : result.message };
    let change: { reason: string; message: string } | undefined;
    if (c.status === 'True' && status !== 'True') change = recovered;
    else if (c.status !== 'True' && status === 'True') change = { reason: rule.reason, message: result.message };
    else if (c.status !== status) change = recovered;
    else if (c.status === 'True' && status === 'True' && (c.reason !== rule.reason || (enableMessageChangeBasedConditionUpdate && c.message !== result.message))) {
      change = { reason: rule.reason, message: result.message };
    }
    if (!change) return c;
    const event = conditionChangeEvent(c.type, status, change.reason, change.message, now);
    (status === 'True' ? active : inactive).push(event);
    return { ...c, status, transition: now, reason: change.reason, message: change.message };
  });
  return { events: [...active, ...inactive], conditions: next };
}
