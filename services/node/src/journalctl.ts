// journalctl over the node's journal (@kubelab/systemd's files): -u, -t,
// -k, -n, -f, -p, --since/--until, -o short|short-iso|cat|json, --no-pager
// (there is no pager). Output formats as src/shared/logs-show.c prints them.

import { followJournal, readJournal, unitName, type JournalFilter, type JournalRecord } from '@kubelab/systemd';
import type { Io, NodeEnv, Tool } from './node-env.js';
import { parseTimestamp, shortTime } from './time.js';

export type OutputMode = 'short' | 'short-iso' | 'cat' | 'json';
const MODES: OutputMode[] = ['short', 'short-iso', 'cat', 'json'];

/** `Dec 01 13:33:15 node-1 kubelet[312]: <MESSAGE>` (output_short), or the chosen mode's line. */
export function formatRecord(r: JournalRecord, mode: OutputMode = 'short'): string {
  if (mode === 'json') return JSON.stringify(r);
  if (mode === 'cat') return r.MESSAGE;
  const d = new Date(Number(r.__REALTIME_TIMESTAMP) / 1000);
  const when = mode === 'short-iso' ? isoLocal(d) : shortTime(d);
  const who = r._PID ? `${r.SYSLOG_IDENTIFIER}[${r._PID}]` : r.SYSLOG_IDENTIFIER;
  return `${when} ${r._HOSTNAME} ${who}: ${r.MESSAGE}`;
}

function isoLocal(d: Date): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const p2 = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${p2(off / 60)}:${p2(off % 60)}`;
}

export interface JournalctlArgs {
  filter: JournalFilter;
  follow: boolean;
  mode: OutputMode;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** syslog's level names, in journalctl's order (0 emerg … 7 debug). */
const LEVELS = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

const level = (v: string): number | undefined => {
  const n = /^[0-7]$/.test(v) ? Number(v) : LEVELS.indexOf(v);
  return n >= 0 ? n : undefined;
};

/** `-p err` (0 … err) or `-p warning..err` / `err..warning` (between the two, either order), as journalctl reads it. */
export function parsePriorities(v: string): { from: number; to: number } {
  const [a, b] = v.includes('..') ? v.split('..', 2) : ['', v];
  const hi = level(b!);
  const lo = a === '' ? 0 : level(a!);
  if (hi === undefined || lo === undefined) throw new UsageError(`Unknown log level ${a !== '' && lo === undefined ? a : b}`);
  return { from: Math.min(lo, hi), to: Math.max(lo, hi) };
}

/** journalctl's options → a filter; throws UsageError with journalctl's message. */
export function parseJournalctlArgs(argv: string[], now: Date): JournalctlArgs {
  const units: string[] = [];
  const identifiers: string[] = [];
  let lines: number | undefined;
  let follow = false;
  let mode: OutputMode = 'short';
  let since: number | undefined;
  let until: number | undefined;
  let priorities: { from: number; to: number } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    // -uVALUE / -n5 short forms
    const short = /^-([utnoSUp])(.+)$/.exec(a);
    const value = (): string => {
      if (short) return short[2]!;
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`option requires an argument -- '${name.replace(/^-+/, '')}'`);
      return v;
    };
    const key = short ? `-${short[1]}` : name;
    switch (key) {
      case '-u':
      case '--unit':
        units.push(unitName(value()));
        break;
      case '-t':
      case '--identifier':
        identifiers.push(value());
        break;
      case '-k':
      case '--dmesg':
        identifiers.push('kernel');
        break;
      case '-n':
      case '--lines': {
        // -n alone means 10; a following word that is not a number is not its value.
        const v = short || inline !== undefined ? value() : /^\+?\d+$/.test(argv[i + 1] ?? '') ? argv[++i]! : '10';
        if (v === 'all') lines = undefined;
        else if (!/^\+?\d+$/.test(v)) throw new UsageError(`Failed to parse lines '${v}'`);
        else lines = Number(v.replace('+', ''));
        break;
      }
      case '-f':
      case '--follow':
        follow = true;
        break;
      case '-p':
      case '--priority':
        priorities = parsePriorities(value());
        break;
      case '-e':
      case '--pager-end':
        lines ??= 1000;
        break;
      case '-S':
      case '--since':
      case '-U':
      case '--until': {
        const v = value();
        const t = parseTimestamp(v, now);
        if (t === undefined) throw new UsageError(`Failed to parse timestamp: ${v}`);
        // The filter's window is in ms; timestamps parse to µs as journald's.
        if (key === '-S' || key === '--since') since = t / 1000;
        else until = t / 1000;
        break;
      }
      case '-o':
      case '--output': {
        const v = value();
        if (!MODES.includes(v as OutputMode)) throw new UsageError(`Unknown output format '${v}'.`);
        mode = v as OutputMode;
        break;
      }
      case '--no-pager':
      case '-b':
      case '--boot':
      case '-x':
      case '--catalog':
      case '-q':
      case '--quiet':
      case '-l':
      case '--full':
        break; // no pager; one boot; no catalog; lines are never ellipsized here
      default:
        if (a.startsWith('-')) throw new UsageError(a.startsWith('--') ? `unrecognized option '${a}'` : `invalid option -- '${a.slice(1, 2)}'`);
        throw new UsageError(`Unsupported match "${a}" (kubelab's journal matches units with -u and identifiers with -t).`);
    }
  }
  // -f shows the last 10 lines first, as journalctl.
  if (follow && lines === undefined) lines = 10;
  if (since !== undefined && until !== undefined && since > until) throw new UsageError('--since= must be before --until=.');
  const filter: JournalFilter = {
    ...(units.length ? { units } : {}),
    ...(identifiers.length ? { identifiers } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(lines !== undefined ? { lines } : {}),
    ...(priorities ? { priorities } : {}),
  };
  return { filter, follow, mode };
}

export const journalctl: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  let args: JournalctlArgs;
  try {
    args = parseJournalctlArgs(argv, io.now?.() ?? new Date());
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`journalctl: ${e.message}\n`);
    return 1;
  }
  const { lines: _lines, ...followFilter } = args.filter;
  // Take the files' ends before reading, so nothing written in between is lost.
  const follow = args.follow && io.signal ? followJournal(env.root, followFilter, io.signal) : undefined;
  const records = await readJournal(env.root, args.filter);
  for (const r of records) io.out(formatRecord(r, args.mode) + '\n');
  if (!follow) {
    if (records.length === 0) io.out('-- No entries --\n');
    return 0;
  }
  const seen = new Set(records.map((r) => `${r.__REALTIME_TIMESTAMP} ${r._PID} ${r.MESSAGE}`));
  for await (const r of follow) {
    if (seen.size && seen.delete(`${r.__REALTIME_TIMESTAMP} ${r._PID} ${r.MESSAGE}`)) continue;
    if (args.filter.until !== undefined && Number(r.__REALTIME_TIMESTAMP) / 1000 > args.filter.until) break;
    io.out(formatRecord(r, args.mode) + '\n');
  }
  return 0;
};
