// Running one custom plugin rule (upstream custompluginmonitor/plugin): an
// executable's exit code and trimmed stdout, cut to max_output_length, killed
// at the timeout. Upstream's own helper binaries (log-counter,
// health-checker, named by their basename in the configs) run in-process here.

import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import type { CustomRule } from '../config.js';
import { runHealthChecker } from './health-checker.js';
import { runLogCounter } from './log-counter.js';

export interface PluginOutput {
  exitStatus: number;
  output: string;
}

/** Upstream reads at most 4 KiB of a plugin's stdout. */
const MAX_PLUGIN_OUTPUT_BYTES = 4096;

export interface PluginContext {
  nodeRoot: string;
  now: () => number;
  /** The plugins' environment (the health checker reads HOST_ADDRESS and KUBELET_PORT). */
  env: NodeJS.ProcessEnv;
  /** Time since the node booted (the log counter's --delay counts from boot). */
  uptimeMs: () => number;
}

function execPlugin(rule: CustomRule, timeoutMs: number): Promise<PluginOutput> {
  return new Promise((resolve) => {
    execFile(rule.path, rule.args, { timeout: timeoutMs, maxBuffer: MAX_PLUGIN_OUTPUT_BYTES, killSignal: 'SIGKILL' }, (err, stdout) => {
      const out = String(stdout).trim();
      if (!err) return resolve({ exitStatus: 0, output: out });
      const e = err as NodeJS.ErrnoException & { code?: number | string; killed?: boolean; signal?: string };
      if (e.killed && e.signal === 'SIGKILL') return resolve({ exitStatus: 2, output: `Timeout when running plugin "${rule.path}": state - signal: killed. output - ${JSON.stringify(out)}` });
      if (typeof e.code === 'number') return resolve({ exitStatus: e.code === 1 ? 1 : e.code === 0 ? 0 : 2, output: out });
      resolve({ exitStatus: 2, output: 'Error in starting plugin. Please check the error log' });
    });
  });
}

function withTimeout(p: Promise<PluginOutput>, rule: CustomRule, timeoutMs: number): Promise<PluginOutput> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PluginOutput>((resolve) => {
    timer = setTimeout(() => resolve({ exitStatus: 2, output: `Timeout when running plugin "${rule.path}": state - signal: killed. output - ""` }), timeoutMs);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Runs a rule with the smaller of its own and the global timeout; the output cut to maxOutputLength. */
export async function runPlugin(rule: CustomRule, globalTimeoutMs: number, maxOutputLength: number, ctx: PluginContext): Promise<PluginOutput> {
  const timeoutMs = rule.timeoutMs !== undefined && rule.timeoutMs < globalTimeoutMs ? rule.timeoutMs : globalTimeoutMs;
  let result: PluginOutput;
  switch (basename(rule.path)) {
    case 'log-counter':
      result = await withTimeout(runLogCounter(rule.args, ctx.nodeRoot, ctx.now(), ctx.uptimeMs()), rule, timeoutMs);
      break;
    case 'health-checker':
      result = await withTimeout(runHealthChecker(rule.args, ctx.nodeRoot, ctx.env), rule, timeoutMs);
      break;
    default:
      result = await execPlugin(rule, timeoutMs);
  }
  return { exitStatus: result.exitStatus, output: result.output.slice(0, maxOutputLength) };
}
