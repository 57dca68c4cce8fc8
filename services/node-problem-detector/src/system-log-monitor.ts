// The system log monitor (upstream pkg/systemlogmonitor/log_monitor.go and its
// kmsg and journald log watchers): follows one log of the node's journal,
// pushes each line into the ring buffer and reports a status for every rule
// that matches. `kmsg` reads the kernel's records (kernel.jsonl, /dev/kmsg's
// role), `journald` the records of pluginConfig.source (SYSLOG_IDENTIFIER).

import { uptime } from 'node:os';
import type { Logger } from '@kubelab/component-base';
import { initialConditions } from './conditions.js';
import type { SystemLogMonitorConfig } from './config.js';
import { followJournal, recordTimeMs, type JournalRecord } from './journal-source.js';
import { compilePattern, LogBuffer, type Pattern } from './log-buffer.js';
import { applyLogRule } from './log-monitor-status.js';
import type { ProblemMetrics } from './problem-metrics.js';
import type { Condition, LogLine, Monitor, Status } from './types.js';

/** The node's uptime: the kernel's, which a node container shares with its host (/proc/uptime). */
export const hostUptimeMs = (): number => uptime() * 1000;

/** The earliest log time a watcher reports (util.GetStartTime): not before boot + delay, nor before now − lookback. */
export function watchStartTime(nowMs: number, uptimeMs: number, lookbackMs: number, delayMs: number): number {
  return Math.max(nowMs - uptimeMs + delayMs, nowMs - lookbackMs);
}

/** The journal identifier a watcher plugin reads. */
export function identifierOf(cfg: SystemLogMonitorConfig): string {
  if (cfg.plugin === 'kmsg') return 'kernel';
  if (cfg.plugin === 'journald') return cfg.pluginConfig.source ?? '';
  throw new Error(`log watcher plugin "${cfg.plugin}" is not supported by kubelab (kmsg, journald)`);
}

/** A journal record as the watcher hands it on: the message trimmed, its realtime timestamp. */
export function logLineOf(r: JournalRecord): LogLine {
  return { timestamp: recordTimeMs(r), message: r.MESSAGE.trim() };
}

/** The monitor's state and its pure step: one line in, the statuses it causes out. */
export class LogMonitorState {
  private readonly buffer: LogBuffer;
  private readonly patterns: Pattern[];
  conditions: Condition[];

  constructor(
    readonly config: SystemLogMonitorConfig,
    now: number,
    private readonly metrics?: ProblemMetrics,
  ) {
    this.buffer = new LogBuffer(config.bufferSize);
    this.patterns = config.rules.map((r) => compilePattern(r.pattern));
    this.conditions = initialConditions(config.conditions, now);
    if (config.metricsReporting) metrics?.initializeRules(config.rules.map((r) => ({ type: r.type, reason: r.reason, ...(r.condition ? { condition: r.condition } : {}) })));
  }

  initialStatus(): Status {
    return { source: this.config.source, events: [], conditions: this.conditions };
  }

  /** parseLog: a status for every rule that matches once the line is in the buffer. */
  parseLine(line: LogLine): Status[] {
    this.buffer.push(line);
    const out: Status[] = [];
    this.config.rules.forEach((rule, i) => {
      const matched = this.buffer.match(this.patterns[i]!);
      if (matched.length === 0) return;
      const r = applyLogRule(this.conditions, rule, matched);
      this.conditions = r.conditions;
      if (this.config.metricsReporting && this.metrics) {
        for (const e of r.events) this.metrics.incrementProblemCounter(e.reason, 1);
        for (const c of r.changed) this.metrics.setProblemGauge(c.type, c.reason, c.status === 'True');
      }
      out.push({ source: this.config.source, events: r.events, conditions: this.conditions });
    });
    return out;
  }
}

export interface SystemLogMonitorOptions {
  config: SystemLogMonitorConfig;
  /** The node's root (KUBELAB_NODE_ROOT): the journal is under <root>/var/log/journal. */
  nodeRoot: string;
  metrics?: ProblemMetrics;
  logger: Logger;
  now?: () => number;
  uptimeMs?: () => number;
}

export class SystemLogMonitor implements Monitor {
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly opts: SystemLogMonitorOptions) {}

  start(report: (status: Status) => void): void {
    const { config, nodeRoot, logger } = this.opts;
    const now = (this.opts.now ?? Date.now)();
    const state = new LogMonitorState(config, now, this.opts.metrics);
    const id = identifierOf(config);
    const since = watchStartTime(now, (this.opts.uptimeMs ?? hostUptimeMs)(), config.lookbackMs, config.delayMs);
    logger.info('Start log monitor', { source: config.source, plugin: config.plugin, identifier: id });
    report(state.initialStatus());
    this.loop = (async () => {
      try {
        for await (const rec of followJournal(nodeRoot, { identifiers: [id], since }, this.abort.signal)) {
          const line = logLineOf(rec);
          if (!line.message) continue;
          for (const status of state.parseLine(line)) {
            logger.info('New status generated', { source: status.source, events: status.events.map((e) => e.reason) });
            report(status);
          }
        }
      } catch (err) {
        if (!this.abort.signal.aborted) logger.error('Log monitor stopped reading the journal', { source: config.source, err: (err as Error).message });
      }
    })();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }
}
