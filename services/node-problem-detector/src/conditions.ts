// Condition and event texts shared by the monitors (upstream pkg/util
// helpers.go and the monitors' initialConditions).

import type { Condition, ConditionStatus, DefaultCondition, ProblemEvent } from './types.js';

/** Every condition of a config, False with its default reason and message (initialConditions). */
export function initialConditions(defaults: readonly DefaultCondition[], now: number): Condition[] {
  return defaults.map((d) => ({ type: d.type, status: 'False', transition: now, reason: d.reason, message: d.message }));
}

/** The event a condition change records (GenerateConditionChangeEvent): Warning when it turns True. */
export function conditionChangeEvent(type: string, status: ConditionStatus, reason: string, message: string, timestamp: number): ProblemEvent {
  return {
    severity: status === 'True' ? 'warn' : 'info',
    timestamp,
    reason,
    message: `Node condition ${type} is now: ${status}, reason: ${reason}, message: ${goQuote(message)}`,
  };
}

/** Go's %q of a string: double quotes with Go's escapes (JSON's are the same for the text NPD prints). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}
