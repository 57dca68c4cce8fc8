// The monitors' configuration files, as upstream reads them: the system log
// monitor's (pkg/systemlogmonitor/config.go, logwatchers/types) and the custom
// plugin monitor's (pkg/custompluginmonitor/types/config.go), with upstream's
// defaults and validation. Defaults shipped with kubelab live in ../config/.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDuration } from '@kubelab/component-base';
import type { DefaultCondition, RuleType } from './types.js';

/** kubelab's copies of upstream's default monitor configurations (`config/*.json` of this package). */
export const DEFAULT_CONFIG_DIR = fileURLToPath(new URL('../config/', import.meta.url));

/** The system log monitors a kubelab node runs (upstream's kernel, readonly and systemd monitors). */
export const DEFAULT_SYSTEM_LOG_MONITORS = ['kernel-monitor.json', 'readonly-monitor.json', 'systemd-monitor.json'] as const;
/** The custom plugin monitors a kubelab node runs (restart counters and the kubelet's and runtime's health checks). */
export const DEFAULT_CUSTOM_PLUGIN_MONITORS = ['systemd-monitor-counter.json', 'health-checker-kubelet.json', 'health-checker-containerd.json'] as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface LogRule {
  type: RuleType;
  condition?: string;
  reason: string;
  pattern: string;
  patternGeneratedMessageSuffix?: string;
}

export interface SystemLogMonitorConfig {
  /** `kmsg` (the kernel log), `journald` (a SYSLOG_IDENTIFIER of the journal) or `filelog`. */
  plugin: string;
  pluginConfig: Record<string, string>;
  logPath: string;
  lookbackMs: number;
  delayMs: number;
  bufferSize: number;
  source: string;
  conditions: DefaultCondition[];
  rules: LogRule[];
  metricsReporting: boolean;
}

export interface CustomRule {
  type: RuleType;
  condition?: string;
  reason: string;
  path: string;
  args: string[];
  timeoutMs?: number;
  invokeIntervalMs?: number;
}

export interface CustomPluginConfig {
  pluginConfig: {
    invokeIntervalMs: number;
    timeoutMs: number;
    maxOutputLength: number;
    concurrency: number;
    enableMessageChangeBasedConditionUpdate: boolean;
    skipInitialStatus: boolean;
  };
  source: string;
  conditions: DefaultCondition[];
  rules: CustomRule[];
  metricsReporting: boolean;
}

type Json = Record<string, unknown>;

function duration(v: unknown, def: string, field: string): number {
  const text = v === undefined || v === '' ? def : v;
  if (typeof text !== 'string') throw new ConfigError(`${field}: want a duration string, got ${JSON.stringify(v)}`);
  try {
    return parseDuration(text);
  } catch (err) {
    throw new ConfigError(`${field}: ${(err as Error).message}`);
  }
}

function str(o: Json, k: string): string {
  const v = o[k];
  return typeof v === 'string' ? v : '';
}

function conditionsOf(raw: unknown): DefaultCondition[] {
  return (Array.isArray(raw) ? raw : []).map((c: Json) => ({ type: str(c, 'type'), reason: str(c, 'reason'), message: str(c, 'message') }));
}

function ruleType(v: unknown): RuleType {
  if (v === 'temporary' || v === 'permanent') return v;
  throw new ConfigError(`rule type ${JSON.stringify(v)}: want "temporary" or "permanent"`);
}

/** Upstream rejects a permanent rule whose condition has no default (Validate). */
function checkPermanentRules(rules: { type: RuleType; condition?: string }[], conditions: DefaultCondition[]): void {
  for (const r of rules) {
    if (r.type === 'permanent' && !conditions.some((c) => c.type === r.condition)) {
      throw new ConfigError(`permanent problem ${r.condition ?? ''} does not have preset default condition`);
    }
  }
}

function parseJson(text: string, path: string): Json {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('want a JSON object');
    return v as Json;
  } catch (err) {
    throw new ConfigError(`Failed to unmarshal configuration file "${path}": ${(err as Error).message}`);
  }
}

