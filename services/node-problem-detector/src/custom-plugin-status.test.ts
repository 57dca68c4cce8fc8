import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialConditions } from './conditions.js';
import { DEFAULT_CONFIG_DIR, parseCustomPluginConfig } from './config.js';
import { applyPluginResult } from './custom-plugin-status.js';
import type { Condition } from './types.js';

const kubelet = parseCustomPluginConfig(readFileSync(join(DEFAULT_CONFIG_DIR, 'health-checker-kubelet.json'), 'utf8'));
const rule = kubelet.rules[0]!;
const UNHEALTHY = 'kubelet:kubelet was found unhealthy; repair flag : true';

function step(conditions: Condition[], exitStatus: number, message: string, now: number) {
  return applyPluginResult(conditions, kubelet.conditions, { rule, exitStatus, message }, now);
}

describe('custom plugin results (upstream health-checker-kubelet.json)', () => {
  const start = initialConditions(kubelet.conditions, 0);

  it.each([
    ['OK while False: nothing changes', 0, '', [], ['False', 'KubeletIsHealthy', 'kubelet on the node is functioning properly']],
    [
      'NonOK while False: True with the rule reason and the plugin output',
      1,
      UNHEALTHY,
      [['warn', 'KubeletUnhealthy', `Node condition KubeletUnhealthy is now: True, reason: KubeletUnhealthy, message: "${UNHEALTHY}"`]],
      ['True', 'KubeletUnhealthy', UNHEALTHY],
    ],
    [
      'Unknown while False: Unknown with the default reason and the output',
      2,
      'Timeout when running plugin',
      [['info', 'KubeletIsHealthy', 'Node condition KubeletUnhealthy is now: Unknown, reason: KubeletIsHealthy, message: "Timeout when running plugin"']],
      ['Unknown', 'KubeletIsHealthy', 'Timeout when running plugin'],
    ],
  ] as const)('%s', (_name, exit, msg, events, condition) => {
    const r = step(start, exit, msg, 5);
    expect(r.events.map((e) => [e.severity, e.reason, e.message])).toEqual(events);
    const c = r.conditions[0]!;
    expect([c.status, c.reason, c.message]).toEqual(condition);
  });

  it('recovers to the default reason and message, with a Normal event', () => {
    const bad = step(start, 1, UNHEALTHY, 5).conditions;
    const r = step(bad, 0, '', 15);
    expect(r.events.map((e) => [e.severity, e.message])).toEqual([
      ['info', 'Node condition KubeletUnhealthy is now: False, reason: KubeletIsHealthy, message: "kubelet on the node is functioning properly"'],
    ]);
    expect(r.conditions[0]).toEqual({ type: 'KubeletUnhealthy', status: 'False', reason: 'KubeletIsHealthy', message: 'kubelet on the node is functioning properly', transition: 15 });
  });

  it('stays True without a new event while the plugin keeps failing', () => {
    const bad = step(start, 1, UNHEALTHY, 5).conditions;
    const r = step(bad, 1, UNHEALTHY, 15);
    expect(r.events).toEqual([]);
    expect(r.conditions[0]!.transition).toBe(5);
  });
});
