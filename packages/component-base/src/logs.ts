// Structured logging as component-base/logs: klog's text format (`I1201 13:33:15.123456  312
// kubelet.go:123] "msg" key="value"`) or its JSON format, klog's -v verbosity; containerd's
// lines in logrus' formats (style 'logrus'). Nothing is formatted for a line that is not written.

import { callerOf } from './logs/caller.js';
import { klogJsonLine, klogLine, logrusJsonLine, logrusTextLine, type LogrusLevel } from './logs/format.js';

export { kObj, kObjSlice, kRef, ObjectRef, ObjectRefs } from './logs/format.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'text' | 'json';
/** klog (Kubernetes components) or logrus (containerd). */
export type LogStyle = 'klog' | 'logrus';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** debug() is klog's V(4): "debug level verbosity" in the Kubernetes logging conventions. */
export const DEBUG_VERBOSITY = 4;

export interface Logger {
  /** klog.V(4).InfoS. */
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** klog.InfoS (V(0)). */
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  /** klog.ErrorS: pass the error as the `err` field. */
  error(msg: string, fields?: Record<string, unknown>): void;
  /** klog.V(n): a logger whose info() writes only at verbosity n or more. */
  v(level: number): Pick<Logger, 'info'>;
  /** A logger whose lines carry these fields too (klog's WithValues). */
  with(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  component: string;
  node?: string;
  /** Lowest severity written; 'debug' also raises the verbosity to 4. */
  level?: LogLevel;
  /** klog's -v; default from KUBELAB_LOG_LEVEL when it is a number, else 0. */
  verbosity?: number;
  format?: LogFormat;
  style?: LogStyle;
  /** Where lines go; stderr by default, as the upstream components log. */
  write?: (line: string) => void;
}

/** KUBELAB_LOG_LEVEL: a severity (debug|info|warn|error) or klog's -v number. */
export function parseLogLevel(raw: string | undefined): { level?: LogLevel; verbosity?: number } {
  if (!raw) return {};
  if (/^\d+$/.test(raw)) return { verbosity: Number(raw) };
  return raw in ORDER ? { level: raw as LogLevel } : {};
}

const now = (): number => performance.timeOrigin + performance.now();
const LOGRUS: Record<LogLevel, LogrusLevel> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };
const SEVERITY = { debug: 'I', info: 'I', warn: 'W', error: 'E' } as const;

export function createLogger(opts: LoggerOptions): Logger {
  const env = parseLogLevel(process.env.KUBELAB_LOG_LEVEL);
  const level = opts.level ?? env.level ?? 'info';
  const verbosity = Math.max(opts.verbosity ?? env.verbosity ?? 0, level === 'debug' ? DEBUG_VERBOSITY : 0);
  const format = opts.format ?? (process.env.KUBELAB_LOG_FORMAT as LogFormat | undefined) ?? (process.stderr.isTTY ? 'text' : 'json');
  const style = opts.style ?? 'klog';
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const pid = process.pid;

  const make = (fixed: Record<string, unknown>): Logger => {
    // `entry` is the method the caller called: the frame below it is the caller's file:line.
    const emit = (lvl: LogLevel, v: number, msg: string, fields: Record<string, unknown> | undefined, entry: (...a: never[]) => unknown) => {
      // debug() is V(4) info: gated by verbosity, not by severity.
      if (ORDER[lvl === 'debug' ? 'info' : lvl] < ORDER[level] || v > verbosity) return;
      const all = fields ? { ...fixed, ...fields } : fixed;
      const t = now();
      if (style === 'logrus') {
        write(format === 'json' ? logrusJsonLine(t, LOGRUS[lvl], msg, all) : logrusTextLine(t, LOGRUS[lvl], msg, all));
        return;
      }
      const caller = callerOf(entry);
      write(format === 'json' ? klogJsonLine(t, caller, msg, lvl === 'error' ? undefined : v, all) : klogLine(SEVERITY[lvl], t, pid, caller, msg, all));
    };
    const logger: Logger = {
      debug: function debug(m, f) {
        emit('debug', DEBUG_VERBOSITY, m, f, debug);
      },
      info: function info(m, f) {
        emit('info', 0, m, f, info);
      },
      warn: function warn(m, f) {
        emit('warn', 0, m, f, warn);
      },
      error: function error(m, f) {
        emit('error', 0, m, f, error);
      },
      v: (n) => ({
        info: function info(m, f) {
          emit('info', n, m, f, info);
        },
      }),
      with: (f) => make({ ...fixed, ...f }),
    };
    return logger;
  };
  return make({});
}
