// The node's journal as the Node Problem Detector reads it (sdjournal's and
// /dev/kmsg's role): JSON-lines files `<root>/var/log/journal/<identifier>.jsonl`,
// one journald record per line, rotated to `<identifier>.jsonl.1`. Coded to
// the contract of `@kubelab/systemd` (readJournal, followJournal); this module
// is the one seam to swap for that package.

import { watch, type FSWatcher } from 'node:fs';
import { appendFile, mkdir, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One journal entry, with journald's field names and string values (`journalctl -o json`). */
export interface JournalRecord {
  __REALTIME_TIMESTAMP: string;
  _HOSTNAME?: string;
  _PID?: string;
  _SYSTEMD_UNIT?: string;
  SYSLOG_IDENTIFIER?: string;
  PRIORITY?: string;
  _TRANSPORT?: string;
  UNIT?: string;
  _SOURCE_MONOTONIC_TIMESTAMP?: string;
  MESSAGE: string;
  [field: string]: string | undefined;
}

export interface JournalFilter {
  /** SYSLOG_IDENTIFIER values (also the file names read). */
  identifiers?: string[];
  /** _SYSTEMD_UNIT values, e.g. `kubelet.service`. */
  units?: string[];
  /** Only entries at or after this time (ms since epoch). */
  since?: number;
  /** Only the last N entries (readJournal). */
  lines?: number;
}

export const JOURNAL_DIR = 'var/log/journal';
/** A read never holds more than this many bytes of one file at once. */
const READ_CHUNK = 1 << 20;
/** The fallback rescan period when fs.watch misses a change (no faster than 250 ms, per the contract). */
const RESCAN_MS = 1000;

export function journalDir(root: string): string {
  return join(root, JOURNAL_DIR);
}

/** Realtime timestamp of a record in ms since the epoch. */
export function recordTimeMs(r: JournalRecord): number {
  return Number(r.__REALTIME_TIMESTAMP) / 1000;
}

/** Whether a record passes a filter (identifiers, units, since). */
export function matchesFilter(r: JournalRecord, f: JournalFilter): boolean {
  if (f.identifiers && !f.identifiers.includes(r.SYSLOG_IDENTIFIER ?? '')) return false;
  if (f.units && !f.units.includes(r._SYSTEMD_UNIT ?? '')) return false;
  if (f.since !== undefined && recordTimeMs(r) < f.since) return false;
  return true;
}

/** Parses one line; a torn or foreign line is skipped (undefined), never thrown. */
export function parseRecord(line: string): JournalRecord | undefined {
  if (!line.trim()) return undefined;
  try {
    const r = JSON.parse(line) as JournalRecord;
    return typeof r === 'object' && r !== null && typeof r.MESSAGE === 'string' && typeof r.__REALTIME_TIMESTAMP === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

function filesFor(filter: JournalFilter): string[] {
  // Units are named by their service (`kubelet.service` → kubelet.jsonl).
  const ids = filter.identifiers ?? filter.units?.map((u) => u.replace(/\.service$/, '')) ?? [];
  return [...new Set(ids)];
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** The entries in the journal matching the filter, oldest first (rotated file first). */
export async function readJournal(root: string, filter: JournalFilter = {}): Promise<JournalRecord[]> {
  const out: JournalRecord[] = [];
  for (const id of filesFor(filter)) {
    const base = join(journalDir(root), `${id}.jsonl`);
    for (const text of [await readText(`${base}.1`), await readText(base)]) {
      for (const line of text.split('\n')) {
        const r = parseRecord(line);
        if (r && matchesFilter(r, filter)) out.push(r);
      }
    }
  }
  out.sort((a, b) => Number(a.__REALTIME_TIMESTAMP) - Number(b.__REALTIME_TIMESTAMP));
  return filter.lines !== undefined ? out.slice(Math.max(0, out.length - filter.lines)) : out;
}

/** Reads one file from an offset: whole lines only; the torn tail stays for the next read. */
class FileTail {
  private offset = 0;
  private ino: number | undefined;
  private partial = '';

  constructor(readonly path: string) {}

  /** Start at the current end (only new lines follow). */
  async seekEnd(): Promise<void> {
    try {
      const st = await stat(this.path);
      this.offset = st.size;
      this.ino = st.ino;
    } catch {
      this.offset = 0;
    }
  }

  async readNew(): Promise<string[]> {
    let st;
    try {
      st = await stat(this.path);
    } catch {
      return [];
    }
    const lines: string[] = [];
    if (this.ino !== undefined && st.ino !== this.ino) {
      // Rotated (renamed to .1, a new file started): finish the old file where we were, then read the new one from its start.
      try {
        const old = await stat(`${this.path}.1`);
        if (old.ino === this.ino) lines.push(...(await this.read(`${this.path}.1`, old.ino, old.size)));
      } catch {}
      this.offset = 0;
      this.partial = '';
    } else if (st.size < this.offset) {
      // Truncated in place.
      this.offset = 0;
      this.partial = '';
    }
    this.ino = st.ino;
    lines.push(...(await this.read(this.path, st.ino, st.size)));
    return lines;
  }

  /** Reads `path` from the offset up to size, if it still is the file `ino` (a rename in between: nothing, the next read sees it). */
  private async read(path: string, ino: number, size: number): Promise<string[]> {
    const lines: string[] = [];
    if (size <= this.offset) return lines;
    let fh;
    try {
      fh = await open(path, 'r');
    } catch (err) {
      // Rotated between stat and open: the next read finds it as `.1`.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return lines;
      throw err;
    }
    try {
      if ((await fh.stat()).ino !== ino) return lines;
      while (this.offset < size) {
        const len = Math.min(READ_CHUNK, size - this.offset);
        const buf = Buffer.alloc(len);
        const { bytesRead } = await fh.read(buf, 0, len, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const parts = (this.partial + buf.subarray(0, bytesRead).toString('utf8')).split('\n');
        this.partial = parts.pop() ?? '';
        // A line longer than a chunk twice over is not a journal record: drop it rather than grow.
        if (this.partial.length > 2 * READ_CHUNK) this.partial = '';
        lines.push(...parts);
      }
    } finally {
      await fh.close();
    }
    return lines;
  }
}

/**
 * New entries matching the filter as they are appended (fs.watch on the
 * journal directory, then a read from each file's offset). With `since`,
 * entries already written at or after it come first (the monitors' lookback).
 */
export async function* followJournal(root: string, filter: JournalFilter, signal: AbortSignal): AsyncGenerator<JournalRecord> {
  const dir = journalDir(root);
  const tails = filesFor(filter).map((id) => new FileTail(join(dir, `${id}.jsonl`)));
  if (filter.since === undefined) await Promise.all(tails.map((t) => t.seekEnd()));
  else {
    // Lookback: the rotated files' entries since then; the live files are read from their start below.
    for (const t of tails) {
      for (const line of (await readText(`${t.path}.1`)).split('\n')) {
        const r = parseRecord(line);
        if (r && matchesFilter(r, filter)) yield r;
      }
    }
  }

  let wake: (() => void) | undefined;
  let dirty = true;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  let watcher: FSWatcher | undefined;
  const startWatch = () => {
    if (watcher) return;
    try {
      watcher = watch(dir, { persistent: false }, poke);
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined; // The directory does not exist yet: the rescan retries.
    }
  };
  startWatch();
  const timer = setInterval(() => {
    startWatch();
    poke();
  }, RESCAN_MS);
  timer.unref();
  signal.addEventListener('abort', poke, { once: true });
  try {
    while (!signal.aborted) {
      if (!dirty) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      dirty = false;
      for (const t of tails) {
        for (const line of await t.readNew()) {
          const r = parseRecord(line);
          if (r && matchesFilter(r, filter)) {
            if (signal.aborted) return;
            yield r;
          }
        }
      }
    }
  } finally {
    clearInterval(timer);
    watcher?.close();
    signal.removeEventListener('abort', poke);
  }
}

/** Appends one record as a whole line (O_APPEND) to its identifier's file, for tests and fault injection. */
export async function appendJournal(root: string, record: JournalRecord): Promise<void> {
  const id = record.SYSLOG_IDENTIFIER || record._SYSTEMD_UNIT?.replace(/\.service$/, '');
  if (!id) throw new Error('journal record has neither SYSLOG_IDENTIFIER nor _SYSTEMD_UNIT');
  await mkdir(journalDir(root), { recursive: true });
  await appendFile(join(journalDir(root), `${id}.jsonl`), JSON.stringify(record) + '\n');
}
