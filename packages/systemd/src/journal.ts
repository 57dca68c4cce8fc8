// journald's role on a kubelab node: one JSON-lines file per syslog
// identifier under <root>/var/log/journal, a record per line with journald's
// field names and string values (as `journalctl -o json` prints them). Files
// are bounded as journald's SystemMaxFileSize bounds its journal files: at
// 8 MiB the file is rotated to <name>.jsonl.1 (the one archived file kept).

import { appendFileSync, closeSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A journal entry; values are strings, as journald stores and prints them. */
export interface JournalRecord {
  /** µs since the epoch. */
  __REALTIME_TIMESTAMP: string;
  _HOSTNAME: string;
  _PID?: string;
  _SYSTEMD_UNIT?: string;
  SYSLOG_IDENTIFIER: string;
  /** syslog priority: 3 err, 4 warning, 6 info. */
  PRIORITY: string;
  _TRANSPORT: 'stdout' | 'journal' | 'kernel' | 'syslog';
  MESSAGE: string;
  /** The unit systemd's own lines are about (`Started kubelet.service - …`). */
  UNIT?: string;
  /** µs since the node booted (kernel records: dmesg's timestamp). */
  _SOURCE_MONOTONIC_TIMESTAMP?: string;
  [field: string]: string | undefined;
}

export interface JournalFilter {
  /** `journalctl -u`: records of these units, and systemd's lines about them. */
  units?: string[];
  /** `journalctl -t`: records with these SYSLOG_IDENTIFIERs (also picks the files read). */
  identifiers?: string[];
  /** ms since the epoch (Date.getTime()), inclusive. */
  since?: number;
  /** ms since the epoch, inclusive. */
  until?: number;
  /** Only the last N records (`-n N`). */
  lines?: number;
  /** `journalctl -p`: syslog priorities from..to (0 emerg … 7 debug), inclusive. */
  priorities?: { from: number; to: number };
}

/** journald's SystemMaxFileSize for kubelab's files. */
export const JOURNAL_MAX_BYTES = 8 * 1024 * 1024;

export function journalDir(root: string): string {
  return join(root, 'var', 'log', 'journal');
}

export function journalFile(root: string, identifier: string): string {
  return join(journalDir(root), `${identifier.replace(/[^A-Za-z0-9._-]/g, '_')}.jsonl`);
}

/** µs since the epoch as journald writes __REALTIME_TIMESTAMP. */
export function realtimeNow(now: Date = new Date()): string {
  return String(now.getTime() * 1000);
}

/** Appends one record as a whole line (O_APPEND), rotating the file first when it would pass the bound. */
export function appendJournal(root: string, record: JournalRecord, maxBytes = JOURNAL_MAX_BYTES): void {
  const file = journalFile(root, record.SYSLOG_IDENTIFIER);
  const line = JSON.stringify(record) + '\n';
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    mkdirSync(journalDir(root), { recursive: true });
  }
  if (size > 0 && size + Buffer.byteLength(line) > maxBytes) renameSync(file, `${file}.1`);
  appendFileSync(file, line);
}

/** Whether a record passes the filter's units, identifiers and time window. */
export function matches(r: JournalRecord, f: JournalFilter): boolean {
  if (f.units && !f.units.some((u) => r._SYSTEMD_UNIT === u || r.UNIT === u)) return false;
  if (f.identifiers && !f.identifiers.includes(r.SYSLOG_IDENTIFIER)) return false;
  const t = Number(r.__REALTIME_TIMESTAMP) / 1000;
  if (f.since !== undefined && t < f.since) return false;
  if (f.until !== undefined && t > f.until) return false;
  if (f.priorities) {
    const p = Number(r.PRIORITY);
    if (!(p >= f.priorities.from && p <= f.priorities.to)) return false;
  }
  return true;
}

/** The files a filter reads, oldest archive first: all identifiers unless the filter names them. */
function filesFor(root: string, f: JournalFilter): string[] {
  const dir = journalDir(root);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
  if (f.identifiers) names = names.filter((n) => f.identifiers!.some((id) => journalFile(root, id) === join(dir, n)));
  return names.sort().flatMap((n) => [`${join(dir, n)}.1`, join(dir, n)]);
}

function parse(line: string): JournalRecord | undefined {
  if (!line) return undefined;
  try {
    const r = JSON.parse(line) as JournalRecord;
    return typeof r.MESSAGE === 'string' && typeof r.__REALTIME_TIMESTAMP === 'string' ? r : undefined;
  } catch {
    return undefined; // a torn or foreign line is skipped, as journalctl skips corrupt entries
  }
}

/**
 * The records passing the filter, merged from all files in time order (as
 * journalctl interleaves its files). With `lines`, only the last N are kept
 * while reading, so memory stays bounded by N and the files' bound.
 */
export async function readJournal(root: string, f: JournalFilter = {}): Promise<JournalRecord[]> {
  const perFile: JournalRecord[][] = [];
  for (const file of filesFor(root, f)) {
    if (!existsSync(file)) continue;
    const out: JournalRecord[] = [];
    const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of rl) {
      const r = parse(line);
      if (!r || !matches(r, f)) continue;
      out.push(r);
      if (f.lines !== undefined && out.length > f.lines) out.shift();
    }
    perFile.push(out);
  }
  const all = perFile.flat().sort((a, b) => Number(a.__REALTIME_TIMESTAMP) - Number(b.__REALTIME_TIMESTAMP));
  return f.lines !== undefined ? all.slice(Math.max(0, all.length - f.lines)) : all;
}

