import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timestampDirPrefix, validatePath, writeAtomically, type Payload } from './atomic-writer.js';

const files = (o: Record<string, [string, number]>): Payload => new Map(Object.entries(o).map(([k, [d, mode]]) => [k, { data: Buffer.from(d), mode }]));

describe('writeAtomically (upstream AtomicWriter)', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'kubelab-aw-')), 'vol');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('lays files out behind ..data and visible symlinks, with their modes', () => {
    const t = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(writeAtomically(dir, files({ greeting: ['hello', 0o644], 'conf/app.ini': ['x=1', 0o400] }), 'pod default/web volume cfg', t)).toBe(true);
    const entries = readdirSync(dir).sort();
    expect(entries).toEqual([expect.stringMatching(/^\.\.2025_01_02_03_04_05\.\w+$/), '..data', 'conf', 'greeting']);
    expect(readlinkSync(join(dir, '..data'))).toBe(entries[0]);
    expect(readlinkSync(join(dir, 'greeting'))).toBe('..data/greeting');
    expect(readlinkSync(join(dir, 'conf'))).toBe('..data/conf');
    expect(readFileSync(join(dir, 'greeting'), 'utf8')).toBe('hello');
    expect(readFileSync(join(dir, 'conf/app.ini'), 'utf8')).toBe('x=1');
    expect(statSync(join(dir, 'greeting')).mode & 0o777).toBe(0o644);
    expect(statSync(join(dir, 'conf/app.ini')).mode & 0o777).toBe(0o400);
  });

  it('swaps to a new data directory on change, dropping keys that went away and the old directory', () => {
    writeAtomically(dir, files({ a: ['1', 0o644], b: ['2', 0o644] }), 'ctx');
    const first = readlinkSync(join(dir, '..data'));
    expect(writeAtomically(dir, files({ a: ['changed', 0o644] }), 'ctx')).toBe(true);
    const second = readlinkSync(join(dir, '..data'));
    expect(second).not.toBe(first);
    expect(existsSync(join(dir, first))).toBe(false);
    expect(existsSync(join(dir, 'b'))).toBe(false);
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('changed');
  });

  it('leaves everything as it is when nothing changed', () => {
    writeAtomically(dir, files({ a: ['1', 0o644] }), 'ctx');
    const first = readlinkSync(join(dir, '..data'));
    expect(writeAtomically(dir, files({ a: ['1', 0o644] }), 'ctx')).toBe(false);
    expect(readlinkSync(join(dir, '..data'))).toBe(first);
    // A mode change alone is a change.
    expect(writeAtomically(dir, files({ a: ['1', 0o600] }), 'ctx')).toBe(true);
    expect(lstatSync(join(dir, 'a')).isSymbolicLink()).toBe(true);
  });

  // What may already be in the directory when the writer runs: each ends as the payload behind ..data.
  it.each([
    ['nothing (the directory does not exist)', () => {}],
    [
      'a dangling ..data link',
      () => {
        mkdirSync(dir, { recursive: true });
        symlinkSync('..gone', join(dir, '..data'));
      },
    ],
    [
      'a regular file under a visible name',
      () => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'a'), 'stale');
      },
    ],
    [
      'a directory under a visible name',
      () => {
        mkdirSync(join(dir, 'a'), { recursive: true });
        writeFileSync(join(dir, 'a', 'x'), 'stale');
      },
    ],
    [
      'a visible link to somewhere else',
      () => {
        mkdirSync(dir, { recursive: true });
        symlinkSync('/etc/hostname', join(dir, 'a'));
      },
    ],
  ])('writes the payload over %s', (_, before) => {
    before();
    expect(writeAtomically(dir, files({ a: ['1', 0o644] }), 'ctx')).toBe(true);
    expect(readlinkSync(join(dir, 'a'))).toBe('..data/a');
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('1');
    expect(existsSync(join(dir, readlinkSync(join(dir, '..data'))))).toBe(true);
    // Written once, the same payload again changes nothing.
    expect(writeAtomically(dir, files({ a: ['1', 0o644] }), 'ctx')).toBe(false);
  });

  it('writes again when a file of the data directory differs from the payload in size, content or kind', () => {
    writeAtomically(dir, files({ a: ['12', 0o644] }), 'ctx');
    const data = () => join(dir, readlinkSync(join(dir, '..data')));
    writeFileSync(join(data(), 'a'), '123');
    expect(writeAtomically(dir, files({ a: ['12', 0o644] }), 'ctx')).toBe(true);
    writeFileSync(join(data(), 'a'), '13');
    expect(writeAtomically(dir, files({ a: ['12', 0o644] }), 'ctx')).toBe(true);
    rmSync(join(data(), 'a'));
    mkdirSync(join(data(), 'a'));
    expect(writeAtomically(dir, files({ a: ['12', 0o644] }), 'ctx')).toBe(true);
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('12');
  });

  it('refuses paths outside the volume with the upstream text', () => {
    expect(() => writeAtomically(dir, files({ '../escape': ['x', 0o644] }), 'pod default/web volume cfg')).toThrow("pod default/web volume cfg: invalid path: must not contain '..': ../escape");
  });
});

describe('validatePath', () => {
  it.each([
    ['key', undefined],
    ['dir/key', undefined],
    ['/abs', 'invalid path: must not be absolute path: /abs'],
    ['a/../b', "invalid path: must not contain '..': a/../b"],
    ['..data', "invalid path: must not start with '..': ..data"],
  ])('%j → %s', (p, err) => expect(validatePath(p)).toBe(err));

  it('timestamps directories as upstream (..2006_01_02_15_04_05.)', () => {
    expect(timestampDirPrefix(new Date(Date.UTC(2025, 11, 31, 23, 59, 58)))).toBe('..2025_12_31_23_59_58.');
  });
});
