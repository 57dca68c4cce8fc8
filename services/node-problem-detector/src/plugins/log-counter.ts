// log-counter (upstream cmd/logcounter, pkg/logcounter): counts the journal
// entries of one identifier matching --pattern since the start time (minus
// those matching --revert-pattern), and reports NonOK when the count reaches
// --count. The systemd monitor's FrequentKubeletRestart and
// FrequentContainerdRestart come from it, counting systemd's "Started …"
// lines in the last 20 minutes.

import { parseDuration } from '@kubelab/component-base';
import { readJournal } from '../journal-source.js';
import { compilePattern, LogBuffer } from '../log-buffer.js';
import { logLineOf, watchStartTime } from '../system-log-monitor.js';
import type { LogLine } from '../types.js';
import { parsePluginArgs } from './args.js';
import type { PluginOutput } from './plugin.js';

/** Upstream's buffer for counting (bufferSize). */
const COUNTER_BUFFER_LINES = 1000;

export interface LogCounterOptions {
  journaldSource: string;
  lookbackMs: number;
  delayMs: number;
  pattern: string;
  revertPattern: string;
  count: number;
}

export function parseLogCounterArgs(args: readonly string[]): LogCounterOptions {
  const f = parsePluginArgs(args);
  const dur = (k: string) => (f.get(k) ? parseDuration(f.get(k)!) : 0);
  return {
    journaldSource: f.get('journald-source') ?? '',
    lookbackMs: dur('lookback'),
    delayMs: dur('delay'),
    pattern: f.get('pattern') ?? '',
    revertPattern: f.get('revert-pattern') ?? '',
    count: Number(f.get('count') ?? '1'),
  };
}

/** The count over lines already selected by time, as upstream's Count loop. */
export function countMatches(lines: readonly LogLine[], pattern: string, revertPattern: string): number {
  const p = compilePattern(pattern);
  const rp = revertPattern ? compilePattern(revertPattern) : undefined;
  const buffer = new LogBuffer(COUNTER_BUFFER_LINES);
  let count = 0;
  for (const line of lines) {
    buffer.push(line);
    if (buffer.match(p).length) count++;
    if (rp && buffer.match(rp).length) count--;
  }
  return count;
}

/** The plugin's verdict and its one line of output. */
export function logCounterVerdict(actual: number, threshold: number): PluginOutput {
  if (actual >= threshold) return { exitStatus: 1, output: `Found ${actual} matching logs, which meets the threshold of ${threshold}` };
  return { exitStatus: 0, output: '' };
}

export async function runLogCounter(args: readonly string[], nodeRoot: string, now: number, uptimeMs: number): Promise<PluginOutput> {
  const o = parseLogCounterArgs(args);
  if (!o.journaldSource) return { exitStatus: 2, output: 'failed to filter journal log, empty source is not allowed' };
  const since = watchStartTime(now, uptimeMs, o.lookbackMs, o.delayMs);
  const records = await readJournal(nodeRoot, { identifiers: [o.journaldSource], since });
  const lines = records.map(logLineOf).filter((l) => l.message && l.timestamp <= now);
  return logCounterVerdict(countMatches(lines, o.pattern, o.revertPattern), o.count);
}