/** Reads a file's bytes from `offset` to its end; returns the complete lines and the offset after the last one. */
function readFrom(file: string, offset: number): { lines: string[]; offset: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { lines: [], offset };
  }
  try {
    const size = statSync(file).size;
    if (size <= offset) return { lines: [], offset };
    // Bounded reads: at most one file's bound at a time.
    const len = Math.min(size - offset, JOURNAL_MAX_BYTES);
    const buf = Buffer.alloc(len);
    const n = readSync(fd, buf, 0, len, offset);
    const text = buf.subarray(0, n).toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) return { lines: [], offset };
    return { lines: text.slice(0, end).split('\n'), offset: offset + Buffer.byteLength(text.slice(0, end + 1)) };
  } finally {
    closeSync(fd);
  }
}

interface Cursor {
  ino: number;
  offset: number;
}

/**
 * New records passing the filter as they are appended (`journalctl -f`),
 * until `signal` aborts. The files' ends are taken when this is called, so
 * records written after a readJournal and before the first `next()` are not
 * lost. Woken by fs.watch on the journal folder; a rotated file's rest is
 * read from its archive before the new file.
 */
export function followJournal(root: string, filter: Omit<JournalFilter, 'lines'>, signal: AbortSignal): AsyncIterable<JournalRecord> {
  const dir = journalDir(root);
  mkdirSync(dir, { recursive: true });
  const cursors = new Map<string, Cursor>();
  const cursorOf = (file: string): Cursor | undefined => {
    try {
      const st = statSync(file);
      return { ino: st.ino, offset: st.size };
    } catch {
      return undefined;
    }
  };
  for (const file of filesFor(root, filter).filter((f) => !f.endsWith('.1'))) {
    const c = cursorOf(file);
    if (c) cursors.set(file, c);
  }

  const drain = (): JournalRecord[] => {
    const out: JournalRecord[] = [];
    for (const file of filesFor(root, filter).filter((f) => !f.endsWith('.1'))) {
      let st;
      try {
        st = statSync(file);
      } catch {
        continue;
      }
      let c = cursors.get(file) ?? { ino: st.ino, offset: 0 };
      if (c.ino !== st.ino) {
        // Rotated: the rest of the old file now lives in the archive.
        const rest = readFrom(`${file}.1`, c.offset);
        out.push(...rest.lines.map(parse).filter((r): r is JournalRecord => r !== undefined));
        c = { ino: st.ino, offset: 0 };
      }
      const got = readFrom(file, c.offset);
      out.push(...got.lines.map(parse).filter((r): r is JournalRecord => r !== undefined));
      cursors.set(file, { ino: c.ino, offset: got.offset });
    }
    return out.filter((r) => matches(r, filter)).sort((a, b) => Number(a.__REALTIME_TIMESTAMP) - Number(b.__REALTIME_TIMESTAMP));
  };

  return {
    [Symbol.asyncIterator]: async function* () {
      let wake: (() => void) | undefined;
      let pending = true;
      const notify = () => {
        pending = true;
        wake?.();
      };
      let watcher: FSWatcher | undefined;
      let fallback: NodeJS.Timeout | undefined;
      try {
        watcher = watch(dir, notify);
      } catch {
        // No inotify (some bind mounts): look once a second, well under journalctl's own wake-ups.
        fallback = setInterval(notify, 1000);
      }
      signal.addEventListener('abort', notify, { once: true });
      try {
        while (!signal.aborted) {
          if (!pending) await new Promise<void>((r) => (wake = r));
          wake = undefined;
          pending = false;
          if (signal.aborted) break;
          for (const r of drain()) yield r;
        }
      } finally {
        watcher?.close();
        if (fallback) clearInterval(fallback);
        signal.removeEventListener('abort', notify);
      }
    },
  };
}

/** µs since the node's kernel booted (/proc/uptime), for kernel records' _SOURCE_MONOTONIC_TIMESTAMP. */
export function monotonicNow(): string {
  try {
    const seconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return String(Math.round(seconds * 1e6));
  } catch {
    return String(Math.round(performance.now() * 1000));
  }
}

/** A kernel log line (/dev/kmsg's role) as the kernel monitor and dmesg read it. */
export function kernelRecord(hostname: string, message: string, priority = 6, now: Date = new Date()): JournalRecord {
  return {
    __REALTIME_TIMESTAMP: realtimeNow(now),
    _HOSTNAME: hostname,
    SYSLOG_IDENTIFIER: 'kernel',
    PRIORITY: String(priority),
    _TRANSPORT: 'kernel',
    MESSAGE: message,
    _SOURCE_MONOTONIC_TIMESTAMP: monotonicNow(),
  };
}

/**
 * A new boot's kernel ring buffer: the kernel lines so far are kept aside as
 * the previous boot's (<name>.jsonl.prev-boot, one kept, read by nobody, as
 * /dev/kmsg after a reboot holds only the new boot's lines), so the kernel
 * monitor's lookback and dmesg start empty.
 */
export function startKernelBoot(root: string): void {
  const file = journalFile(root, 'kernel');
  if (!existsSync(file)) return;
  renameSync(file, `${file}.prev-boot`);
  rmSync(`${file}.1`, { force: true });
}
