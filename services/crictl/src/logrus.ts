// crictl's messages on stderr: logrus's TextFormatter, as crictl leaves it.
// On a terminal: `ERRO[0000] message` (level colored, seconds since start,
// message padded to 44 columns); otherwise `time="…" level=error msg="…"`.
// main() prints a failed command's error at level error and exits 1.

export type Level = 'debug' | 'info' | 'warning' | 'error' | 'fatal';

const TEXT: Record<Level, string> = { debug: 'DEBU', info: 'INFO', warning: 'WARN', error: 'ERRO', fatal: 'FATA' };
const COLOR: Record<Level, number> = { debug: 37, info: 36, warning: 33, error: 31, fatal: 31 };

/** logrus quotes a value unless every character is a letter, digit or one of -._/@^+. */
export function logfmtValue(v: string): string {
  return /^[A-Za-z0-9\-._/@^+]+$/.test(v) ? v : JSON.stringify(v);
}

/** Go's time.RFC3339 in UTC. */
const rfc3339 = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

export function formatEntry(level: Level, message: string, o: { tty: boolean; now: Date; startMs: number }): string {
  const msg = message.endsWith('\n') ? message.slice(0, -1) : message;
  if (o.tty) {
    const secs = Math.max(0, Math.trunc((o.now.getTime() - o.startMs) / 1000));
    return `\x1b[${COLOR[level]}m${TEXT[level]}\x1b[0m[${String(secs).padStart(4, '0')}] ${msg.padEnd(44)} \n`;
  }
  return `time=${logfmtValue(rfc3339(o.now))} level=${level} msg=${logfmtValue(msg)}\n`;
}

export class Logger {
  private readonly startMs = Date.now();
  constructor(
    private readonly write: (s: string) => void,
    private readonly tty: boolean,
    public debugEnabled = false,
  ) {}
  log(level: Level, message: string): void {
    if (level === 'debug' && !this.debugEnabled) return;
    this.write(formatEntry(level, message, { tty: this.tty, now: new Date(), startMs: this.startMs }));
  }
  debug = (m: string) => this.log('debug', m);
  info = (m: string) => this.log('info', m);
  warn = (m: string) => this.log('warning', m);
  error = (m: string) => this.log('error', m);
}
