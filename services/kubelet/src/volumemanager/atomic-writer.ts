// Projects a set of files into a volume directory so a reader never sees a
// half-updated set (upstream pkg/volume/util/atomic_writer.go): the files are
// written into a fresh `..<timestamp>` directory, the `..data` symlink is
// swapped to it with one rename, and each visible top-level name is a symlink
// through `..data`. Names starting with `..` are reserved for this.

import { chmodSync, closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/** One file of a volume: its content and mode bits (upstream FileProjection). */
export interface FileProjection {
  data: Buffer;
  mode: number;
}

export type Payload = Map<string, FileProjection>;

const DATA_DIR = '..data';
const DATA_DIR_TMP = '..data_tmp';

/** Checks a payload path as upstream validatePath does; returns the error text or undefined. */
export function validatePath(p: string): string | undefined {
  if (p.length === 0) return undefined;
  if (posix.isAbsolute(p)) return `invalid path: must not be absolute path: ${p}`;
  if (p.length > 4096) return `invalid path: must be less than or equal to 4096 characters`;
  const items = p.split('/');
  for (const item of items) {
    if (item === '..') return `invalid path: must not contain '..': ${p}`;
    if (item.length > 255) return `invalid path: filenames must be less than or equal to 255 characters`;
  }
  if (items[0]!.startsWith('..') && items[0]!.length > 2) return `invalid path: must not start with '..': ${p}`;
  return undefined;
}

/** `..2006_01_02_15_04_05.` in UTC, the prefix of upstream's timestamped data directories. */
export function timestampDirPrefix(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `..${now.getUTCFullYear()}_${p(now.getUTCMonth() + 1)}_${p(now.getUTCDate())}_${p(now.getUTCHours())}_${p(now.getUTCMinutes())}_${p(now.getUTCSeconds())}.`;
}

/** Files (relative paths) under dir, recursively. */
function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(join(dir, e.name), rel));
    else out.push(rel);
  }
  return out;
}

/** Files under dir as listFiles gives them; none when dir is gone or not a directory (the readdir says so, no lstat first). */
function filesIn(dir: string): string[] {
  try {
    return listFiles(dir);
  } catch {
    return [];
  }
}

/**
 * The target of a symlink; undefined when nothing (or no symlink) is there. One readlink: a volume is
 * rewritten on every sync of its pod and its links are there then; only a first write pays for the error.
 */
function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** Whether the file at path holds exactly data (its size already matched): open, one read, close. */
function holds(path: string, data: Buffer): boolean {
  const fd = openSync(path, 'r');
  try {
    // One byte more than expected: a file grown since its lstat reads longer and differs.
    const buf = Buffer.allocUnsafe(data.length + 1);
    return readSync(fd, buf, 0, buf.length, 0) === data.length && buf.subarray(0, data.length).equals(data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes payload into targetDir atomically; returns whether anything changed.
 * `context` names the volume in errors, as upstream's writer context.
 */
export function writeAtomically(targetDir: string, payload: Payload, context: string, now = new Date()): boolean {
  const clean: Payload = new Map();
  for (const [p, f] of payload) {
    const err = validatePath(p);
    if (err) throw new Error(`${context}: ${err}`);
    clean.set(posix.normalize(p), f);
  }
  const dataLink = join(targetDir, DATA_DIR);
  const oldTsName = linkTarget(dataLink) ?? '';
  // A volume written before has its directory; only a first write creates it.
  if (!oldTsName) mkdirSync(targetDir, { recursive: true });
  const oldTsDir = oldTsName ? join(targetDir, oldTsName) : '';
  const oldFiles = oldTsDir ? filesIn(oldTsDir) : [];

  // Nothing to do when every file has the same content and mode and none went away (upstream shouldWritePayload).
  const removed = oldFiles.filter((f) => !clean.has(f));
  const unchanged =
    oldTsDir !== '' &&
    removed.length === 0 &&
    [...clean].every(([p, f]) => {
      const full = join(oldTsDir, p);
      const st = lstatSync(full, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size !== f.data.length) return false;
      return (st.mode & 0o7777) === f.mode && holds(full, f.data);
    });
  if (unchanged) {
    createUserVisible(targetDir, clean);
    return false;
  }

  const tsDir = mkdtempSync(join(targetDir, timestampDirPrefix(now)));
  for (const [p, f] of clean) {
    const full = join(tsDir, p);
    if (p.includes('/')) mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, f.data, { mode: f.mode });
    chmodSync(full, f.mode);
  }
  // Swap ..data to the new directory in one rename.
  const tmpLink = join(targetDir, DATA_DIR_TMP);
  rmSync(tmpLink, { force: true });
  symlinkSync(posix.basename(tsDir), tmpLink);
  renameSync(tmpLink, dataLink);
  createUserVisible(targetDir, clean);
  // Visible names no payload path uses any more go, then the old data directory.
  const wanted = new Set([...clean.keys()].map((p) => p.split('/')[0]!));
  for (const name of readdirSync(targetDir)) {
    if (name.startsWith('..') || wanted.has(name)) continue;
    const full = join(targetDir, name);
    if (lstatSync(full).isSymbolicLink()) unlinkSync(full);
  }
  if (oldTsDir && oldTsDir !== tsDir) rmSync(oldTsDir, { recursive: true, force: true });
  return true;
}

/** `<name>` → `..data/<name>` for each top-level name of the payload (upstream createUserVisibleFiles). */
function createUserVisible(targetDir: string, payload: Payload): void {
  for (const top of new Set([...payload.keys()].map((p) => p.split('/')[0]!))) {
    const visible = join(targetDir, top);
    const target = posix.join(DATA_DIR, top);
    if (linkTarget(visible) === target) continue;
    // Nothing there, a link elsewhere, or a file or directory in the way.
    rmSync(visible, { force: true, recursive: true });
    symlinkSync(target, visible);
  }
}
