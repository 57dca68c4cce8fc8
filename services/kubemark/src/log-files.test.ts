import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LogFiles } from './log-files.js';

const dir = mkdtempSync(join(tmpdir(), 'kubemark-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The file's text; '' while the stream has not yet made it. */
const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

describe('LogFiles', () => {
  it('appends a batch per period, in order, and what waits at close', async () => {
    const files = new LogFiles(50);
    const a = files.open(join(dir, 'node-1', 'logs', 'kubelet.log'));
    const b = files.open(join(dir, 'node-2', 'logs', 'kubelet.log'));
    a.write('I one');
    b.write('I other');
    a.write('I two');
    // Not yet appended: the period has not passed.
    expect(read(join(dir, 'node-1', 'logs', 'kubelet.log'))).toBe('');
    await new Promise((r) => setTimeout(r, 150));
    expect(read(join(dir, 'node-1', 'logs', 'kubelet.log'))).toBe('I one\nI two\n');
    a.write('I three');
    await a.close();
    await b.close();
    expect(read(join(dir, 'node-1', 'logs', 'kubelet.log'))).toBe('I one\nI two\nI three\n');
    expect(read(join(dir, 'node-2', 'logs', 'kubelet.log'))).toBe('I other\n');
  });

  it('keeps what the file held (a node started again) and drops lines written after close', async () => {
    const path = join(dir, 'node-3.log');
    writeFileSync(path, 'before restart\n');
    const files = new LogFiles(10_000);
    const f = files.open(path);
    f.write('after restart');
    await f.close();
    f.write('too late');
    files.flush();
    await new Promise((r) => setTimeout(r, 50));
    expect(read(path)).toBe('before restart\nafter restart\n');
  });
});
