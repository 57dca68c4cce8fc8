// The custom plugin monitor (upstream pkg/custompluginmonitor): runs every
// rule's plugin once at start and then every invoke_interval (rules grouped
// by interval, at most `concurrency` at a time), and turns each result into
// a status through applyPluginResult.

import type { Logger } from '@kubelab/component-base';
import { initialConditions } from './conditions.js';
import { hostUptimeMs } from './system-log-monitor.js';
import type { CustomPluginConfig, CustomRule } from './config.js';
import { applyPluginResult } from './custom-plugin-status.js';
import { runPlugin, type PluginOutput } from './plugins/plugin.js';
import type { ProblemMetrics } from './problem-metrics.js';
import type { Condition, Monitor, Status } from './types.js';

export interface CustomPluginMonitorOptions {
  config: CustomPluginConfig;
  nodeRoot: string;
  /** The plugins' environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Time since the node booted (default the host's uptime). */
  uptimeMs?: () => number;
  metrics?: ProblemMetrics;
  logger: Logger;
  now?: () => number;
  /** Runs one rule (tests stub it). */
  run?: (rule: CustomRule) => Promise<PluginOutput>;
}

export class CustomPluginMonitor implements Monitor {
  private conditions: Condition[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private readonly inflight = new Set<Promise<void>>();

  constructor(private readonly opts: CustomPluginMonitorOptions) {}

  start(report: (status: Status) => void): void {
    const { config, logger } = this.opts;
    const now = this.opts.now ?? Date.now;
    const run =
      this.opts.run ??
      ((rule: CustomRule) =>
        runPlugin(rule, config.pluginConfig.timeoutMs, config.pluginConfig.maxOutputLength, {
          nodeRoot: this.opts.nodeRoot,
          now,
          env: this.opts.env ?? process.env,
          uptimeMs: this.opts.uptimeMs ?? hostUptimeMs,
        }));
    if (config.metricsReporting) this.opts.metrics?.initializeRules(config.rules.map((r) => ({ type: r.type, reason: r.reason, ...(r.condition ? { condition: r.condition } : {}) })));
    this.conditions = initialConditions(config.conditions, now());
    logger.info('Start custom plugin monitor', { source: config.source });
    if (!config.pluginConfig.skipInitialStatus) report({ source: config.source, events: [], conditions: this.conditions });

    const onResult = (rule: CustomRule, out: PluginOutput) => {
      if (this.stopped) return;
      const r = applyPluginResult(this.conditions, config.conditions, { rule, exitStatus: out.exitStatus, message: out.output }, now(), config.pluginConfig.enableMessageChangeBasedConditionUpdate);
      this.conditions = r.conditions;
      if (config.metricsReporting && this.opts.metrics) {
        for (const e of r.events) if (e.severity === 'warn') this.opts.metrics.incrementProblemCounter(e.reason, 1);
        for (const c of this.conditions) this.opts.metrics.setProblemGauge(c.type, c.reason, c.status === 'True');
      }
      if (r.events.length) logger.info('New status generated', { source: config.source, events: r.events.map((e) => e.message) });
      report({ source: config.source, events: r.events, conditions: this.conditions });
    };

    // runRules: a bounded pool; a group's next tick is skipped while its previous run is still going.
    const runRules = async (rules: readonly CustomRule[]) => {
      const queue = [...rules];
      const worker = async () => {
        for (let rule = queue.shift(); rule && !this.stopped; rule = queue.shift()) {
          try {
            onResult(rule, await run(rule));
          } catch (err) {
            onResult(rule, { exitStatus: 2, output: (err as Error).message });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(config.pluginConfig.concurrency, queue.length) }, worker));
    };
    const track = (p: Promise<void>) => {
      this.inflight.add(p);
      void p.finally(() => this.inflight.delete(p));
      return p;
    };

    const groups = new Map<number, CustomRule[]>();
    for (const rule of config.rules) {
      const interval = rule.invokeIntervalMs ?? config.pluginConfig.invokeIntervalMs;
      groups.set(interval, [...(groups.get(interval) ?? []), rule]);
    }
    void track(runRules(config.rules)).then(() => {
      if (this.stopped) return;
      for (const [interval, rules] of groups) {
        let busy = false;
        this.timers.push(
          setInterval(() => {
            if (busy || this.stopped) return;
            busy = true;
            void track(runRules(rules)).finally(() => (busy = false));
          }, interval),
        );
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.all([...this.inflight]);
  }
}
