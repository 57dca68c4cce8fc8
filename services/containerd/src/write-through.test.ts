import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Bash } from 'just-bash';
import { ContainerFs } from './containerfs.js';
import { copyMounts } from './mounts.js';
import { WriteThrough } from './write-through.js';

const env = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A container whose /data is the host directory `host` (mounted as the runtime does: a copy, written through). */
function container(host: string, readonly = false): Bash {
  const mounts = [{ hostPath: host, containerPath: '/data', readonly }];
  const fs = new ContainerFs(
    copyMounts(mounts, () => {}),
    () => {},
    undefined,
    new WriteThrough(mounts),
  );
  const bash = new Bash({ fs, cwd: '/', env, defenseInDepth: false });
  fs.sealStubs();
  return bash;
}

describe('writable host mounts are written through', () => {
  it('what one container writes, the next container on the same directory reads', async () => {
    const host = mkdtempSync(join(tmpdir(), 'kl-wt-'));
    dirs.push(host);
    const first = await container(host).exec('echo hello > /data/greeting; mkdir -p /data/sub; echo a >> /data/sub/log; echo b >> /data/sub/log');
    expect(first.exitCode).toBe(0);
    expect(readFileSync(join(host, 'greeting'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(host, 'sub/log'), 'utf8')).toBe('a\nb\n');
    const second = await container(host).exec('cat /data/greeting /data/sub/log; mv /data/greeting /data/hi; rm -rf /data/sub; ls /data');
    expect(second.stdout).toBe('hello\na\nb\nhi\n');
    expect(existsSync(join(host, 'sub'))).toBe(false);
    expect(readFileSync(join(host, 'hi'), 'utf8')).toBe('hello\n');
  });

  it('read-only mounts and paths outside mounts stay in the container', async () => {
    const host = mkdtempSync(join(tmpdir(), 'kl-wt-'));
    dirs.push(host);
    writeFileSync(join(host, 'kept'), 'x\n');
    await container(host, true).exec('echo y > /data/kept; echo z > /tmp/z');
    expect(readFileSync(join(host, 'kept'), 'utf8')).toBe('x\n');
    expect(existsSync(join(host, 'z'))).toBe(false);
  });
});
