// The system log monitor's decision for one matched rule (upstream
// log_monitor.go generateStatus): a temporary rule is a Warning event with
// the matched lines as message; a permanent rule turns its condition True
// (an event only when it was False or had another reason).

import { conditionChangeEvent } from './conditions.js';
import type { LogRule } from './config.js';
import type { Condition, LogLine, ProblemEvent } from './types.js';

export interface RuleOutcome {
  events: ProblemEvent[];
  /** All the monitor's conditions after the rule (a new array; the input is not changed). */
  conditions: Condition[];
  /** The conditions this rule changed (for problem_gauge). */
  changed: Condition[];
}

/** The message of matched lines: joined by "\n", with the rule's suffix after "; ". */
export function matchedMessage(lines: readonly LogLine[], suffix?: string): string {
  const text = lines.map((l) => l.message).join('\n');
  return suffix ? `${text}; ${suffix}` : text;
}

export function applyLogRule(conditions: readonly Condition[], rule: LogRule, matched: readonly LogLine[]): RuleOutcome {
  const timestamp = matched[0]?.timestamp ?? 0;
  const message = matchedMessage(matched, rule.patternGeneratedMessageSuffix);
  if (rule.type === 'temporary') {
    return { events: [{ severity: 'warn', timestamp, reason: rule.reason, message }], conditions: [...conditions], changed: [] };
  }
  const events: ProblemEvent[] = [];
  const changed: Condition[] = [];
  const next = conditions.map((c) => {
    if (c.type !== rule.condition || changed.length > 0) return c;
    const transition = c.status === 'False' || c.reason !== rule.reason;
    if (transition) events.push(conditionChangeEvent(c.type, 'True', rule.reason, message, timestamp));
    const updated: Condition = transition ? { ...c, status: 'True', reason: rule.reason, transition: timestamp, message } : { ...c, status: 'True', reason: rule.reason };
    changed.push(updated);
    return updated;
  });
  return { events, conditions: next, changed };
}
