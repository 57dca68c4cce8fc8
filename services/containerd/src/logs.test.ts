import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CriLogWriter, formatCriLines, logFilesMade } from './logs.js';

const turn = () => new Promise((r) => setImmediate(r));
/** The log's lines without their timestamps. */
const read = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^\S+ /, ''));

describe('CRI log lines', () => {
  it('tags full lines F, splits long ones into P parts, and keeps the unterminated rest', () => {
    expect(formatCriLines('stdout', 'one\ntwo\npart', 'T')).toEqual({ lines: ['T stdout F one', 'T stdout F two'], rest: 'part' });
    expect(formatCriLines('stderr', 'abcdefg\n', 'T', 3)).toEqual({ lines: ['T stderr P abc', 'T stderr P def', 'T stderr F g'], rest: '' });
  });
});

describe('CriLogWriter', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubelab-logs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the directory and the empty file as the container starts', async () => {
    const path = join(dir, 'ns_pod_uid', 'app', '0.log');
    new CriLogWriter(path);
    await logFilesMade();
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('appends the output of one turn together, at the end of the turn, in order', async () => {
    const path = join(dir, 'p', 'app', '0.log');
    const log = new CriLogWriter(path);
    log.write('stdout', 'early\n');
    await logFilesMade();
    expect(read(path)).toEqual(['stdout F early']);
    log.write('stdout', 'a\nb');
    log.write('stderr', 'oops\n');
    log.write('stdout', 'c\n');
    expect(read(path)).toEqual(['stdout F early']);
    await turn();
    expect(read(path)).toEqual(['stdout F early', 'stdout F a', 'stderr F oops', 'stdout F bc']);
  });

  it('on close, writes everything at once, making the file if the container ended before it was made', async () => {
    const path = join(dir, 'quick', 'app', '0.log');
    const log = new CriLogWriter(path);
    log.write('stdout', 'hello\nno newline');
    log.close();
    expect(read(path)).toEqual(['stdout F hello', 'stdout F no newline']);
    await logFilesMade();
    expect(read(path)).toEqual(['stdout F hello', 'stdout F no newline']);
  });

  it('makes an empty file on close when the container printed nothing', async () => {
    const path = join(dir, 'silent', 'app', '0.log');
    new CriLogWriter(path).close();
    expect(readFileSync(path, 'utf8')).toBe('');
    await logFilesMade();
  });

  it('reports a log that cannot be made once, and drops its output', async () => {
    writeFileSync(join(dir, 'file'), '');
    const errors: string[] = [];
    const log = new CriLogWriter(join(dir, 'file', 'app', '0.log'), (e) => errors.push(e.message));
    log.write('stdout', 'lost\n');
    await logFilesMade();
    log.close();
    expect(errors).toEqual([`ENOTDIR: not a directory, mkdir '${join(dir, 'file', 'app')}'`]);
  });

  it('keeps writing to a renamed file until reopen, then writes to a new file at the path (ReopenContainerLog)', async () => {
    const path = join(dir, '0.log');
    const w = new CriLogWriter(path);
    await logFilesMade();
    w.write('stdout', 'before\n');
    await turn();
    renameSync(path, `${path}.20261201-133315`);
    w.write('stdout', 'queued\n');
    w.reopen();
    w.write('stdout', 'after\n');
    await turn();
    w.close();
    expect(read(`${path}.20261201-133315`)).toEqual(['stdout F before', 'stdout F queued']);
    expect(read(path)).toEqual(['stdout F after']);
  });
});