export function parseSystemLogMonitorConfig(text: string, path = '<config>'): SystemLogMonitorConfig {
  const o = parseJson(text, path);
  const rules: LogRule[] = (Array.isArray(o.rules) ? o.rules : []).map((r: Json) => ({
    type: ruleType(r.type),
    ...(typeof r.condition === 'string' && r.condition ? { condition: r.condition } : {}),
    reason: str(r, 'reason'),
    pattern: str(r, 'pattern'),
    ...(typeof r.patternGeneratedMessageSuffix === 'string' && r.patternGeneratedMessageSuffix ? { patternGeneratedMessageSuffix: r.patternGeneratedMessageSuffix } : {}),
  }));
  const conditions = conditionsOf(o.conditions);
  const cfg: SystemLogMonitorConfig = {
    plugin: str(o, 'plugin'),
    pluginConfig: (o.pluginConfig ?? {}) as Record<string, string>,
    logPath: str(o, 'logPath'),
    lookbackMs: duration(o.lookback, '0', 'lookback'),
    delayMs: duration(o.delay, '0', 'delay'),
    bufferSize: typeof o.bufferSize === 'number' && o.bufferSize > 0 ? o.bufferSize : 10,
    source: str(o, 'source'),
    conditions,
    rules,
    metricsReporting: o.metricsReporting !== false,
  };
  if (!['kmsg', 'journald', 'filelog'].includes(cfg.plugin)) throw new ConfigError(`Failed to create log watcher: unknown plugin "${cfg.plugin}" in "${path}"`);
  if (cfg.plugin === 'journald' && !cfg.pluginConfig.source) throw new ConfigError('failed to filter journal log, empty source is not allowed');
  checkPermanentRules(rules, conditions);
  return cfg;
}

export function parseCustomPluginConfig(text: string, path = '<config>'): CustomPluginConfig {
  const o = parseJson(text, path);
  const pc = (o.pluginConfig ?? {}) as Json;
  const timeoutMs = duration(pc.timeout, '5s', 'pluginConfig.timeout');
  const invokeIntervalMs = duration(pc.invoke_interval, '30s', 'pluginConfig.invoke_interval');
  const rules: CustomRule[] = (Array.isArray(o.rules) ? o.rules : []).map((r: Json, i: number) => {
    const rule: CustomRule = {
      type: ruleType(r.type),
      ...(typeof r.condition === 'string' && r.condition ? { condition: r.condition } : {}),
      reason: str(r, 'reason'),
      path: str(r, 'path'),
      args: Array.isArray(r.args) ? r.args.map(String) : [],
    };
    if (r.timeout !== undefined) rule.timeoutMs = duration(r.timeout, '', `rules[${i}].timeout`);
    if (r.invoke_interval !== undefined) rule.invokeIntervalMs = duration(r.invoke_interval, '', `rules[${i}].invoke_interval`);
    if (!rule.path) throw new ConfigError(`rules[${i}]: path is empty`);
    return rule;
  });
  const conditions = conditionsOf(o.conditions);
  const cfg: CustomPluginConfig = {
    pluginConfig: {
      invokeIntervalMs,
      timeoutMs,
      maxOutputLength: typeof pc.max_output_length === 'number' ? pc.max_output_length : 80,
      concurrency: typeof pc.concurrency === 'number' && pc.concurrency > 0 ? pc.concurrency : 3,
      enableMessageChangeBasedConditionUpdate: pc.enable_message_change_based_condition_update === true,
      skipInitialStatus: pc.skip_initial_status === true,
    },
    source: str(o, 'source'),
    conditions,
    rules,
    metricsReporting: o.metricsReporting !== false,
  };
  if (invokeIntervalMs <= 0) throw new ConfigError(`invoke_interval ${String(pc.invoke_interval)} must be greater than 0`);
  checkPermanentRules(rules, conditions);
  return cfg;
}

export function readConfigFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`Failed to read configuration file "${path}": ${(err as Error).message}`, { cause: err });
  }
}
