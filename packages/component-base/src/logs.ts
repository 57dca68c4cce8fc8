// Structured logging as component-base/logs: every line names its component
// (and node, where there is one); text for people in a terminal, JSON for machines.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'text' | 'json';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose lines carry these fields too. */
  with(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  component: string;
  node?: string;
  level?: LogLevel;
  format?: LogFormat;
  /** Where lines go; stderr by default, as the upstream components log. */
  write?: (line: string) => void;
}

function fieldText(v: unknown): string {
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

export function createLogger(opts: LoggerOptions): Logger {
  const level = opts.level ?? (process.env.KUBELAB_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const format = opts.format ?? (process.env.KUBELAB_LOG_FORMAT as LogFormat | undefined) ?? (process.stderr.isTTY ? 'text' : 'json');
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const base: Record<string, unknown> = { component: opts.component };
  if (opts.node) base.node = opts.node;

  const make = (fixed: Record<string, unknown>): Logger => {
    const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[lvl] < ORDER[level]) return;
      const all = { ...fixed, ...fields };
      if (format === 'json') {
        const rec: Record<string, unknown> = { ts: new Date().toISOString(), level: lvl, msg };
        for (const [k, v] of Object.entries(all)) rec[k] = v instanceof Error ? v.message : v;
        write(JSON.stringify(rec));
      } else {
        const kv = Object.entries(all)
          .map(([k, v]) => `${k}=${fieldText(v)}`)
          .join(' ');
        write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${msg}${kv ? ' ' + kv : ''}`);
      }
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      with: (f) => make({ ...fixed, ...f }),
    };
  };
  return make(base);
}
